package io.god.cluster;

import io.god.wire.WireReader;
import io.god.wire.WireWriter;
import java.util.Arrays;

/**
 * Key geometry of the anti-entropy walk: keys as strings of 4-bit nibbles (high nibble of each byte
 * first), prefix regions, where a region lies relative to a wrapping key range, and a compact
 * encoding of sorted prefixes (each sent as its difference from the previous one).
 */
final class Nibbles {

    private Nibbles() {
    }

    enum Place { INSIDE, PARTIAL, OUTSIDE }

    static int nibble(byte[] key, int i) {
        int b = key[i >> 1] & 0xff;
        return (i & 1) == 0 ? b >>> 4 : b & 0x0f;
    }

    /** Index of the first differing nibble, at most limit (a shorter key differs where it ends). */
    static int mismatch(byte[] a, byte[] b, int limit) {
        for (int i = 0; i < limit; i++) {
            if ((i >> 1) >= a.length || (i >> 1) >= b.length || nibble(a, i) != nibble(b, i)) {
                return i;
            }
        }
        return limit;
    }

    static boolean hasPrefix(byte[] key, byte[] prefix, int nibbles) {
        return key.length * 2 >= nibbles && mismatch(key, prefix, nibbles) == nibbles;
    }

    /** The first depth nibbles of key followed by nibble. */
    static byte[] withNibble(byte[] key, int depth, int nibble) {
        byte[] out = new byte[(depth >> 1) + 1];
        System.arraycopy(key, 0, out, 0, Math.min(key.length, out.length));
        int i = depth >> 1;
        out[i] = (depth & 1) == 0 ? (byte) (nibble << 4) : (byte) ((out[i] & 0xf0) | nibble);
        return out;
    }

    /** The smallest key starting with the first {@code nibbles} nibbles of prefix. */
    static byte[] low(byte[] prefix, int nibbles) {
        byte[] out = Arrays.copyOf(prefix, (nibbles + 1) >> 1);
        if ((nibbles & 1) == 1) {
            out[out.length - 1] &= (byte) 0xf0;
        }
        return out;
    }

    /** The smallest key greater than every key with that prefix; null when there is none. */
    static byte[] high(byte[] prefix, int nibbles) {
        int n = nibbles;
        int[] nib = new int[n];
        for (int i = 0; i < n; i++) {
            nib[i] = nibble(prefix, i);
        }
        while (n > 0 && nib[n - 1] == 15) {
            n--;
        }
        if (n == 0) {
            return null;
        }
        nib[n - 1]++;
        byte[] out = new byte[(n + 1) >> 1];
        for (int i = 0; i < n; i++) {
            out[i >> 1] |= (byte) ((i & 1) == 0 ? nib[i] << 4 : nib[i]);
        }
        return out;
    }

    /** Where the keys with this prefix lie relative to [from, to) (wrapping; null = everything). */
    static Place place(byte[] prefix, int nibbles, byte[] from, byte[] to) {
        if (from == null) {
            return Place.INSIDE;
        }
        byte[] lo = low(prefix, nibbles);
        byte[] hi = high(prefix, nibbles);
        if (Arrays.compareUnsigned(from, to) < 0) {
            if (Arrays.compareUnsigned(from, lo) <= 0 && hi != null && Arrays.compareUnsigned(hi, to) <= 0) {
                return Place.INSIDE;
            }
            if (hi != null && Arrays.compareUnsigned(hi, from) <= 0 || Arrays.compareUnsigned(lo, to) >= 0) {
                return Place.OUTSIDE;
            }
            return Place.PARTIAL;
        }
        if (Arrays.compareUnsigned(from, lo) <= 0 || hi != null && Arrays.compareUnsigned(hi, to) <= 0) {
            return Place.INSIDE;
        }
        if (hi != null && Arrays.compareUnsigned(hi, from) <= 0 && Arrays.compareUnsigned(lo, to) >= 0) {
            return Place.OUTSIDE;
        }
        return Place.PARTIAL;
    }

    /** Whether key lies in [from, to) (wrapping; null = everything). */
    static boolean inRange(byte[] key, byte[] from, byte[] to) {
        if (from == null) {
            return true;
        }
        if (Arrays.compareUnsigned(from, to) < 0) {
            return Arrays.compareUnsigned(key, from) >= 0 && Arrays.compareUnsigned(key, to) < 0;
        }
        return Arrays.compareUnsigned(key, from) >= 0 || Arrays.compareUnsigned(key, to) < 0;
    }

    /**
     * Writes a prefix of {@code nibbles} nibbles as (nibbles shared with the previous prefix and
     * nibbles added, in one varint when few are added; then the added nibbles packed two per byte): neighbouring regions of a walk share most of
     * their nibbles, so a region costs two or three bytes instead of its whole key.
     */
    static void writePrefix(WireWriter w, byte[] previous, int previousNibbles, byte[] prefix, int nibbles) {
        int shared = mismatch(previous, prefix, Math.min(previousNibbles, nibbles));
        int added = nibbles - shared;
        w.varint((long) shared << 3 | Math.min(added, 7));
        if (added >= 7) {
            w.varint(added - 7);
        }
        byte[] tail = new byte[(nibbles - shared + 1) >> 1];
        for (int i = shared; i < nibbles; i++) {
            int j = i - shared;
            tail[j >> 1] |= (byte) ((j & 1) == 0 ? nibble(prefix, i) << 4 : nibble(prefix, i));
        }
        w.raw(tail);
    }

    /** Reads what {@link #writePrefix} wrote; returns the prefix bytes (its nibble count is {@code nibblesOut[0]}). */
    static byte[] readPrefix(WireReader r, byte[] previous, int previousNibbles, int[] nibblesOut) {
        long header = r.varint();
        long shared = header >>> 3;
        long added = (header & 7) == 7 ? 7 + r.varint() : header & 7;
        if (shared > previousNibbles || added < 0 || added > 1 << 20) {
            throw new io.god.wire.WireException("bad prefix: " + shared + " shared of " + previousNibbles + ", " + added + " added");
        }
        int nibbles = (int) (shared + added);
        byte[] tail = r.raw((int) ((added + 1) >> 1));
        byte[] out = new byte[(nibbles + 1) >> 1];
        int copied = (int) ((shared + 1) >> 1);
        System.arraycopy(previous, 0, out, 0, copied);
        if ((shared & 1) == 1) {
            out[copied - 1] &= (byte) 0xf0;
        }
        for (int j = 0; j < added; j++) {
            int v = (j & 1) == 0 ? (tail[j >> 1] >> 4) & 0xf : tail[j >> 1] & 0xf;
            int i = (int) shared + j;
            out[i >> 1] |= (byte) ((i & 1) == 0 ? v << 4 : v);
        }
        nibblesOut[0] = nibbles;
        return out;
    }
}

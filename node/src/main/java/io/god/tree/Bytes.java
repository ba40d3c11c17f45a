package io.god.tree;

import java.util.Arrays;

/** Byte-string helpers: unsigned order, nibble access and the mirror-key escaping. */
public final class Bytes {

    public static final byte[] EMPTY = new byte[0];

    private Bytes() {
    }

    /** Unsigned lexicographic order; a proper prefix sorts first. */
    public static int compare(byte[] a, byte[] b) {
        return Arrays.compareUnsigned(a, b);
    }

    /** Number of nibbles (half bytes) of a key. */
    static int nibbles(byte[] key) {
        return key.length << 1;
    }

    /** The i-th nibble of a key, high nibble of each byte first. */
    static int nibble(byte[] key, int i) {
        int b = key[i >> 1];
        return (i & 1) == 0 ? (b >> 4) & 0xf : b & 0xf;
    }

    /** Index of the first nibble where a and b differ, looking at no more than {@code limit} nibbles. */
    static int mismatch(byte[] a, byte[] b, int limit) {
        int bytes = limit >> 1;
        int m = Arrays.mismatch(a, 0, bytes, b, 0, bytes);
        if (m >= 0) {
            return (((a[m] ^ b[m]) & 0xf0) != 0) ? m << 1 : (m << 1) + 1;
        }
        if ((limit & 1) != 0 && nibble(a, limit - 1) != nibble(b, limit - 1)) {
            return limit - 1;
        }
        return limit;
    }

    /** True when the first {@code nibbles} nibbles of key equal those of prefix. */
    static boolean hasPrefix(byte[] key, byte[] prefix, int nibbles) {
        return nibbles(key) >= nibbles && mismatch(key, prefix, nibbles) == nibbles;
    }

    static String hex(byte[] b) {
        StringBuilder sb = new StringBuilder(b.length * 2);
        for (byte x : b) {
            sb.append(Character.forDigit((x >> 4) & 0xf, 16)).append(Character.forDigit(x & 0xf, 16));
        }
        return sb.toString();
    }
}

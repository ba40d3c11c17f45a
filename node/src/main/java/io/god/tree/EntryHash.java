package io.god.tree;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The 128-bit Merkle hash of one entry: murmur3_128 (seed 0) of its length-prefixed key, state,
 * value and sub-tree hash, bit for bit the same as Guava's streaming {@code Hashing.murmur3_128()}
 * (a test checks it). Entries do not store their hash (16 bytes a key): a write recomputes the
 * replaced entry's hash once, which this allocation-light version keeps cheap.
 */
final class EntryHash {

    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long C1 = 0x87c37b91114253d5L;
    private static final long C2 = 0x4cf5ad432745937fL;
    static final byte NO_VALUE = 0;
    static final byte VALUE = 1;
    static final byte TOMBSTONE = 2;

    private EntryHash() {
    }

    /**
     * The hash of an entry stored as {@code data}: its key (the first keyLength bytes), then, when
     * state is {@link #VALUE}, the value (the rest).
     */
    static Hash128 of(byte[] data, int keyLength, byte state, Hash128 sub) {
        int valueLength = data.length - keyLength;
        boolean value = state == VALUE;
        int n = 4 + keyLength + 1 + (value ? 4 + valueLength : 0) + (sub != null ? 16 : 0);
        byte[] buf = new byte[n];
        INT.set(buf, 0, keyLength);
        System.arraycopy(data, 0, buf, 4, keyLength);
        int p = 4 + keyLength;
        buf[p++] = state;
        if (value) {
            INT.set(buf, p, valueLength);
            System.arraycopy(data, keyLength, buf, p + 4, valueLength);
            p += 4 + valueLength;
        }
        if (sub != null) {
            LONG.set(buf, p, sub.h1());
            LONG.set(buf, p + 8, sub.h2());
        }
        return murmur3(buf);
    }

    /** Odd, so that multiplying a sum of stamp parts by it is the sum of the products (mod 2^64). */
    private static final long STAMP_LANE = 0x9e3779b97f4a7c15L;

    /**
     * The stamp part of an entry whose content hash is {@code content}: a 64-bit mix of that hash,
     * its timestamp and its sub tree's stamp sum. Tied to the content hash (key and value), so the
     * same stamp on two keys counts twice, not zero times, in a branch's sum.
     */
    static long stamp(Hash128 content, long timestamp, long subStamps) {
        long x = content.h1() ^ Long.rotateLeft(content.h2(), 29);
        x += fmix64(timestamp ^ C1);
        x ^= fmix64(subStamps + C2);
        return fmix64(x);
    }

    /**
     * The stamped hash ({@link HashVersion#STAMPED}) of a node with content hash h and stamp sum s:
     * linear in both, so a branch's stamped hash is the sum of its children's, like the content hash.
     */
    static Hash128 stamped(Hash128 h, long s) {
        return new Hash128(h.h1() + s, h.h2() + s * STAMP_LANE);
    }

    /** murmur3 x64 128, seed 0; lanes as Guava's {@code asBytes()} read little-endian. */
    static Hash128 murmur3(byte[] data) {
        long h1 = 0;
        long h2 = 0;
        int len = data.length;
        int blocks = len & ~15;
        for (int i = 0; i < blocks; i += 16) {
            long k1 = (long) LONG.get(data, i);
            long k2 = (long) LONG.get(data, i + 8);
            h1 ^= mixK1(k1);
            h1 = Long.rotateLeft(h1, 27);
            h1 += h2;
            h1 = h1 * 5 + 0x52dce729;
            h2 ^= mixK2(k2);
            h2 = Long.rotateLeft(h2, 31);
            h2 += h1;
            h2 = h2 * 5 + 0x38495ab5;
        }
        long k1 = 0;
        long k2 = 0;
        for (int i = len - 1; i >= blocks + 8; i--) {
            k2 = (k2 << 8) | (data[i] & 0xffL);
        }
        for (int i = Math.min(len, blocks + 8) - 1; i >= blocks; i--) {
            k1 = (k1 << 8) | (data[i] & 0xffL);
        }
        if (len > blocks) {
            h1 ^= mixK1(k1);
            h2 ^= mixK2(k2);
        }
        h1 ^= len;
        h2 ^= len;
        h1 += h2;
        h2 += h1;
        h1 = fmix64(h1);
        h2 = fmix64(h2);
        h1 += h2;
        h2 += h1;
        return new Hash128(h1, h2);
    }

    private static long mixK1(long k1) {
        return Long.rotateLeft(k1 * C1, 31) * C2;
    }

    private static long mixK2(long k2) {
        return Long.rotateLeft(k2 * C2, 33) * C1;
    }

    private static long fmix64(long k) {
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb9fe1a85ec53L;
        k ^= k >>> 33;
        return k;
    }
}

package io.god.client;

import com.google.common.hash.Hashing;
import java.nio.charset.StandardCharsets;

/**
 * Hashed keys, compatible with the original god's Go clients: MurmurHash3 x64-128 with seed 0,
 * written as h1 big-endian then h2 big-endian (16 bytes). Hashing a key spreads keys evenly over the
 * ring; keys used as-is keep their order (and range scans across nodes) but may need balancing.
 */
public final class KeyHash {

    public static final int SIZE = 16;

    private KeyHash() {
    }

    public static byte[] murmur(byte[] data) {
        // Guava gives the same h1/h2 as Go, each as little-endian bytes: reverse each 8-byte half.
        byte[] le = Hashing.murmur3_128().hashBytes(data).asBytes();
        byte[] be = new byte[SIZE];
        for (int i = 0; i < 8; i++) {
            be[i] = le[7 - i];
            be[8 + i] = le[15 - i];
        }
        return be;
    }

    public static byte[] murmur(String utf8) {
        return murmur(utf8.getBytes(StandardCharsets.UTF_8));
    }

    /** The reference's HashInt64: murmur of the 8-byte big-endian encoding of v. */
    public static byte[] murmur(long v) {
        byte[] b = new byte[8];
        for (int i = 7; i >= 0; i--) {
            b[i] = (byte) v;
            v >>>= 8;
        }
        return murmur(b);
    }
}

package io.god.tree;

/**
 * A 128-bit Merkle hash in two 64-bit lanes. Subtree hashes are lane-wise sums of entry hashes, so
 * they depend only on the content, never on insertion order or history.
 */
public record Hash128(long h1, long h2) {

    public static final Hash128 ZERO = new Hash128(0, 0);

    public boolean isZero() {
        return h1 == 0 && h2 == 0;
    }

    /** Big-endian hex of h1 then h2, 32 characters. */
    @Override
    public String toString() {
        return String.format("%016x%016x", h1, h2);
    }
}

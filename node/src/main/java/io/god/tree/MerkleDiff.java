package io.god.tree;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Finds where two Merkle sources differ by descending only into prefixes whose hashes differ: for
 * trees that differ in a few keys it asks O(depth) fingerprints per difference, whatever their size.
 * Works when the two tries have different shapes (one side may have a compressed path where the
 * other branches).
 */
public final class MerkleDiff {

    /**
     * A region where the sources differ: every key starting with the first {@code nibbles} nibbles
     * of {@code prefix}, or, when {@code exact}, only the key made of exactly those nibbles.
     */
    public record Difference(byte[] prefix, int nibbles, boolean exact) {

        /** True when key lies in this region. */
        public boolean contains(byte[] key) {
            int kd = Bytes.nibbles(key);
            if (exact) {
                return kd == nibbles && Bytes.mismatch(key, prefix, nibbles) == nibbles;
            }
            return kd >= nibbles && Bytes.mismatch(key, prefix, nibbles) == nibbles;
        }

        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < nibbles; i++) {
                sb.append(Character.forDigit(Bytes.nibble(prefix, i), 16));
            }
            return (exact ? "=" : "") + sb + (exact ? "" : "*");
        }
    }

    private final MerkleSource a;
    private final MerkleSource b;
    private final int limit;
    private final List<Difference> found = new ArrayList<>();
    private long fingerprints;

    private MerkleDiff(MerkleSource a, MerkleSource b, int limit) {
        this.a = a;
        this.b = b;
        this.limit = limit;
    }

    /** Up to {@code limit} regions where a and b differ, in key order. */
    public static MerkleDiff compare(MerkleSource a, MerkleSource b, int limit) {
        MerkleDiff d = new MerkleDiff(a, b, limit);
        d.walk();
        return d;
    }

    public List<Difference> differences() {
        return found;
    }

    /** How many fingerprints were asked for (both sides together): the cost of the walk. */
    public long fingerprintsAsked() {
        return fingerprints;
    }

    /** Depth-first over differing prefixes, with an explicit stack (keys can be long). */
    private void walk() {
        ArrayDeque<Difference> pending = new ArrayDeque<>();
        pending.push(new Difference(Bytes.EMPTY, 0, false));
        while (!pending.isEmpty() && found.size() < limit) {
            Difference p = pending.pop();
            Fingerprint fa = a.fingerprint(p.prefix(), p.nibbles());
            Fingerprint fb = b.fingerprint(p.prefix(), p.nibbles());
            fingerprints += 2;
            if (fa == null && fb == null || fa != null && fb != null && fa.hash().equals(fb.hash())) {
                continue;
            }
            int d = fa == null || fb == null ? -1 : Math.min(fa.depth(), fb.depth());
            if (d < 0 || Bytes.mismatch(fa.key(), fb.key(), d) < d) {
                found.add(p);
                continue;
            }
            byte[] common = fa.depth() == d ? fa.key() : fb.key();
            if (!Objects.equals(entryAt(fa, d), entryAt(fb, d))) {
                found.add(new Difference(common, d, true));
            }
            for (int nibble = 15; nibble >= 0; nibble--) {
                if (!Objects.equals(childAt(fa, d, nibble), childAt(fb, d, nibble))) {
                    pending.push(new Difference(withNibble(common, d, nibble), d + 1, false));
                }
            }
        }
    }

    private static Hash128 entryAt(Fingerprint f, int depth) {
        return f.depth() == depth ? f.entryHash() : null;
    }

    /** The hash below nibble at depth: a deeper node lies wholly under one nibble. */
    private static Hash128 childAt(Fingerprint f, int depth, int nibble) {
        if (f.depth() == depth) {
            return f.children()[nibble];
        }
        return Bytes.nibble(f.key(), depth) == nibble ? f.hash() : null;
    }

    private static byte[] withNibble(byte[] key, int depth, int nibble) {
        byte[] out = new byte[(depth >> 1) + 1];
        System.arraycopy(key, 0, out, 0, Math.min(key.length, out.length));
        int i = depth >> 1;
        out[i] = (depth & 1) == 0 ? (byte) (nibble << 4) : (byte) ((out[i] & 0xf0) | nibble);
        return out;
    }
}

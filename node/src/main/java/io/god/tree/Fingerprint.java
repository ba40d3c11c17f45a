package io.god.tree;

import java.util.Arrays;

/**
 * What a Merkle walk needs to know of one trie node: where it sits ({@code key}'s first
 * {@code depth} nibbles), the hash of everything below, the hash of the entry ending exactly at
 * depth (or null) and the hash of each child by nibble (null where there is none).
 */
public record Fingerprint(byte[] key, int depth, Hash128 hash, long entries, Hash128 entryHash, Hash128[] children) {

    static Fingerprint of(Node n, HashVersion v) {
        Hash128[] children = new Hash128[16];
        if (n instanceof Entry e) {
            Hash128 h = e.hash(v);
            return new Fingerprint(e.key(), e.depth(), h, 1, h, children);
        }
        Branch b = (Branch) n;
        for (int nibble = 0; nibble < 16; nibble++) {
            Node c = b.child(nibble);
            children[nibble] = c == null ? null : c.hash(v);
        }
        byte[] prefix = Arrays.copyOf(b.path(), (b.depth() + 1) >> 1);
        return new Fingerprint(prefix, b.depth(), b.hash(v), b.entries(), b.entry == null ? null : b.entry.hash(v), children);
    }
}

package io.god.tree;

/**
 * An immutable node of the radix trie over nibbles. A node covers every key that starts with the
 * first {@link #depth()} nibbles of {@link #path()}. Structure is canonical: it depends only on the
 * set of stored keys, so equal contents give equal shapes and equal hashes.
 */
abstract sealed class Node permits Entry, Branch {

    /** Nibble depth of this node's prefix. */
    abstract int depth();

    /**
     * An array whose first {@link #depth()} nibbles are this node's prefix (an entry's key, perhaps
     * followed by its value bytes; a branch's is some descendant's): only for nibble walks.
     */
    abstract byte[] path();

    abstract long live();

    abstract long subLive();

    abstract long real();

    /** Number of entries stored below (each Entry counts 1). */
    abstract long entries();

    /** Entries below holding a live value or a non-empty sub tree: the keys a Redis client sees. */
    abstract long keys();

    /**
     * The oldest moment at which something below may be garbage-collected (a tombstone's
     * timestamp, or an empty sub tree's clear time); {@link Long#MAX_VALUE} when nothing can be.
     */
    abstract long minDue();

    final long measure(Measure m) {
        return switch (m) {
            case LIVE -> live();
            case TOTAL -> live() + subLive();
            case REAL -> real();
            case ENTRIES -> entries();
            case KEYS -> keys();
        };
    }

    /** Merkle hash: the lane-wise sum of the hashes of every entry below (computed, for an entry). */
    abstract Hash128 hash();

    /**
     * The sum of the stamp parts of every entry below ({@link EntryHash#stamp}): what the stamped
     * Merkle hash ({@link HashVersion#STAMPED}) adds to {@link #hash()}. {@code hash} is this node's
     * {@link #hash()}, passed so that an entry does not compute it twice.
     */
    abstract long stamps(Hash128 hash);

    /** This node's hash under a hash version. */
    final Hash128 hash(HashVersion version) {
        Hash128 h = hash();
        return version == HashVersion.CONTENT ? h : EntryHash.stamped(h, stamps(h));
    }
}

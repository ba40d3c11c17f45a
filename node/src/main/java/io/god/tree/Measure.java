package io.god.tree;

/** What a count over (part of) a trie adds up; every node keeps them as subtree aggregates. */
enum Measure {
    /** Live byte values: what ordinals, slices and sizes of a single sorted tree count. */
    LIVE,
    /** Live byte values plus the live entries of their sub trees: the reference's {@code Size}. */
    TOTAL,
    /** Every marker: values, tombstones, and every entry (tombstones too) of sub trees. */
    REAL,
    /** Stored entries of this trie, whatever they hold (an empty sub-tree marker counts too). */
    ENTRIES,
    /** Entries holding a live value or a non-empty sub tree (Redis' keys: a string, a hash or a sorted set). */
    KEYS
}

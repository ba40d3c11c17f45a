package io.god.tree;

/**
 * An inner node: up to 16 children indexed by the nibble at {@link #depth}, plus the entry whose key
 * ends exactly here (a key that is a prefix of others). Children are kept in a compact array with a
 * 16-bit presence bitmap. Aggregates (sizes, hash, GC due time) are computed once at construction.
 */
final class Branch extends Node {

    /** Merkle hash lanes: the lane-wise sum of the hashes of every entry below. */
    private final long h1;
    private final long h2;
    /** The sum of the stamp parts below ({@link Node#stamps}): the stamped hash is derived from h1, h2 and this. */
    private final long stamps;
    private final int depth;
    private final byte[] prefix;
    final Entry entry;
    final int bitmap;
    private final Node[] children;
    /** Entries below when {@link #rest} is null; then every entry below is a plain live value. */
    private final int entries;
    /** The aggregates of a branch with tombstones or sub trees below; null in the common case. */
    private final Aggregates rest;

    /**
     * Counts a plain branch (only live byte values below, no sub trees, no tombstones) derives from
     * its entry count: live = real = keys = entries, subLive = 0, nothing due. Keeping them only where they
     * differ saves a third of a branch's bytes.
     */
    private record Aggregates(long live, long subLive, long real, long entries, long keys, long minDue) {
    }

    private Branch(int depth, byte[] prefix, Entry entry, int bitmap, Node[] children,
                   long h1, long h2, long stamps, long live, long subLive, long real, long entries, long keys, long minDue) {
        this.h1 = h1;
        this.h2 = h2;
        this.stamps = stamps;
        this.depth = depth;
        this.prefix = prefix;
        this.entry = entry;
        this.bitmap = bitmap;
        this.children = children;
        boolean plain = live == entries && real == entries && keys == entries && subLive == 0
                && minDue == Long.MAX_VALUE && entries <= Integer.MAX_VALUE;
        this.entries = plain ? (int) entries : 0;
        this.rest = plain ? null : new Aggregates(live, subLive, real, entries, keys, minDue);
    }

    /**
     * The canonical node for this content: a branch only where two or more things meet; a lone child
     * or a lone entry stands for itself, and nothing at all is null.
     */
    static Node of(int depth, byte[] prefix, Entry entry, int bitmap, Node[] children) {
        if (bitmap == 0) {
            return entry;
        }
        if (entry == null && Integer.bitCount(bitmap) == 1) {
            return children[0];
        }
        long h1 = 0, h2 = 0, stamps = 0, live = 0, subLive = 0, real = 0, entries = 0, keys = 0, minDue = Long.MAX_VALUE;
        if (entry != null) {
            Hash128 h = entry.hash();
            h1 = h.h1();
            h2 = h.h2();
            stamps = entry.stamps(h);
            live = entry.live();
            subLive = entry.subLive();
            real = entry.real();
            entries = 1;
            keys = entry.keys();
            minDue = entry.minDue();
        }
        for (Node c : children) {
            Hash128 h = entryHash(c);
            h1 += h1(c, h);
            h2 += h2(c, h);
            stamps += c.stamps(h);
            live += c.live();
            subLive += c.subLive();
            real += c.real();
            entries += c.entries();
            keys += c.keys();
            minDue = Math.min(minDue, c.minDue());
        }
        return new Branch(depth, prefix, entry, bitmap, children, h1, h2, stamps, live, subLive, real, entries, keys, minDue);
    }

    /** A branch at {@code depth} holding two nodes that differ at that nibble. */
    static Node fork(int depth, Node a, Node b) {
        int na = Bytes.nibble(a.path(), depth);
        int nb = Bytes.nibble(b.path(), depth);
        Node[] children = na < nb ? new Node[] {a, b} : new Node[] {b, a};
        return of(depth, a.path(), null, (1 << na) | (1 << nb), children);
    }

    /** A branch whose entry ends at its depth and whose one child lies below. */
    static Node entryAbove(Entry entry, Node child) {
        int depth = entry.depth();
        return of(depth, entry.path(), entry, 1 << Bytes.nibble(child.path(), depth), new Node[] {child});
    }

    Branch withEntry(Entry e) {
        return entry == null ? (Branch) of(depth, prefix, e, bitmap, children) : replaced(entry, e, children, e.path());
    }

    Node withoutEntry() {
        return of(depth, prefix, null, bitmap, children);
    }

    /** This branch with the child at {@code nibble} replaced (null removes it). */
    Node withChild(int nibble, Node child) {
        int bit = 1 << nibble;
        int slot = Integer.bitCount(bitmap & (bit - 1));
        Node[] next;
        if ((bitmap & bit) != 0) {
            if (child == null) {
                next = new Node[children.length - 1];
                System.arraycopy(children, 0, next, 0, slot);
                System.arraycopy(children, slot + 1, next, slot, children.length - slot - 1);
                return of(depth, prefix, entry, bitmap & ~bit, next);
            } else {
                next = children.clone();
                next[slot] = child;
                return replaced(children[slot], child, next, child.path());
            }
        } else {
            if (child == null) {
                return this;
            }
            next = new Node[children.length + 1];
            System.arraycopy(children, 0, next, 0, slot);
            next[slot] = child;
            System.arraycopy(children, slot, next, slot + 1, children.length - slot);
            Hash128 h = entryHash(child);
            return new Branch(depth, child.path(), entry, bitmap | bit, next, h1 + h1(child, h), h2 + h2(child, h),
                    stamps + child.stamps(h),
                    live() + child.live(), subLive() + child.subLive(), real() + child.real(),
                    entries() + child.entries(), keys() + child.keys(), Math.min(minDue(), child.minDue()));
        }
    }

    /**
     * This branch with {@code before} (a child or the entry) swapped for {@code after}, aggregates
     * updated from the two alone: a write touches only the nodes on its path, not their siblings.
     */
    private Branch replaced(Node before, Node after, Node[] nextChildren, byte[] nextPrefix) {
        Entry nextEntry = before == entry ? (Entry) after : entry;
        long minDue = minDue();
        // the siblings are looked at only when the replaced node held the minimum and its successor is due later:
        // without tombstones every due is Long.MAX_VALUE, and a write must not visit every sibling on its path
        long due = before.minDue() > minDue || after.minDue() <= before.minDue() ? Math.min(minDue, after.minDue())
                : recomputeMinDue(before, after);
        Hash128 hb = entryHash(before);
        Hash128 ha = entryHash(after);
        return new Branch(depth, nextPrefix, nextEntry, bitmap, nextChildren,
                h1 - h1(before, hb) + h1(after, ha), h2 - h2(before, hb) + h2(after, ha),
                stamps - before.stamps(hb) + after.stamps(ha),
                live() - before.live() + after.live(), subLive() - before.subLive() + after.subLive(),
                real() - before.real() + after.real(), entries() - before.entries() + after.entries(),
                keys() - before.keys() + after.keys(), due);
    }

    /**
     * A node's hash for the sums above it: an entry computes it, a branch holds its halves and gives null (the halves
     * are read by {@link #h1} and {@link #h2}): a write's path no longer allocates two Hash128 per level (JFR).
     */
    private static Hash128 entryHash(Node n) {
        return n instanceof Branch ? null : n.hash();
    }

    private static long h1(Node n, Hash128 entryHash) {
        return entryHash == null ? ((Branch) n).h1 : entryHash.h1();
    }

    private static long h2(Node n, Hash128 entryHash) {
        return entryHash == null ? ((Branch) n).h2 : entryHash.h2();
    }

    /** Only when the replaced node held this branch's minimum and {@code after} is due later: every sibling. */
    private long recomputeMinDue(Node before, Node after) {
        long due = after.minDue();
        if (entry != null && entry != before) {
            due = Math.min(due, entry.minDue());
        }
        for (Node c : children) {
            if (c != before) {
                due = Math.min(due, c.minDue());
            }
        }
        return due;
    }

    /** The child at a nibble, or null. */
    Node child(int nibble) {
        int bit = 1 << nibble;
        return (bitmap & bit) == 0 ? null : children[Integer.bitCount(bitmap & (bit - 1))];
    }

    /** Children in nibble order (shared array: do not modify). */
    Node[] children() {
        return children;
    }

    @Override
    int depth() {
        return depth;
    }

    @Override
    byte[] path() {
        return prefix;
    }

    @Override
    Hash128 hash() {
        return new Hash128(h1, h2);
    }

    @Override
    long stamps(Hash128 hash) {
        return stamps;
    }

    @Override
    long live() {
        return rest == null ? entries : rest.live;
    }

    @Override
    long subLive() {
        return rest == null ? 0 : rest.subLive;
    }

    @Override
    long real() {
        return rest == null ? entries : rest.real;
    }

    @Override
    long entries() {
        return rest == null ? entries : rest.entries;
    }

    @Override
    long keys() {
        return rest == null ? entries : rest.keys;
    }

    @Override
    long minDue() {
        return rest == null ? Long.MAX_VALUE : rest.minDue;
    }
}

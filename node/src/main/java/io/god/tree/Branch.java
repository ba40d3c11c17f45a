package io.god.tree;

/**
 * An inner node: up to 16 children indexed by the nibble at {@link #depth}, plus the entry whose key
 * ends exactly here (a key that is a prefix of others). Children are kept in a compact array with a
 * 16-bit presence bitmap. Aggregates (sizes, hash, GC due time) are computed once at construction.
 */
final class Branch extends Node {

    private final int depth;
    private final byte[] prefix;
    final Entry entry;
    final int bitmap;
    private final Node[] children;
    private final long live;
    private final long subLive;
    private final long real;
    private final long entries;
    private final long minDue;

    private Branch(int depth, byte[] prefix, Entry entry, int bitmap, Node[] children,
                   long h1, long h2, long live, long subLive, long real, long entries, long minDue) {
        super(h1, h2);
        this.depth = depth;
        this.prefix = prefix;
        this.entry = entry;
        this.bitmap = bitmap;
        this.children = children;
        this.live = live;
        this.subLive = subLive;
        this.real = real;
        this.entries = entries;
        this.minDue = minDue;
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
        long h1 = 0, h2 = 0, live = 0, subLive = 0, real = 0, entries = 0, minDue = Long.MAX_VALUE;
        if (entry != null) {
            h1 = entry.h1;
            h2 = entry.h2;
            live = entry.live();
            subLive = entry.subLive();
            real = entry.real();
            entries = 1;
            minDue = entry.minDue();
        }
        for (Node c : children) {
            h1 += c.h1;
            h2 += c.h2;
            live += c.live();
            subLive += c.subLive();
            real += c.real();
            entries += c.entries();
            minDue = Math.min(minDue, c.minDue());
        }
        return new Branch(depth, prefix, entry, bitmap, children, h1, h2, live, subLive, real, entries, minDue);
    }

    /** A branch at {@code depth} holding two nodes that differ at that nibble. */
    static Node fork(int depth, Node a, Node b) {
        int na = Bytes.nibble(a.key(), depth);
        int nb = Bytes.nibble(b.key(), depth);
        Node[] children = na < nb ? new Node[] {a, b} : new Node[] {b, a};
        return of(depth, a.key(), null, (1 << na) | (1 << nb), children);
    }

    /** A branch whose entry ends at its depth and whose one child lies below. */
    static Node entryAbove(Entry entry, Node child) {
        int depth = entry.depth();
        return of(depth, entry.key(), entry, 1 << Bytes.nibble(child.key(), depth), new Node[] {child});
    }

    Branch withEntry(Entry e) {
        return (Branch) of(depth, prefix, e, bitmap, children);
    }

    Node withoutEntry() {
        return of(depth, prefix, null, bitmap, children);
    }

    /** This branch with the child at {@code nibble} replaced (null removes it). */
    Node withChild(int nibble, Node child) {
        int bit = 1 << nibble;
        int slot = Integer.bitCount(bitmap & (bit - 1));
        Node[] next;
        int nextBitmap;
        if ((bitmap & bit) != 0) {
            if (child == null) {
                next = new Node[children.length - 1];
                System.arraycopy(children, 0, next, 0, slot);
                System.arraycopy(children, slot + 1, next, slot, children.length - slot - 1);
                nextBitmap = bitmap & ~bit;
            } else {
                next = children.clone();
                next[slot] = child;
                nextBitmap = bitmap;
            }
        } else {
            if (child == null) {
                return this;
            }
            next = new Node[children.length + 1];
            System.arraycopy(children, 0, next, 0, slot);
            next[slot] = child;
            System.arraycopy(children, slot, next, slot + 1, children.length - slot);
            nextBitmap = bitmap | bit;
        }
        return of(depth, child != null ? child.key() : prefix, entry, nextBitmap, next);
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
    byte[] key() {
        return prefix;
    }

    @Override
    long live() {
        return live;
    }

    @Override
    long subLive() {
        return subLive;
    }

    @Override
    long real() {
        return real;
    }

    @Override
    long entries() {
        return entries;
    }

    @Override
    long minDue() {
        return minDue;
    }
}

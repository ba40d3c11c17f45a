package io.god.tree;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The ordered reads of one version of a sorted tree (the live byte values of a tree, or its mirror):
 * neighbours, key ranges, ordinal ranges, counts and ordinals, all O(depth) to find the start and
 * O(1) per further result. Null bounds are open. Ordinals count live values only and are correct when
 * keys are prefixes of one another.
 */
public final class SortedView {

    static final SortedView EMPTY = new SortedView(null, KeyCodec.PLAIN);

    private final Node root;
    private final KeyCodec codec;

    SortedView(Node root, KeyCodec codec) {
        this.root = root;
        this.codec = codec;
    }

    public long size() {
        return root == null ? 0 : root.live();
    }

    public Item first() {
        return root == null ? null : at(0);
    }

    public Item last() {
        return root == null ? null : at(size() - 1);
    }

    /** The first entry with key >= k (> k when not inclusive), or null. */
    public Item ceiling(byte[] k, boolean inclusive) {
        KeyCodec.Bound b = codec.lower(k, inclusive);
        Cursor c = new Cursor(root, Measure.LIVE, false);
        c.seek(b.key(), b.inclusive());
        return itemWithIndex(c.next());
    }

    /** The last entry with key <= k (< k when not inclusive), or null. */
    public Item floor(byte[] k, boolean inclusive) {
        KeyCodec.Bound b = codec.upper(k, inclusive);
        Cursor c = new Cursor(root, Measure.LIVE, true);
        c.seek(b.key(), b.inclusive());
        return itemWithIndex(c.next());
    }

    /** Entry at ordinal i (0 = first), or null. */
    public Item at(long i) {
        Entry e = Trie.select(root, i, Measure.LIVE);
        return e == null ? null : codec.item(e, i);
    }

    /** Entry at ordinal i counted from the end (0 = last), or null. */
    public Item atReverse(long i) {
        Entry e = i < 0 ? null : Trie.select(root, size() - 1 - i, Measure.LIVE);
        return e == null ? null : codec.item(e, i);
    }

    /**
     * Entries with min <=/< key <=/< max, ascending, or descending from max when reverse; at most
     * {@code limit} of them (a negative limit means no limit).
     */
    public List<Item> slice(byte[] min, boolean minInc, byte[] max, boolean maxInc, int limit, boolean reverse) {
        List<Item> out = new ArrayList<>();
        if (root == null || limit == 0) {
            return out;
        }
        KeyCodec.Bound lo = min == null ? null : codec.lower(min, minInc);
        KeyCodec.Bound hi = max == null ? null : codec.upper(max, maxInc);
        KeyCodec.Bound start = reverse ? hi : lo;
        KeyCodec.Bound stop = reverse ? lo : hi;
        Cursor c = new Cursor(root, Measure.LIVE, reverse);
        long index;
        if (start == null) {
            index = 0;
        } else {
            c.seek(start.key(), start.inclusive());
            long before = Trie.rank(root, start.key(), start.inclusive() == reverse, Measure.LIVE);
            index = reverse ? size() - before : before;
        }
        for (Entry e = c.next(); e != null && (limit < 0 || out.size() < limit); e = c.next()) {
            if (stop != null && beyond(e.key(), stop, reverse)) {
                break;
            }
            out.add(codec.item(e, index++));
        }
        return out;
    }

    /**
     * Entries whose ordinal (counted from the end when reverse) lies in [from, to], in the direction
     * of the query. Out-of-range bounds are clipped.
     */
    public List<Item> sliceIndex(long from, long to, boolean reverse) {
        long size = size();
        long lo = Math.max(0, from);
        long hi = Math.min(size - 1, to);
        List<Item> out = new ArrayList<>();
        if (lo > hi) {
            return out;
        }
        Entry start = Trie.select(root, reverse ? size - 1 - lo : lo, Measure.LIVE);
        Cursor c = new Cursor(root, Measure.LIVE, reverse);
        c.seek(start.key(), true);
        for (long i = lo; i <= hi; i++) {
            out.add(codec.item(c.next(), i));
        }
        return out;
    }

    /** Number of entries with min <=/< key <=/< max. */
    public long count(byte[] min, boolean minInc, byte[] max, boolean maxInc) {
        long below = 0;
        if (min != null) {
            KeyCodec.Bound lo = codec.lower(min, minInc);
            below = Trie.rank(root, lo.key(), !lo.inclusive(), Measure.LIVE);
        }
        long upTo = size();
        if (max != null) {
            KeyCodec.Bound hi = codec.upper(max, maxInc);
            upTo = Trie.rank(root, hi.key(), hi.inclusive(), Measure.LIVE);
        }
        return Math.max(0, upTo - below);
    }

    /** Number of entries before k (the ordinal k has or would get) and whether k is present. */
    public Index indexOf(byte[] k) {
        KeyCodec.Bound lo = codec.lower(k, true);
        return new Index(Trie.rank(root, lo.key(), !lo.inclusive(), Measure.LIVE), contains(k));
    }

    /** Number of entries after k (its ordinal counted from the end) and whether k is present. */
    public Index reverseIndexOf(byte[] k) {
        KeyCodec.Bound hi = codec.upper(k, true);
        return new Index(size() - Trie.rank(root, hi.key(), hi.inclusive(), Measure.LIVE), contains(k));
    }

    /** A forward cursor over the entries, with skip-ahead (for set expressions). */
    public ViewCursor cursor() {
        return new ViewCursor();
    }

    private boolean contains(byte[] k) {
        Item c = ceiling(k, true);
        return c != null && Arrays.equals(c.key(), k);
    }

    private Item itemWithIndex(Entry e) {
        return e == null ? null : codec.item(e, Trie.rank(root, e.key(), false, Measure.LIVE));
    }

    private static boolean beyond(byte[] key, KeyCodec.Bound stop, boolean reverse) {
        int cmp = Bytes.compare(key, stop.key());
        if (cmp == 0) {
            return !stop.inclusive();
        }
        return reverse ? cmp < 0 : cmp > 0;
    }

    /** Forward iteration over visible items with skip-ahead; items carry no ordinal (index -1). */
    public final class ViewCursor {
        private final Cursor cursor = new Cursor(root, Measure.LIVE, false);

        /** The next item in key order, or null. */
        public Item next() {
            Entry e = cursor.next();
            return e == null ? null : codec.item(e, -1);
        }

        /** Skips to and returns the first item with key >= k (> k when not inclusive), or null. */
        public Item skip(byte[] k, boolean inclusive) {
            KeyCodec.Bound b = codec.lower(k, inclusive);
            cursor.seek(b.key(), b.inclusive());
            return next();
        }
    }
}

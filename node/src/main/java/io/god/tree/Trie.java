package io.god.tree;

import java.util.Arrays;

/**
 * Path-copying operations on the immutable radix trie. All loops are iterative, so key length and
 * trie depth never threaten the stack. A {@code null} root is the empty trie.
 */
final class Trie {

    private Trie() {
    }

    /**
     * The entry stored under key, or null. The descent follows the key's nibbles without comparing each branch's
     * prefix, and compares only the entry it ends at: a key that is present lies on exactly that path, and one
     * that is not ends at null or at another key's entry. Every point read and write starts here; in a large tree
     * each prefix array read on the way down was a cache miss (a third of a RESP GET's samples were this loop).
     */
    static Entry get(Node root, byte[] key) {
        int kd = Bytes.nibbles(key);
        Node n = root;
        while (n != null) {
            if (n instanceof Entry e) {
                return e.keyEquals(key) ? e : null;
            }
            Branch b = (Branch) n;
            int nd = b.depth();
            if (kd < nd) {
                return null;
            }
            if (kd == nd) {
                Entry e = b.entry;
                return e != null && e.keyEquals(key) ? e : null;
            }
            n = b.child(Bytes.nibble(key, nd));
        }
        return null;
    }

    /**
     * Reads the paths to {@code keys[0..count)} interleaved — one level of every descent, then the next — and the
     * entries they end at, and returns a sum of what it read (kept by the caller, so the reads are not optimised
     * away). One descent is a chain of dependent cache misses (branch, children, entry, its bytes); {@link #get}
     * walks them one after another, this walks a batch's chains side by side, so the CPU has their misses in flight
     * at once. A pipelined read of commands calls it before it runs them one by one (Redis 8 prefetches a batch's
     * keys the same way).
     */
    static int touch(Node root, byte[][] keys, int count) {
        Node[] at = new Node[count];
        java.util.Arrays.fill(at, root);
        int sum = 0;
        for (boolean more = root != null; more; ) {
            more = false;
            for (int i = 0; i < count; i++) {
                Node n = at[i];
                if (n instanceof Branch b) {
                    int nd = b.depth();
                    byte[] key = keys[i];
                    int kd = Bytes.nibbles(key);
                    n = kd < nd ? null : kd == nd ? b.entry : b.child(Bytes.nibble(key, nd));
                    at[i] = n;
                    more |= n != null;
                } else if (n instanceof Entry e) {
                    sum += e.touch();
                    at[i] = null;
                }
            }
        }
        return sum;
    }

    /** The trie with {@code entry} stored under its key, replacing whatever was there. */
    static Node put(Node root, Entry entry) {
        return insert(new Path(), root, entry);
    }

    /**
     * Where a key is, found by one descent that follows the key's nibbles as {@link #get} does: the entry stored
     * under it ({@link Slot#found}) and the branches above it, so that a write reads the old entry (last write wins,
     * its sub tree) and stores the new one without a second descent — and without reading each branch's prefix on
     * the way down (a cache miss a level in a large tree; a write walked the trie twice, the second time comparing
     * prefixes, before).
     */
    static Slot locate(Node root, byte[] key) {
        int kd = Bytes.nibbles(key);
        Path path = new Path();
        Node n = root;
        while (n instanceof Branch b) {
            int nd = b.depth();
            if (kd <= nd) {
                break;
            }
            int nibble = Bytes.nibble(key, nd);
            Node c = b.child(nibble);
            if (c == null) {
                break;
            }
            path.push(b, nibble);
            n = c;
        }
        Entry found = null;
        if (n instanceof Entry e) {
            found = e.keyEquals(key) ? e : null;
        } else if (n instanceof Branch b && b.depth() == kd && b.entry != null && b.entry.keyEquals(key)) {
            found = b.entry;
        }
        return new Slot(key, kd, path, n, found);
    }

    /** A key's place ({@link #locate}): valid for the root it was located in only. */
    static final class Slot {
        private final byte[] key;
        private final int kd;
        private final Path path;
        /** Where the nibble descent stopped: an entry, a branch at or below the key's depth or missing its child. */
        private final Node at;
        private final Entry found;

        private Slot(byte[] key, int kd, Path path, Node at, Entry found) {
            this.key = key;
            this.kd = kd;
            this.path = path;
            this.at = at;
            this.found = found;
        }

        /** The entry stored under the key, or null. */
        Entry found() {
            return found;
        }

        /** The located trie with {@code entry} (whose key is the located key) stored, replacing whatever was there. */
        Node put(Entry entry) {
            if (found != null) { // the key is stored: its path is exactly the branches walked
                return path.rebuild(at instanceof Branch b ? b.withEntry(entry) : entry);
            }
            if (at == null) {
                return path.rebuild(entry);
            }
            // the descent skipped the nibbles each branch's prefix covers: the first branch on the way whose prefix
            // the key leaves is where the key forks off; every branch above agrees with the node the descent reached
            int m = Bytes.mismatch(key, at.path(), Math.min(kd, at.depth()));
            for (int i = 0; i < path.size; i++) {
                if (path.branches[i].depth() > m) {
                    Branch b = path.branches[i];
                    path.size = i;
                    return insert(path, b, entry);
                }
            }
            return insert(path, at, entry);
        }
    }

    /** {@link #put} from node {@code n}, the branches above it already on {@code path}. */
    private static Node insert(Path path, Node n, Entry entry) {
        byte[] k = entry.path();
        int kd = entry.depth();
        Node replacement;
        while (true) {
            if (n == null) {
                replacement = entry;
                break;
            }
            int nd = n.depth();
            int limit = Math.min(kd, nd);
            int m = Bytes.mismatch(k, n.path(), limit);
            if (m < limit) {
                replacement = Branch.fork(m, entry, n);
                break;
            }
            if (kd == nd) {
                replacement = n instanceof Branch b ? b.withEntry(entry) : entry;
                break;
            }
            if (kd < nd) {
                replacement = Branch.entryAbove(entry, n);
                break;
            }
            if (n instanceof Entry e) {
                replacement = Branch.entryAbove(e, entry);
                break;
            }
            Branch b = (Branch) n;
            int nibble = Bytes.nibble(k, nd);
            path.push(b, nibble);
            n = b.child(nibble);
        }
        return path.rebuild(replacement);
    }

    /** The trie without {@code key}; the same root object when the key is absent. */
    static Node remove(Node root, byte[] key) {
        int kd = Bytes.nibbles(key);
        Path path = new Path();
        Node n = root;
        while (n != null) {
            int nd = n.depth();
            if (kd < nd || Bytes.mismatch(key, n.path(), nd) < nd) {
                return root;
            }
            if (n instanceof Entry) {
                return kd == nd ? path.rebuild(null) : root;
            }
            Branch b = (Branch) n;
            if (kd == nd) {
                return b.entry == null ? root : path.rebuild(b.withoutEntry());
            }
            int nibble = Bytes.nibble(key, nd);
            path.push(b, nibble);
            n = b.child(nibble);
        }
        return root;
    }

    /** How much of {@code m} lies strictly below {@code key} (or at or below it, when inclusive). */
    static long rank(Node root, byte[] key, boolean inclusive, Measure m) {
        int kd = Bytes.nibbles(key);
        long count = 0;
        Node n = root;
        while (n != null) {
            int nd = n.depth();
            byte[] nk = n.path();
            int limit = Math.min(kd, nd);
            int mm = Bytes.mismatch(key, nk, limit);
            if (mm < limit) {
                return Bytes.nibble(nk, mm) < Bytes.nibble(key, mm) ? count + n.measure(m) : count;
            }
            if (kd < nd) {
                return count;
            }
            if (n instanceof Entry e) {
                return (kd > nd || inclusive) ? count + e.measure(m) : count;
            }
            Branch b = (Branch) n;
            if (b.entry != null && (kd > nd || inclusive)) {
                count += b.entry.measure(m);
            }
            if (kd == nd) {
                return count;
            }
            int nibble = Bytes.nibble(key, nd);
            int below = b.bitmap & ((1 << nibble) - 1);
            Node[] children = b.children();
            for (int i = 0, c = Integer.bitCount(below); i < c; i++) {
                count += children[i].measure(m);
            }
            n = b.child(nibble);
        }
        return count;
    }

    /**
     * The entry at position {@code index} of the order weighted by {@code m}: the entry whose
     * cumulative weight range contains index; null when out of range.
     */
    static Entry select(Node root, long index, Measure m) {
        if (index < 0) {
            return null;
        }
        long i = index;
        Node n = root;
        outer:
        while (n != null) {
            if (n instanceof Entry e) {
                return i < e.measure(m) ? e : null;
            }
            Branch b = (Branch) n;
            if (b.entry != null) {
                long w = b.entry.measure(m);
                if (i < w) {
                    return b.entry;
                }
                i -= w;
            }
            for (Node c : b.children()) {
                long w = c.measure(m);
                if (i < w) {
                    n = c;
                    continue outer;
                }
                i -= w;
            }
            return null;
        }
        return null;
    }

    /** The branches walked from the root, to copy on the way back up. */
    private static final class Path {
        private Branch[] branches = new Branch[8];
        private int[] nibbles = new int[8];
        private int size;

        void push(Branch b, int nibble) {
            if (size == branches.length) {
                branches = Arrays.copyOf(branches, size * 2);
                nibbles = Arrays.copyOf(nibbles, size * 2);
            }
            branches[size] = b;
            nibbles[size++] = nibble;
        }

        Node rebuild(Node replacement) {
            Node n = replacement;
            for (int i = size - 1; i >= 0; i--) {
                n = branches[i].withChild(nibbles[i], n);
            }
            return n;
        }
    }
}

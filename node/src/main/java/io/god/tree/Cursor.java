package io.god.tree;

import java.util.Arrays;

/**
 * In-order walk of a trie version, forward or backward, that can jump to a key in O(depth).
 * Subtrees holding nothing of the chosen {@link Measure} are skipped whole. Order: a branch's own
 * entry (a prefix of everything below it) comes before its children, children by nibble.
 */
final class Cursor {

    /** Reverse frames start at their last child slot, whatever the child count. */
    private static final int LAST = Integer.MAX_VALUE;

    private final Node root;
    private final Measure measure;
    private final boolean reverse;
    private Node[] nodes = new Node[16];
    /** Forward: -1 = entry not yet emitted, else the next child slot (ascending).
     *  Reverse: the next child slot (descending); below 0 only the entry is left. */
    private int[] positions = new int[16];
    private int top = -1;

    Cursor(Node root, Measure measure, boolean reverse) {
        this.root = root;
        this.measure = measure;
        this.reverse = reverse;
        toStart();
    }

    /** Back to the first (forward) or last (reverse) entry. */
    void toStart() {
        top = -1;
        if (root != null) {
            push(root, reverse ? LAST : -1);
        }
    }

    /**
     * Forward: position before the first entry with key >= k (> k when not inclusive).
     * Reverse: before the last entry with key <= k (< k when not inclusive).
     */
    void seek(byte[] k, boolean inclusive) {
        top = -1;
        int kd = Bytes.nibbles(k);
        Node n = root;
        while (n != null) {
            int nd = n.depth();
            byte[] nk = n.path();
            int limit = Math.min(kd, nd);
            int m = Bytes.mismatch(k, nk, limit);
            if (m < limit) {
                boolean nodeAfter = Bytes.nibble(nk, m) > Bytes.nibble(k, m);
                if (nodeAfter != reverse) {
                    push(n, reverse ? LAST : -1);
                }
                return;
            }
            if (kd < nd) {
                if (!reverse) {
                    push(n, -1);
                }
                return;
            }
            if (n instanceof Entry) {
                if (kd > nd ? reverse : inclusive) {
                    push(n, 0);
                }
                return;
            }
            Branch b = (Branch) n;
            if (kd == nd) {
                if (reverse) {
                    if (inclusive) {
                        push(b, -1);
                    }
                } else {
                    push(b, inclusive ? -1 : 0);
                }
                return;
            }
            int nibble = Bytes.nibble(k, nd);
            int below = Integer.bitCount(b.bitmap & ((1 << nibble) - 1));
            boolean present = (b.bitmap & (1 << nibble)) != 0;
            // forward: continue after this nibble's child; reverse: before it
            push(b, reverse ? below - 1 : below + (present ? 1 : 0));
            n = present ? b.children()[below] : null;
        }
    }

    /** The next entry that counts under the cursor's measure, or null at the end. */
    Entry next() {
        while (top >= 0) {
            Node n = nodes[top];
            Entry found;
            if (n instanceof Entry e) {
                top--;
                found = e;
            } else {
                found = reverse ? stepBackward((Branch) n) : stepForward((Branch) n);
            }
            if (found != null && found.measure(measure) > 0) {
                return found;
            }
        }
        return null;
    }

    /** One step in a branch frame going forward: its entry first, then its children ascending. */
    private Entry stepForward(Branch b) {
        int p = positions[top];
        if (p == -1) {
            positions[top] = 0;
            return b.entry;
        }
        Node[] children = b.children();
        if (p >= children.length) {
            top--;
            return null;
        }
        positions[top] = p + 1;
        return descend(children[p], -1);
    }

    /** One step in a branch frame going backward: its children descending, then its entry. */
    private Entry stepBackward(Branch b) {
        int p = positions[top];
        if (p == LAST) {
            p = b.children().length - 1;
        }
        if (p < 0) {
            top--;
            return b.entry;
        }
        positions[top] = p - 1;
        return descend(b.children()[p], LAST);
    }

    /** An entry child is returned at once (no frame); a branch child becomes the new top frame. */
    private Entry descend(Node child, int position) {
        if (child instanceof Entry e) {
            return e;
        }
        push(child, position);
        return null;
    }

    private void push(Node n, int position) {
        if (n.measure(measure) == 0) {
            return;
        }
        if (++top == nodes.length) {
            nodes = Arrays.copyOf(nodes, top * 2);
            positions = Arrays.copyOf(positions, top * 2);
        }
        nodes[top] = n;
        positions[top] = position;
    }
}

package io.god.tree;

import java.util.Arrays;

/**
 * In-order walk of a trie version, forward or backward, that can jump to a key in O(depth).
 * Subtrees holding nothing of the chosen {@link Measure} are skipped whole. Order: a branch's own
 * entry (a prefix of everything below it) comes before its children, children by nibble.
 */
final class Cursor {

    private final Node root;
    private final Measure measure;
    private final boolean reverse;
    private Node[] nodes = new Node[16];
    /** Forward: -1 = entry not yet emitted, else next child nibble to try (ascending).
     *  Reverse: next child nibble to try (descending); below 0 only the entry is left. */
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
            push(root, reverse ? 15 : -1);
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
            byte[] nk = n.key();
            int limit = Math.min(kd, nd);
            int m = Bytes.mismatch(k, nk, limit);
            if (m < limit) {
                boolean nodeAfter = Bytes.nibble(nk, m) > Bytes.nibble(k, m);
                if (nodeAfter != reverse) {
                    push(n, reverse ? 15 : -1);
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
            push(b, reverse ? nibble - 1 : nibble + 1);
            n = b.child(nibble);
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
        int bits = p > 15 ? 0 : b.bitmap & (-1 << p) & 0xffff;
        if (bits == 0) {
            top--;
            return null;
        }
        int nibble = Integer.numberOfTrailingZeros(bits);
        positions[top] = nibble + 1;
        push(b.child(nibble), -1);
        return null;
    }

    /** One step in a branch frame going backward: its children descending, then its entry. */
    private Entry stepBackward(Branch b) {
        int p = positions[top];
        int bits = p < 0 ? 0 : b.bitmap & ((2 << p) - 1);
        if (bits == 0) {
            top--;
            return b.entry;
        }
        int nibble = 31 - Integer.numberOfLeadingZeros(bits);
        positions[top] = nibble - 1;
        push(b.child(nibble), 15);
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

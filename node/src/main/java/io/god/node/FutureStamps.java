package io.god.node;

import io.god.tree.Entry;
import io.god.tree.TreeState;
import java.util.Iterator;

/**
 * What a node found at start when its persisted last timestamp lay beyond the skew bound (physical
 * now + {@code god.time.max-skew}): data stamped in the future, written before the bound existed or
 * received from a peer. Such entries still win every last-write-wins comparison until their time
 * comes — a later write to the key loses, a tombstone is not collected — so the node reports them
 * (a WARN line and {@code /admin/status} {@code futureStamps}); docs/durability.md says how to repair.
 *
 * @param newest the persisted last timestamp (ns)
 * @param bound the bound at start (ns): physical now + max skew
 * @param keys entries (values and tombstones, top level and in sub trees) stamped beyond the bound
 */
public record FutureStamps(long newest, long bound, long keys) {

    /** Counts the entries of {@code state} stamped beyond {@code bound}. */
    public static FutureStamps find(TreeState state, long newest, long bound) {
        return new FutureStamps(newest, bound, count(state, bound, true));
    }

    private static long count(TreeState state, long bound, boolean top) {
        long n = 0;
        for (Iterator<Entry> it = state.entries(null); it.hasNext(); ) {
            Entry e = it.next();
            if (e.timestamp() > bound) {
                n++;
            }
            if (top && e.sub() != null) {
                n += count(e.sub(), bound, false);
            }
        }
        return n;
    }
}

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
 * @param newestEntry the newest stamp of any entry (0 = none): the floor to restore when keys is 0
 */
public record FutureStamps(long newest, long bound, long keys, long newestEntry) {

    /** Counts the entries of {@code state} stamped beyond {@code bound} (one walk over every entry). */
    public static FutureStamps find(TreeState state, long newest, long bound) {
        long[] found = new long[2]; // count beyond the bound, newest stamp
        walk(state, bound, true, found);
        return new FutureStamps(newest, bound, found[0], found[1]);
    }

    private static void walk(TreeState state, long bound, boolean top, long[] found) {
        for (Iterator<Entry> it = state.entries(null); it.hasNext(); ) {
            Entry e = it.next();
            if (e.timestamp() > bound) {
                found[0]++;
            }
            found[1] = Math.max(found[1], e.timestamp());
            if (top && e.sub() != null) {
                walk(e.sub(), bound, false, found);
            }
        }
    }
}

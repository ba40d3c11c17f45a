package io.god.cluster;

import io.god.persist.Record;
import io.god.tree.Entry;
import io.god.tree.TreeState;
import java.util.Iterator;
import java.util.List;

/**
 * Reference §10.2, kept only to be switched on by the simulation's bug-injection tests (never in
 * production): the original sync treated a sub tree with no live entries whose newest data is newer
 * than the peer's as a clear, and cleared the peer's copy up to that time — wiping entries the
 * empty side never saw.
 */
final class EmptySubTreeRule {

    /** The test-only switch (off in production). */
    static volatile boolean enabled;

    private EmptySubTreeRule() {
    }

    static void apply(byte[] key, TreeState sub, List<Record> out) {
        if (sub.size() > 0) {
            return;
        }
        long newest = 0;
        for (Iterator<Entry> it = sub.entries(null); it.hasNext(); ) {
            newest = Math.max(newest, it.next().timestamp());
        }
        if (newest > 0) {
            out.add(Record.subClear(key, newest));
        }
    }
}

package io.god.cluster;

import io.god.persist.Record;
import io.god.tree.Entry;
import io.god.tree.TreeState;
import java.util.Iterator;
import java.util.List;

/**
 * The last-write-wins records that rebuild (parts of) one entry on another node. Tombstones and
 * sub-tree clears older than {@code cutoff} (now minus the tombstone window) are left out.
 */
final class EntryRecords {

    private EntryRecords() {
    }

    /** Everything of e: its value or tombstone and its whole sub tree. */
    static void all(Entry e, long cutoff, List<Record> out) {
        value(null, e, cutoff, out);
        if (e.sub() != null) {
            wholeSub(e, cutoff, out);
        }
    }

    /** e's value or live tombstone; {@code parent} is the key of the sub tree e lives in, or null. */
    static void value(byte[] parent, Entry e, long cutoff, List<Record> out) {
        if (e.hasValue()) {
            out.add(parent == null ? Record.put(e.key(), e.value(), e.timestamp())
                    : Record.subPut(parent, e.key(), e.value(), e.timestamp()));
        } else if (e.isTombstone() && e.timestamp() >= cutoff) {
            out.add(parent == null ? Record.delete(e.key(), e.timestamp()) : Record.subDelete(parent, e.key(), e.timestamp()));
        }
    }

    /** The sub tree under e: clear marker, configuration and every entry. */
    static void wholeSub(Entry e, long cutoff, List<Record> out) {
        clear(e, cutoff, out);
        configuration(e, out);
        for (Iterator<Entry> it = e.sub().entries(null); it.hasNext(); ) {
            value(e.key(), it.next(), cutoff, out);
        }
    }

    static void clear(Entry e, long cutoff, List<Record> out) {
        TreeState sub = e.sub();
        if (sub != null && EmptySubTreeRule.enabled) {
            EmptySubTreeRule.apply(e.key(), sub, out);
        }
        if (sub != null && sub.clearedAt() > 0 && sub.clearedAt() >= cutoff) {
            out.add(Record.subClear(e.key(), sub.clearedAt()));
        }
    }

    static void configuration(Entry e, List<Record> out) {
        TreeState sub = e.sub();
        if (sub != null && sub.configurationTimestamp() > 0) {
            out.add(Record.subSetConfiguration(e.key(), sub.configuration(), sub.configurationTimestamp()));
        }
    }
}

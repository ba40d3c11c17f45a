package io.god.persist;

import static org.assertj.core.api.Assertions.assertThat;

import io.god.tree.Entry;
import io.god.tree.Item;
import io.god.tree.SortedView;
import io.god.tree.TreeState;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/** Deep comparison of two tree versions: Merkle root, every entry with timestamps, markers, views. */
final class TreeAssert {

    private TreeAssert() {
    }

    static void assertSameTree(TreeState actual, TreeState expected) {
        assertThat(describe(actual)).isEqualTo(describe(expected));
        assertThat(actual.hash()).as("Merkle root").isEqualTo(expected.hash());
        assertThat(items(actual.values())).as("value view").isEqualTo(items(expected.values()));
        assertThat(items(actual.mirror())).as("mirror view").isEqualTo(items(expected.mirror()));
        assertThat(actual.size()).isEqualTo(expected.size());
        assertThat(actual.realSize()).isEqualTo(expected.realSize());
        for (Iterator<Entry> it = expected.entries(null); it.hasNext(); ) {
            Entry e = it.next();
            if (e.sub() != null) {
                assertThat(items(actual.sub(e.key()).values())).isEqualTo(items(e.sub().values()));
                assertThat(items(actual.sub(e.key()).mirror())).isEqualTo(items(e.sub().mirror()));
            }
        }
    }

    /** Every stored fact of a version as text (entries, tombstones, timestamps, clear markers, configuration). */
    static List<String> describe(TreeState s) {
        List<String> out = new ArrayList<>();
        out.add("clearedAt=" + s.clearedAt() + " conf=" + s.configuration() + "@" + s.configurationTimestamp());
        for (Iterator<Entry> it = s.entries(null); it.hasNext(); ) {
            Entry e = it.next();
            out.add(e.toString());
            if (e.sub() != null) {
                for (String line : describe(e.sub())) {
                    out.add("  " + line);
                }
            }
        }
        return out;
    }

    static List<String> items(SortedView v) {
        List<String> out = new ArrayList<>();
        SortedView.ViewCursor c = v.cursor();
        for (Item i = c.next(); i != null; i = c.next()) {
            out.add(i.toString() + "@" + i.timestamp());
        }
        return out;
    }
}

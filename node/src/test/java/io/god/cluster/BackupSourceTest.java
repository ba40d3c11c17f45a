package io.god.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.god.node.Store;
import io.god.persist.Record;
import io.god.tree.Tree;
import io.god.wire.WireReader;
import io.god.wire.WireWriter;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Ops.BACKUP's serving side: pages of one pinned tree version, range bounds, tombstones, meta, info. */
class BackupSourceTest {

    private final long now = 1_000_000_000_000L;
    private final Store store = Store.inMemory(new Tree(() -> now, Duration.ofHours(1)));
    private final BackupSource source = new BackupSource(store, () -> now, 3, () -> 42L, 1 << 20);

    private record Page(long session, boolean done, List<Record> records) {
    }

    @Test
    void everyPageOfASessionReadsTheVersionPinnedWhenItOpened() {
        for (int i = 0; i < 50; i++) {
            store.apply(Record.put(key(i), new byte[] {(byte) i}, 100 + i));
        }
        store.apply(Record.delete(key(7), 500));
        store.apply(Record.setConfiguration(Map.of("mirrored", "yes"), 90));
        store.apply(Record.subPut(key(60), new byte[] {1}, new byte[] {2}, 300));

        Page first = page(0, null, null, null, 64);
        assertThat(first.done()).isFalse();
        assertThat(first.records().get(0).kind()).isEqualTo(Record.Kind.CONFIGURATION); // tree-level meta first
        // writes after the session opened are not in its later pages
        store.apply(Record.put(key(49), new byte[] {9}, 900));
        store.apply(Record.put(key(55), new byte[] {9}, 901));
        store.apply(Record.delete(key(40), 902));
        List<Record> all = new ArrayList<>(first.records());
        Page p = first;
        while (!p.done()) {
            byte[] after = all.get(all.size() - 1).key();
            p = page(p.session(), null, null, after, 64);
            all.addAll(p.records());
        }
        assertThat(all).contains(Record.delete(key(7), 500), Record.put(key(49), new byte[] {49}, 149),
                Record.put(key(40), new byte[] {40}, 140), Record.subPut(key(60), new byte[] {1}, new byte[] {2}, 300));
        assertThat(all).noneMatch(r -> r.timestamp() >= 900);
        assertThat(all).hasSize(1 + 50 + 1); // configuration, 50 keys (one a tombstone), one sub-tree entry
        // a finished session is gone: a late page is a clear error
        long done = p.session();
        assertThatThrownBy(() -> page(done, null, null, key(1), 64)).hasMessageContaining("unknown");
        // a new session resumed after a key (another member, a resumed backup): the entries after it, no meta again
        Page resumed = page(0, null, null, key(47), 1 << 20);
        assertThat(resumed.done()).isTrue();
        assertThat(resumed.records()).extracting(Record::key).containsExactly(key(48), key(49), key(55), key(60));
    }

    @Test
    void pagesHoldWholeEntriesAndALargeOneGoesAlone() {
        store.apply(Record.put(key(1), new byte[] {1}, 100));
        for (int j = 0; j < 30; j++) {
            store.apply(Record.subPut(key(2), new byte[] {(byte) j}, new byte[] {2}, 200 + j));
        }
        store.apply(Record.put(key(3), new byte[] {3}, 300));
        Page first = page(0, null, null, null, 40);
        assertThat(first.done()).isFalse();
        assertThat(first.records()).containsExactly(Record.put(key(1), new byte[] {1}, 100));
        Page second = page(first.session(), null, null, key(1), 40);
        assertThat(second.done()).isFalse();
        assertThat(second.records()).hasSize(30).allMatch(r -> r.kind() == Record.Kind.SUB_PUT);
        Page third = page(first.session(), null, null, key(2), 40);
        assertThat(third.done()).isTrue();
        assertThat(third.records()).containsExactly(Record.put(key(3), new byte[] {3}, 300));
    }

    @Test
    void aRangeHoldsOnlyItsKeys() {
        for (int i = 0; i < 20; i++) {
            store.apply(Record.put(key(i), new byte[] {1}, 100 + i));
        }
        Page p = page(0, key(5), key(9), null, 1 << 20);
        assertThat(p.done()).isTrue();
        assertThat(p.records()).extracting(r -> (int) r.key()[1]).containsExactly(5, 6, 7, 8);
    }

    @Test
    void infoAnswersRedundancyAndCollectedUpTo() {
        WireReader r = new WireReader(source.serve(new WireWriter().u8(BackupSource.INFO).toBytes()));
        assertThat(r.varint()).isEqualTo(3);
        assertThat(ByteBuffer.wrap(r.raw(8)).getLong()).isEqualTo(42L);
        assertThatThrownBy(() -> source.serve(new WireWriter().u8(7).toBytes())).hasMessageContaining("mode 7");
    }

    private Page page(long session, byte[] lo, byte[] hi, byte[] after, int max) {
        WireWriter w = new WireWriter().u8(BackupSource.PAGE).varint(session).bool(true)
                .bytes(lo == null ? new byte[0] : lo).bytes(hi == null ? new byte[0] : hi).bool(after != null);
        if (after != null) {
            w.bytes(after);
        }
        WireReader r = new WireReader(source.serve(w.varint(max).toBytes()));
        long id = r.varint();
        boolean done = r.bool();
        int n = r.count(1_000_000);
        List<Record> records = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            records.add(Record.decode(r.bytes()));
        }
        r.end();
        return new Page(id, done, records);
    }

    private static byte[] key(int i) {
        return new byte[] {7, (byte) i};
    }
}

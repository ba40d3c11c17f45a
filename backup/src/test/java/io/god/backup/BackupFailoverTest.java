package io.god.backup;

import static io.god.backup.BackupFixtures.HEX;
import static io.god.backup.BackupFixtures.TOKEN;
import static io.god.backup.BackupFixtures.ackedWrites;
import static io.god.backup.BackupFixtures.assertRestored;
import static io.god.backup.BackupFixtures.node;
import static io.god.backup.BackupFixtures.records;
import static io.god.backup.BackupFixtures.ring;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.god.client.GodClient;
import io.god.cluster.Rings;
import io.god.testing.ScaledTimeout;
import io.god.testing.TimeScale;
import io.god.tree.Entry;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ownership and fail-over: a 5-node ring with N=2, so each member holds only its own range and its predecessor's.
 * A range owner stopped mid-backup (after some chunks, before its range is read): the range is read from the next
 * member, the backup is complete, verifies, holds the same records as a backup of the whole ring, and restores into
 * a ring of another N (1).
 */
@ScaledTimeout(240)
class BackupFailoverTest {

    @TempDir
    Path tmp;

    @Test
    void aRangeOwnerStoppedMidBackupIsReadFromTheNextMember() throws Exception {
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true);
        try (Rings source = ring(5, Map.of("god.redundancy", "2"));
             GodClient client = GodClient.builder().endpoints(source.address(0)).token(TOKEN).build()) {
            Map<String, Entry> acked = ackedWrites(source, client);
            List<GodClient.Member> ring = client.refreshRing();
            awaitOnEveryReplica(source, ring, acked);

            BackupStore whole = new BackupStore.Dir(tmp.resolve("whole"));
            new Backup(client, TimeScale.seconds(10), whole, 2048, quiet).run();

            BackupStore store = new BackupStore.Dir(tmp.resolve("failover"));
            Backup b = new Backup(client, TimeScale.seconds(10), store, 2048, quiet);
            AtomicReference<Manifest.Range> stopped = new AtomicReference<>();
            int[] chunks = {0};
            b.afterChunk = () -> {
                if (++chunks[0] != 2) {
                    return;
                }
                // the last range not read yet whose owner is not the client's endpoint: its owner stops now
                Manifest progress = Manifest.parse(store.get(Manifest.PROGRESS).orElseThrow(), Manifest.PROGRESS);
                for (int i = progress.ranges.size() - 1; i >= 0 && stopped.get() == null; i--) {
                    Manifest.Range r = progress.ranges.get(i);
                    if (r.chunks.isEmpty() && !r.owner.equals(source.address(0))) {
                        stopped.set(r);
                        node(source, r.owner).close();
                    }
                }
            };
            Manifest m = b.run();

            Manifest.Range victim = stopped.get();
            assertThat(victim).as("a range owner was stopped").isNotNull();
            assertThat(m.complete).isTrue();
            Manifest.Range read = m.ranges.get(victim.index);
            assertThat(read.complete).isTrue();
            assertThat(read.chunks).isNotEmpty();
            String next = successor(ring, victim.owner);
            assertThat(read.chunks).allSatisfy(c -> assertThat(c.readFrom).as(c.file).isEqualTo(next));
            assertThat(Verify.check(store, quiet).records).isEqualTo(m.records);
            assertThat(records(store)).isEqualTo(records(whole)).isNotEmpty();

            try (Rings target = ring(2, Map.of("god.redundancy", "1"))) { // another ring size and N than the source's
                try (GodClient c = GodClient.builder().endpoints(target.address(0)).token(TOKEN).build()) {
                    new Restore(c, TimeScale.seconds(10), store, quiet).run(false);
                }
                assertRestored(target, acked, 1);
            }
        }
    }

    /** The member after address in ring order: the other holder of address's range when N=2. */
    private static String successor(List<GodClient.Member> ring, String address) {
        for (int i = 0; i < ring.size(); i++) {
            if (ring.get(i).address().equals(address)) {
                return ring.get((i + 1) % ring.size()).address();
            }
        }
        throw new AssertionError(address + " is no member");
    }

    /** Each acknowledged key on both its replicas as the newest version (sub tree configuration is not synchronous). */
    private static void awaitOnEveryReplica(Rings source, List<GodClient.Member> ring, Map<String, Entry> acked) {
        await().atMost(TimeScale.seconds(60)).until(() -> acked.entrySet().stream().allMatch(a -> {
            byte[] key = HEX.parseHex(a.getKey());
            Entry newest = BackupFixtures.newest(source, key);
            return GodClient.replicas(ring, key, 2).stream().allMatch(r -> {
                Entry e = node(source, r.address()).store().state().entry(key);
                return e != null && e.timestamp() == newest.timestamp()
                        && (e.sub() == null) == (newest.sub() == null)
                        && (e.sub() == null || e.sub().hash().equals(newest.sub().hash()));
            });
        }));
    }
}

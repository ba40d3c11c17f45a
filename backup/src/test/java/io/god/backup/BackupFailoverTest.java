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
 * A range owner stopped mid-backup — before its range is read, or while it is — and the range is read from the next
 * member (from the last complete chunk on); the backup is complete, verifies, holds the same records as a backup of
 * the whole ring, none twice, and restores into a ring of another size and N (2 nodes, N=1).
 */
@ScaledTimeout(240)
class BackupFailoverTest {

    @TempDir
    Path tmp;

    private final PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true);

    /** Picks, from the backup's progress after a chunk, the range whose owner stops now; null: not yet. */
    private interface Victim {
        Manifest.Range pick(Manifest progress, String endpoint);
    }

    /**
     * A 5-node ring with N=2 and the acknowledged writes, backed up whole, then backed up again while the owner of
     * the range victim picks stops (checked at every chunk until it picks one); that backup is complete, verifies,
     * holds the same records as the whole one and restores into a ring of another size and N (2 nodes, N=1).
     * Returns the range whose owner stopped, as read, with the ring.
     */
    private Stopped backUpStoppingAnOwner(int chunkBytes, Victim victim) throws Exception {
        try (Rings source = ring(5, Map.of("god.redundancy", "2"));
             GodClient client = GodClient.builder().endpoints(source.address(0)).token(TOKEN).build()) {
            Map<String, Entry> acked = ackedWrites(source, client);
            List<GodClient.Member> ring = client.refreshRing();
            awaitOnEveryReplica(source, ring, acked);

            BackupStore whole = new BackupStore.Dir(tmp.resolve("whole"));
            Manifest all = new Backup(client, TimeScale.seconds(10), whole, chunkBytes, quiet).run();

            BackupStore store = new BackupStore.Dir(tmp.resolve("failover"));
            Backup b = new Backup(client, TimeScale.seconds(10), store, chunkBytes, quiet);
            AtomicReference<Manifest.Range> stopped = new AtomicReference<>();
            b.afterChunk = () -> {
                if (stopped.get() == null) {
                    Manifest progress = Manifest.parse(store.get(Manifest.PROGRESS).orElseThrow(), Manifest.PROGRESS);
                    Manifest.Range r = victim.pick(progress, source.address(0));
                    if (r != null) {
                        stopped.set(r);
                        node(source, r.owner).close();
                    }
                }
            };
            Manifest m = b.run();

            assertThat(stopped.get()).as("a range owner was stopped").isNotNull();
            assertThat(m.complete).isTrue();
            Manifest.Range read = m.ranges.get(stopped.get().index);
            assertThat(read.complete).isTrue();
            assertThat(Verify.check(store, quiet).records).isEqualTo(m.records);
            assertThat(records(store)).isEqualTo(records(whole)).isNotEmpty();
            assertThat(m.records).as("no record read twice").isEqualTo(all.records);

            try (Rings target = ring(2, Map.of("god.redundancy", "1"))) { // another ring size and N than the source's
                try (GodClient c = GodClient.builder().endpoints(target.address(0)).token(TOKEN).build()) {
                    new Restore(c, TimeScale.seconds(10), store, quiet).run(false);
                }
                assertRestored(target, acked, 1);
            }
            return new Stopped(stopped.get(), read, ring);
        }
    }

    private record Stopped(Manifest.Range before, Manifest.Range read, List<GodClient.Member> ring) {
        String successor() {
            return BackupFailoverTest.successor(ring, before.owner);
        }
    }

    @Test
    void aRangeOwnerStoppedMidBackupIsReadFromTheNextMember() throws Exception {
        // after two chunks: the last range not read yet whose owner is not the client's endpoint
        Stopped s = backUpStoppingAnOwner(2048, (progress, endpoint) -> {
            if (progress.ranges.stream().mapToInt(r -> r.chunks.size()).sum() < 2) {
                return null;
            }
            for (int i = progress.ranges.size() - 1; i >= 0; i--) {
                Manifest.Range r = progress.ranges.get(i);
                if (r.chunks.isEmpty() && !r.owner.equals(endpoint)) {
                    return r;
                }
            }
            throw new AssertionError("every range was read after two chunks");
        });
        assertThat(s.before().chunks).isEmpty();
        assertThat(s.read().chunks).isNotEmpty()
                .allSatisfy(c -> assertThat(c.readFrom).as(c.file).isEqualTo(s.successor()));
    }

    @Test
    void anOwnerStoppedWhileItsRangeIsReadIsFollowedFromTheLastChunkByTheNextMember() throws Exception {
        // the range being read (some chunks, not complete) whose owner is not the client's endpoint
        Stopped s = backUpStoppingAnOwner(512, (progress, endpoint) -> progress.ranges.stream()
                .filter(r -> !r.complete && !r.chunks.isEmpty() && !r.owner.equals(endpoint)).findFirst().orElse(null));
        int before = s.before().chunks.size();
        assertThat(before).isPositive();
        List<Manifest.Chunk> chunks = s.read().chunks;
        assertThat(chunks).hasSizeGreaterThan(before);
        for (int i = 0; i < chunks.size(); i++) { // the chunks read before the stop are kept, the rest from the next
            assertThat(chunks.get(i).readFrom).as(chunks.get(i).file)
                    .isEqualTo(i < before ? s.before().owner : s.successor());
            if (i < before) {
                assertThat(chunks.get(i).sha256).isEqualTo(s.before().chunks.get(i).sha256);
            }
        }
    }

    /** The member after address in ring order: the other holder of address's range when N=2. */
    static String successor(List<GodClient.Member> ring, String address) {
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

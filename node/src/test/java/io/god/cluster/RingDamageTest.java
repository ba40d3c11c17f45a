package io.god.cluster;

import static io.god.cluster.Rings.b64;
import static io.god.cluster.Rings.call;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.god.api.JsonRpc;
import io.god.client.GodClient;
import io.god.node.GodNode;
import io.god.persist.Damages;
import io.god.testing.ScaledTimeout;
import io.god.testing.TimeScale;
import io.god.time.NanoClock;
import io.god.tree.Entry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A member of a 3-node ring restarted on a damaged data directory with
 * {@code god.persistence.on-corruption=repair}: it starts with what is valid, and anti-entropy brings
 * back every acknowledged value and tombstone with its timestamp. When the lost part held deletions
 * the ring has since collected, the member is quarantined instead and nothing deleted comes back.
 * Until every range it holds had a clean exchange it answers no read from its own copy (through the
 * JSON-RPC handler HTTP uses and through the Java client: 0 stale answers), and when it is the first
 * seed and the other members are down, it founds no ring alone: it waits for them.
 */
@ScaledTimeout(180)
class RingDamageTest {

    static final Duration WAIT = TimeScale.seconds(30);

    @TempDir
    Path tmp;

    private final AtomicLong offset = new AtomicLong();
    /** Every acknowledged write: key → value, or null for a deletion. */
    private final Map<String, String> model = new LinkedHashMap<>();
    private int next;

    private Rings rings() throws Exception {
        Rings rings = new Rings();
        NanoClock system = NanoClock.system();
        rings.clock = () -> system.nanos() + offset.get();
        rings.extra.put("god.persistence.on-corruption", "repair");
        rings.extra.put("god.persistence.snapshot-threshold", "16K");
        rings.extra.put("god.sync.interval", "50ms");
        rings.extra.put("god.tombstone-window", "1h");
        return rings;
    }

    private static String seeds(Rings rings) {
        return rings.address(0) + "," + rings.address(1);
    }

    private void put(Rings rings, String key) {
        String v = "v" + next++ + "-" + key;
        call(rings.rpcs.get(0), "Put", "{\"Key\":\"" + b64(key) + "\",\"Value\":\"" + b64(v) + "\",\"Sync\":true}");
        model.put(key, v);
    }

    private void del(Rings rings, String key) {
        call(rings.rpcs.get(0), "Del", "{\"Key\":\"" + b64(key) + "\",\"Sync\":true}");
        model.put(key, null);
    }

    /**
     * New keys, overwrites and deletions of earlier live keys (never a second deletion: anti-entropy
     * compares content, not timestamps, so a newer tombstone of a deleted key is not a difference).
     */
    private void batch(Rings rings, String prefix, int puts, int overwrites, int deletes) {
        String[] earlier = model.entrySet().stream().filter(e -> e.getValue() != null).map(Map.Entry::getKey)
                .toArray(String[]::new);
        for (int i = 0; i < puts; i++) {
            put(rings, prefix + "-" + i);
        }
        for (int i = 0; i < Math.min(overwrites, earlier.length); i++) {
            put(rings, earlier[(i * 7) % earlier.length]);
        }
        for (int i = 0; i < Math.min(deletes, earlier.length); i++) {
            String k = earlier[(i * 13 + 3) % earlier.length];
            if (model.get(k) != null) {
                del(rings, k);
            }
        }
    }

    private static Entry entry(GodNode n, String key) {
        return n.store().state().entry(key.getBytes(StandardCharsets.UTF_8));
    }

    /** n holds every acknowledged write as node 0 holds it: same value or tombstone, same timestamp. */
    private boolean holdsEverything(GodNode reference, GodNode n) {
        for (String k : model.keySet()) {
            Entry want = entry(reference, k);
            Entry got = entry(n, k);
            if (got == null || got.timestamp() != want.timestamp() || got.isTombstone() != want.isTombstone()
                    || got.hasValue() && !Arrays.equals(got.value(), want.value())) {
                return false;
            }
        }
        return true;
    }

    private String differences(GodNode reference, GodNode n) {
        StringBuilder b = new StringBuilder();
        int count = 0;
        for (String k : model.keySet()) {
            Entry want = entry(reference, k);
            Entry got = entry(n, k);
            if (got == null || got.timestamp() != want.timestamp() || got.isTombstone() != want.isTombstone()) {
                if (count++ < 5) {
                    b.append(k).append(" want ").append(want).append(" got ").append(got).append("; ");
                }
            }
        }
        return count + ": " + b;
    }

    /** Node 0 holds exactly what was acknowledged; returns {values, tombstones}. */
    private int[] checkReference(GodNode reference) {
        int values = 0;
        int tombstones = 0;
        for (Map.Entry<String, String> m : model.entrySet()) {
            Entry e = entry(reference, m.getKey());
            assertThat(e).as(m.getKey()).isNotNull();
            if (m.getValue() == null) {
                assertThat(e.isTombstone()).as(m.getKey()).isTrue();
                tombstones++;
            } else {
                assertThat(new String(e.value(), StandardCharsets.UTF_8)).isEqualTo(m.getValue());
                values++;
            }
        }
        return new int[] {values, tombstones};
    }

    /** What a read answered: exists, value, timestamp. */
    record Seen(boolean exists, String value, long timestamp) {
    }

    /** Every key of the model as the reference node holds it (the acknowledged state, with timestamps). */
    private Map<String, Seen> expected(GodNode reference) {
        Map<String, Seen> want = new LinkedHashMap<>();
        for (String k : model.keySet()) {
            Entry e = entry(reference, k);
            want.put(k, new Seen(e.hasValue(), e.hasValue() ? new String(e.value(), StandardCharsets.UTF_8) : null,
                    e.timestamp()));
        }
        return want;
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    /** A Stamped Get through a node's JSON-RPC handler (what HTTP calls); null when it answers 503. */
    private static Seen jsonGet(JsonRpc rpc, String key) {
        JsonRpc.Response r = rpc.handle("DHash.Get", ("{\"Key\":\"" + b64(key) + "\",\"Stamped\":true}")
                .getBytes(StandardCharsets.UTF_8), null);
        if (r.status() == 503) {
            return null;
        }
        if (r.status() != 200) {
            throw new AssertionError("Get " + key + " → " + r.status() + " " + r.text());
        }
        try {
            JsonNode n = JSON.readTree(r.body());
            boolean exists = n.path("Exists").asBoolean();
            return new Seen(exists, exists ? new String(n.get("Value").binaryValue(), StandardCharsets.UTF_8) : null,
                    n.path("Timestamp").asLong());
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    /** A Get through the Java client (the newest of the key's replicas); null when it gave up. */
    private static Seen clientGet(GodClient client, String key) {
        try {
            GodClient.Value v = client.get(GodClient.utf8(key));
            return new Seen(v.exists(), v.exists() ? new String(v.value(), StandardCharsets.UTF_8) : null,
                    v.timestamp());
        } catch (io.god.client.GodException e) {
            return null;
        }
    }

    /**
     * Reads every expected key over and over through each reader until stopped: counts answers,
     * unavailable ones (503, the client giving up) and those read while {@code repairing} held, and
     * keeps every stale answer (anything but the acknowledged value or tombstone with its timestamp).
     */
    static final class Reads implements AutoCloseable {
        final AtomicLong answered = new AtomicLong();
        final AtomicLong unavailable = new AtomicLong();
        final AtomicLong whileRepairing = new AtomicLong();
        final ConcurrentLinkedQueue<String> stale = new ConcurrentLinkedQueue<>();
        private final AtomicBoolean stop = new AtomicBoolean();
        private final CompletableFuture<Void> done;

        Reads(Map<String, Seen> want, BooleanSupplier repairing, List<Function<String, Seen>> readers) {
            done = CompletableFuture.runAsync(() -> {
                while (!stop.get()) {
                    for (String k : want.keySet()) {
                        for (Function<String, Seen> reader : readers) {
                            if (stop.get()) {
                                return;
                            }
                            boolean during = repairing.getAsBoolean();
                            Seen got = reader.apply(k);
                            if (got == null) {
                                unavailable.incrementAndGet();
                                java.util.concurrent.locks.LockSupport.parkNanos(1_000_000); // pacing, not a wait
                                continue;
                            }
                            answered.incrementAndGet();
                            if (during) {
                                whileRepairing.incrementAndGet();
                            }
                            if (!got.equals(want.get(k))) {
                                stale.add(k + ": want " + want.get(k) + ", got " + got);
                            }
                        }
                    }
                }
            });
        }

        @Override
        public void close() {
            stop.set(true);
            done.join();
        }

        @Override
        public String toString() {
            return answered + " answered (" + whileRepairing + " while repairing), " + unavailable + " unavailable, "
                    + stale.size() + " stale";
        }
    }

    @Test
    void repairBringsBackEveryAcknowledgedValueAndTombstoneAfterEachKindOfDamage() throws Exception {
        try (Rings rings = rings()) {
            for (int i = 0; i < 3; i++) {
                rings.start(i, tmp.resolve("n" + i), seeds(rings));
            }
            await().atMost(WAIT).until(() -> rings.converged() && rings.nodes.get(0).membership().ring().size() == 3);
            Path dir = tmp.resolve("n2");
            for (Damages kind : Damages.values()) {
                batch(rings, kind.name(), 300, 40, 40); // > 16K of log: a snapshot on every node
                for (int r = 0; r < 2; r++) { // two restarts of the member: two more logs after the snapshot
                    restart(rings, dir);
                    batch(rings, kind.name() + "-r" + r, 5, 2, 3);
                }
                // a catch-up after a restart may write a snapshot of its own: restart until three logs follow it
                for (int extra = 0; ; extra++) {
                    GodNode victim = rings.nodes.get(2);
                    await().atMost(WAIT).until(() -> holdsEverything(rings.nodes.get(0), victim));
                    victim.close();
                    if (Damages.logsFromNewestSnapshot(dir).size() >= 3 || extra == 4) {
                        break;
                    }
                    rings.start(2, dir, seeds(rings));
                    await().atMost(WAIT).until(() -> rings.converged() && rings.nodes.get(0).membership().ring().size() == 3);
                    batch(rings, kind.name() + "-x" + extra, 5, 2, 3);
                }
                kind.inflict(dir, 3);
                Map<String, Seen> want = expected(rings.nodes.get(0));
                GodNode[] back = new GodNode[1];
                // reads while it repairs: through the Java client and through the damaged member's own handler
                try (GodClient client = GodClient.builder().endpoints(rings.address(0), rings.address(1),
                        rings.address(2)).attemptTimeout(TimeScale.seconds(2)).deadline(TimeScale.seconds(5)).build();
                     Reads reads = new Reads(want, () -> back[0] != null && back[0].awaitsRepair(), List.of(
                             k -> clientGet(client, k),
                             k -> back[0] == null ? null : jsonGet(rings.rpcs.get(2), k)))) {
                    back[0] = rings.start(2, dir, seeds(rings));
                    assertThat(back[0].recovery().lostRecords()).as(kind + ": " + back[0].recovery()).isTrue();
                    assertThat(back[0].recovery().damage()).as(kind.name()).isNotEmpty();
                    try {
                        await().atMost(WAIT).until(() -> rings.converged() && !back[0].awaitsRepair()
                                && holdsEverything(rings.nodes.get(0), back[0]));
                    } catch (org.awaitility.core.ConditionTimeoutException e) {
                        throw new AssertionError(kind + ": converged " + rings.converged() + ", state " + back[0].state()
                                + ", first differences " + differences(rings.nodes.get(0), back[0]) + "; "
                                + back[0].recovery(), e);
                    }
                    long after = reads.answered.get();
                    await().atMost(WAIT).until(() -> reads.answered.get() > after + 2L * want.size());
                    reads.close();
                    System.out.printf("%s: reads %s%n", kind, reads);
                    assertThat(reads.stale).as(kind.name()).isEmpty();
                }
                int[] counts = checkReference(rings.nodes.get(0));
                System.out.printf("%s: %d values and %d tombstones back with their timestamps%n", kind, counts[0],
                        counts[1]);
                assertThat(counts[0]).isPositive();
                assertThat(counts[1]).isPositive();
                assertThat(back[0].quarantine().quarantines()).isZero();
            }
        }
    }

    /**
     * The first seed restarts on damaged data while the other members are down (a whole ring
     * restarted): it founds no ring with its damaged copy alone but waits, answering every read 503; once
     * the others are up it forms the ring with them, stays CATCHING_UP until every range it holds had a
     * clean exchange, hands reads over meanwhile, and then holds every acknowledged value and tombstone
     * with its timestamp. No read returned stale data.
     */
    @Test
    void aDamagedFirstSeedWaitsForItsPeersAndAnswersNoStaleReadWhileRepairing() throws Exception {
        try (Rings rings = rings()) {
            rings.extra.put("god.persistence.snapshot-threshold", "4K"); // snapshots (log 1 replaced) on every node
            for (int i = 0; i < 3; i++) {
                rings.start(i, tmp.resolve("n" + i), seeds(rings));
            }
            await().atMost(WAIT).until(() -> rings.converged() && rings.nodes.get(0).membership().ring().size() == 3);
            Path dir = tmp.resolve("n0");
            batch(rings, "a", 300, 40, 40);
            for (int r = 0; r < 2; r++) { // two restarts: two more logs after the snapshot
                rings.nodes.get(0).close();
                rings.start(0, dir, seeds(rings));
                await().atMost(WAIT).until(() -> rings.converged() && rings.nodes.get(1).membership().ring().size() == 3);
                batch(rings, "a-r" + r, 5, 2, 3);
            }
            await().atMost(WAIT).untilAsserted(() -> checkReference(rings.nodes.get(1)));
            await().atMost(WAIT).until(() -> holdsEverything(rings.nodes.get(1), rings.nodes.get(0))
                    && holdsEverything(rings.nodes.get(1), rings.nodes.get(2)));
            Map<String, Seen> want = expected(rings.nodes.get(1));
            for (int i = 2; i >= 0; i--) {
                rings.nodes.get(i).close();
            }
            Damages.DELETE_ALL_SNAPSHOTS.inflict(dir, 5); // most of its data lost

            GodNode back = rings.start(0, dir, seeds(rings));
            assertThat(back.recovery().lostRecords()).isTrue();
            assertThat(back.awaitsRepair()).isTrue();
            try (Reads reads = new Reads(want, back::awaitsRepair, List.of(k -> jsonGet(rings.rpcs.get(0), k)))) {
                // alone it waits (the first seed founds a ring only with its data intact), answering no read
                await().during(TimeScale.seconds(2)).atMost(WAIT).until(() -> reads.unavailable.get() > 0
                        && back.membership().state() == io.god.ring.Membership.State.JOINING && !back.ready()
                        && back.state() == GodNode.State.JOINING);
                assertThat(reads.answered.get()).isZero();
                rings.start(1, tmp.resolve("n1"), seeds(rings));
                rings.start(2, tmp.resolve("n2"), seeds(rings));
                try {
                    await().atMost(WAIT).until(() -> rings.converged() && !back.awaitsRepair()
                            && holdsEverything(rings.nodes.get(1), back));
                } catch (org.awaitility.core.ConditionTimeoutException e) {
                    throw new AssertionError("converged " + rings.converged() + ", state " + back.state()
                            + ", first differences " + differences(rings.nodes.get(1), back) + "; " + reads, e);
                }
                long after = reads.answered.get();
                await().atMost(WAIT).until(() -> reads.answered.get() > after + want.size());
                reads.close();
                System.out.printf("first seed repaired: reads %s%n", reads);
                assertThat(reads.stale).isEmpty();
            }
            assertThat(back.ready()).isTrue();
            assertThat(back.quarantine().quarantines()).isZero();
            assertThat(tmp.resolve("n0").resolve(io.god.persist.DurableTree.REPAIR_PENDING + ".meta")).doesNotExist();
            int[] counts = checkReference(rings.nodes.get(1));
            System.out.printf("first seed: %d values and %d tombstones back with their timestamps%n", counts[0],
                    counts[1]);
        }
    }

    private void restart(Rings rings, Path dir) {
        rings.nodes.get(2).close();
        rings.start(2, dir, seeds(rings));
        await().atMost(WAIT).until(() -> rings.converged() && rings.nodes.get(0).membership().ring().size() == 3);
    }

    /**
     * The lost part of the log held deletions the ring collected while the member was down: its
     * lastAliveAt is lowered to what it still has, so the stale-data check quarantines it, and not one
     * deleted key comes back.
     */
    @Test
    void aLostPartOlderThanTheTombstoneWindowQuarantinesTheMemberAndResurrectsNothing() throws Exception {
        try (Rings rings = rings()) {
            rings.extra.put("god.persistence.snapshot-threshold", "0");
            for (int i = 0; i < 3; i++) {
                rings.start(i, tmp.resolve("n" + i), seeds(rings));
            }
            await().atMost(WAIT).until(() -> rings.converged() && rings.nodes.get(0).membership().ring().size() == 3);
            for (int k = 0; k < 100; k++) {
                put(rings, "k" + k);
            }
            Path dir = tmp.resolve("n2");
            await().atMost(WAIT).until(() -> holdsEverything(rings.nodes.get(0), rings.nodes.get(2)));
            restart(rings, dir); // the deletions go to a log of their own
            for (int k = 0; k < 50; k++) {
                del(rings, "k" + k);
            }
            long deleted = rings.clock.nanos();
            GodNode victim = rings.nodes.get(2);
            await().atMost(WAIT).until(() -> holdsEverything(rings.nodes.get(0), victim)
                    && victim.quarantine().lastAliveAt() > deleted);
            victim.close();
            Damages.GARBAGE_NEWEST_LOG.inflict(dir, 5); // the deletions are lost on this member
            await().atMost(WAIT).until(() -> rings.converged() && rings.nodes.get(0).membership().ring().size() == 2);
            // the ring collects only at its expected size (DESIGN §5): the member is removed, as an operator
            // does for a member gone for good; it comes back later and rejoins like any node
            rings.nodes.get(0).removeMember(rings.address(2));
            await().atMost(WAIT).until(() -> rings.running().stream()
                    .allMatch(n -> n.membership().expected().size() == 2));
            offset.addAndGet(Duration.ofHours(2).toNanos()); // the window passes; the ring forgets the deletions
            for (GodNode n : rings.running()) {
                await().atMost(WAIT).until(() -> {
                    n.collectGarbage();
                    return n.store().state().realSize() == n.store().state().size();
                });
            }
            assertThat(rings.nodes.get(0).store().collectedUpTo()).isGreaterThan(0);

            GodNode back = rings.start(2, dir, seeds(rings));
            assertThat(back.recovery().lostRecords()).isTrue();
            // its lastAliveAt was later than the deletions before the damage: only the lowered value (to what
            // the damaged data still holds, before any exchange) makes the stale-data check quarantine it. The
            // check may already have run inside start(), which then moves lastAliveAt to the quarantine time.
            await().atMost(WAIT).until(() -> rings.converged() && rings.nodes.get(0).membership().ring().size() == 3);
            assertThat(back.quarantine().quarantines()).isEqualTo(1);
            await().atMost(WAIT).until(() -> back.store().state().size() == 50);
            int resurrected = 0;
            for (GodNode n : rings.running()) {
                for (int k = 0; k < 50; k++) {
                    if (entry(n, "k" + k) != null && entry(n, "k" + k).hasValue()) {
                        resurrected++;
                    }
                }
            }
            assertThat(resurrected).isZero();
            for (int k = 50; k < 100; k++) {
                assertThat(entry(back, "k" + k).hasValue()).isTrue();
            }
        }
    }
}

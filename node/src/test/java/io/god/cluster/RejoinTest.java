package io.god.cluster;

import static io.god.cluster.Rings.b64;
import static io.god.cluster.Rings.call;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.god.api.JsonRpc;
import io.god.node.GodNode;
import io.god.testing.ScaledTimeout;
import io.god.testing.TimeScale;
import io.god.time.NanoClock;
import io.god.time.Scheduler;
import io.god.transport.InMemoryNetwork;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import io.god.metrics.NodeMeters;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The one (re)join path (DESIGN §7): the symmetric stale-data check, CATCHING_UP before serving
 * reads, and what a joining node tells clients. In-JVM rings with a clock the test moves and an
 * in-memory network the test partitions.
 */
@ScaledTimeout(180)
class RejoinTest {

    static final Duration WAIT = TimeScale.seconds(30);
    static final long HOURS_2 = Duration.ofHours(2).toNanos();

    @TempDir
    Path tmp;

    private final AtomicLong offset = new AtomicLong();
    private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();
    private final ExecutorService workers = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        timers.shutdownNow();
        workers.shutdownNow();
        GodNode.STATES_REFUSED.clear();
    }

    private Rings rings(InMemoryNetwork net) throws Exception {
        Rings rings = new Rings();
        NanoClock system = NanoClock.system();
        rings.clock = () -> system.nanos() + offset.get();
        rings.extra.put("god.tombstone-window", "1h");
        rings.extra.put("god.sync.interval", "50ms");
        if (net != null) {
            rings.transports = (settings, handlers) -> net.transport(settings.advertise());
        }
        return rings;
    }

    private static String seeds(Rings rings) {
        return rings.address(0) + "," + rings.address(1);
    }

    private static void put(Rings rings, int node, String key, String value) {
        call(rings.rpcs.get(node), "Put", "{\"Key\":\"" + b64(key) + "\",\"Value\":\"" + b64(value) + "\",\"Sync\":true}");
    }

    private static void del(Rings rings, int node, String key) {
        call(rings.rpcs.get(node), "Del", "{\"Key\":\"" + b64(key) + "\",\"Sync\":true}");
    }

    private static String get(Rings rings, int node, String key) {
        return call(rings.rpcs.get(node), "Get", "{\"Key\":\"" + b64(key) + "\"}");
    }

    private static void collectAll(GodNode n) {
        await().atMost(WAIT).until(() -> {
            n.collectGarbage();
            return n.store().state().realSize() == n.store().state().size();
        });
    }

    private static boolean converged(Rings rings, int size) {
        return rings.converged() && rings.nodes.get(0).membership().ring().size() == size;
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aStaleFirstSeedThatRestartsFirstIsTheOneQuarantinedAndNothingIsResurrected() throws Exception {
        try (Rings rings = rings(null)) {
            for (int i = 0; i < 3; i++) {
                rings.start(i, tmp.resolve("n" + i), seeds(rings));
            }
            await().atMost(WAIT).until(() -> converged(rings, 3));
            for (int k = 0; k < 100; k++) {
                put(rings, 0, "k" + k, "v" + k);
            }
            GodNode seed = rings.nodes.get(0);
            await().atMost(WAIT).until(() -> seed.quarantine().lastAliveAt() > 0);
            seed.close(); // the first seed is away ...
            await().atMost(WAIT).until(() -> rings.converged() && rings.nodes.get(1).membership().ring().size() == 2);
            // (the ring collects nothing while a member is absent, DESIGN §5: an admin removed it)
            rings.nodes.get(1).removeMember(rings.address(0));
            await().atMost(WAIT).until(() -> !rings.nodes.get(1).collectionHeld() && !rings.nodes.get(2).collectionHeld());
            for (int k = 0; k < 50; k++) {
                del(rings, 1, "k" + k);
            }
            offset.addAndGet(HOURS_2); // ... while the others collect the deletions
            collectAll(rings.nodes.get(1));
            collectAll(rings.nodes.get(2));
            assertThat(rings.nodes.get(1).store().collectedUpTo()).isGreaterThan(seed.quarantine().lastAliveAt());
            long collected = rings.nodes.get(1).store().collectedUpTo();
            for (int i = 1; i < 3; i++) {
                GodNode n = rings.nodes.get(i);
                await().atMost(WAIT).until(() -> n.quarantine().lastAliveAt() > collected);
            }
            rings.nodes.get(1).close(); // the whole ring stops
            rings.nodes.get(2).close();

            GodNode first = rings.start(0, tmp.resolve("n0"), seeds(rings)); // the stale seed founds a ring
            await().atMost(WAIT).until(() -> first.state() == GodNode.State.ACTIVE);
            assertThat(first.store().state().realSize()).isEqualTo(100);
            rings.start(1, tmp.resolve("n1"), seeds(rings));
            rings.start(2, tmp.resolve("n2"), seeds(rings));
            await().atMost(WAIT).until(() -> converged(rings, 3));

            assertThat(first.quarantine().quarantines()).isEqualTo(1);
            assertThat(rings.nodes.get(1).quarantine().quarantines()).isZero();
            assertThat(rings.nodes.get(2).quarantine().quarantines()).isZero();
            await().atMost(WAIT).until(() -> first.store().state().realSize() == 50);
            for (GodNode n : rings.running()) {
                for (int k = 0; k < 100; k++) {
                    assertThat(n.store().state().get(utf8("k" + k)).exists()).as(n.address() + " k" + k)
                            .isEqualTo(k >= 50);
                }
            }
        }
    }

    @Test
    void aMemberCutOffWhileTheRingCollectedIsQuarantinedOnRejoinWithoutARestart() throws Exception {
        InMemoryNetwork net = new InMemoryNetwork(Scheduler.of(timers), workers, 5);
        try (Rings rings = rings(net)) {
            for (int i = 0; i < 3; i++) {
                rings.start(i, tmp.resolve("n" + i), seeds(rings));
            }
            await().atMost(WAIT).until(() -> converged(rings, 3));
            for (int k = 0; k < 100; k++) {
                put(rings, 0, "k" + k, "v" + k);
            }
            GodNode away = rings.nodes.get(2);
            SimpleMeterRegistry meters = new SimpleMeterRegistry();
            NodeMeters.bind(away, meters, OptionalInt.empty());
            assertThat(meters.get("god.quarantines").functionCounter().count()).isZero();
            await().atMost(WAIT).until(() -> away.quarantine().lastAliveAt() > 0);
            net.partition(List.of(rings.address(2)), List.of(rings.address(0), rings.address(1)));
            await().atMost(WAIT).until(() -> rings.nodes.get(0).membership().ring().size() == 2
                    && rings.nodes.get(1).membership().ring().size() == 2 && away.membership().ring().size() == 1);
            for (int k = 0; k < 50; k++) {
                del(rings, 0, "k" + k);
            }
            // the ring collects nothing while a member is absent (DESIGN §5) — until an admin removes it
            // (gone for good, as far as the ring knows): if it ever comes back, the stale check catches it
            assertThat(rings.nodes.get(0).membership().expected().size()).isEqualTo(3);
            rings.nodes.get(0).removeMember(rings.address(2));
            await().atMost(WAIT).until(() -> !rings.nodes.get(0).collectionHeld() && !rings.nodes.get(1).collectionHeld());
            long deleted = rings.clock.nanos();
            for (int i = 0; i < 2; i++) { // the two in-sync members record that they saw the deletions
                GodNode n = rings.nodes.get(i);
                await().atMost(WAIT).until(() -> n.quarantine().lastAliveAt() > deleted);
            }
            offset.addAndGet(HOURS_2);
            collectAll(rings.nodes.get(0));
            collectAll(rings.nodes.get(1));
            assertThat(rings.nodes.get(0).store().collectedUpTo()).isGreaterThan(away.quarantine().lastAliveAt());
            net.heal();
            await().atMost(WAIT).until(() -> converged(rings, 3));
            assertThat(away.quarantine().quarantines()).isEqualTo(1);
            assertThat(meters.get("god.quarantines").functionCounter().count()).as("god_quarantines_total")
                    .isEqualTo(1);
            assertThat(away.closed()).isFalse();
            await().atMost(WAIT).until(() -> away.store().state().realSize() == 50);
            for (GodNode n : rings.running()) {
                for (int k = 0; k < 100; k++) {
                    assertThat(n.store().state().get(utf8("k" + k)).exists()).as(n.address() + " k" + k)
                            .isEqualTo(k >= 50);
                }
            }
        }
    }

    /**
     * A member cut off longer than the failure timeout while writes go on comes back under concurrent
     * readers (the audit's paused node): it catches up before it serves reads, so no read through any
     * member returns an older value than the acknowledged one. One of the two rings has a node of an
     * older version that does not know member states (mixed ring).
     */
    @Test
    void aMemberBackFromAPartitionServesNoStaleReadsWhileItCatchesUp() throws Exception {
        for (boolean mixed : new boolean[] {false, true}) {
            InMemoryNetwork net = new InMemoryNetwork(Scheduler.of(timers), workers, 9);
            try (Rings rings = rings(net)) {
                rings.extra.put("god.sync.interval", "10s"); // only catching up repairs the returning member
                if (mixed) {
                    GodNode.STATES_REFUSED.add(rings.address(1));
                }
                for (int i = 0; i < 3; i++) {
                    rings.start(i, null, seeds(rings));
                }
                await().atMost(WAIT).until(() -> converged(rings, 3));
                int keys = 40;
                for (int k = 0; k < keys; k++) {
                    put(rings, 0, "k" + k, "old");
                }
                GodNode away = rings.nodes.get(2);
                SimpleMeterRegistry meters = new SimpleMeterRegistry();
                NodeMeters.bind(away, meters, OptionalInt.empty());
                assertThat(meters.get("god.catching.up").gauge().value()).isZero();
                net.partition(List.of(rings.address(2)), List.of(rings.address(0), rings.address(1)));
                await().atMost(WAIT).until(() -> rings.nodes.get(0).membership().ring().size() == 2
                        && rings.nodes.get(1).membership().ring().size() == 2 && away.membership().ring().size() == 1);
                for (int k = 0; k < keys; k++) {
                    put(rings, 0, "k" + k, "new");
                }
                await().atMost(WAIT).until(() -> away.state() == GodNode.State.CATCHING_UP);
                assertThat(meters.get("god.catching.up").gauge().value()).as("god_catching_up while CATCHING_UP")
                        .isEqualTo(1);
                AtomicBoolean stop = new AtomicBoolean();
                AtomicInteger stale = new AtomicInteger();
                AtomicInteger reads = new AtomicInteger();
                List<Thread> readers = new java.util.ArrayList<>();
                for (int r = 0; r < 3; r++) {
                    JsonRpc rpc = rings.rpcs.get(r);
                    GodNode via = rings.nodes.get(r);
                    Thread t = new Thread(() -> {
                        int k = 0;
                        while (!stop.get()) {
                            if (via.membership().ring().size() < 3) {
                                // cut off, a member answers from what it has: that is the partition,
                                // not the return this test is about
                                java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
                                continue;
                            }
                            JsonRpc.Response resp = rpc.handle("DHash.Get",
                                    ("{\"Key\":\"" + b64("k" + (k++ % keys)) + "\"}").getBytes(StandardCharsets.UTF_8), null);
                            if (resp.status() == 200) {
                                reads.incrementAndGet();
                                if (!resp.text().contains(b64("new"))) {
                                    stale.incrementAndGet();
                                }
                            }
                        }
                    });
                    t.start();
                    readers.add(t);
                }
                net.heal();
                await().atMost(WAIT).until(() -> converged(rings, 3));
                int at = reads.get();
                await().atMost(WAIT).until(() -> reads.get() > at + 300);
                stop.set(true);
                for (Thread t : readers) {
                    t.join(10_000);
                }
                assertThat(stale.get()).as("stale reads (mixed " + mixed + ")").isZero();
                for (int k = 0; k < keys; k++) {
                    assertThat(get(rings, 2, "k" + k)).contains(b64("new"));
                }
                assertThat(away.catchUp().totalRounds()).isPositive();
                await().atMost(WAIT).until(() -> meters.get("god.catching.up").gauge().value() == 0);
            } finally {
                GodNode.STATES_REFUSED.clear();
            }
        }
    }

    @Test
    void aJoiningNodeDoesNotAnswerNodesWithARingOfItself() throws Exception {
        try (Rings rings = rings(null)) {
            GodNode joining = rings.start(1, null, rings.address(0)); // its only seed is not running
            await().during(TimeScale.millis(200)).atMost(WAIT).until(() -> joining.state() == GodNode.State.JOINING);
            JsonRpc.Response r = rings.rpcs.get(1).handle("DHash.Nodes", "{}".getBytes(StandardCharsets.UTF_8), null);
            assertThat(r.status()).isEqualTo(503);
            assertThat(r.text()).contains("joining");
        }
    }

    @Test
    void anOlderNodeAsksWithAnEmptyRequestAndGetsItsEightBytes() throws Exception {
        try (Rings rings = rings(null)) {
            GodNode n = rings.start(0, tmp.resolve("n0"), rings.address(0));
            await().atMost(WAIT).until(() -> n.state() == GodNode.State.ACTIVE);
            assertThat(n.quarantine().serve(new byte[0])).hasSize(8);
            assertThat(n.quarantine().serve(new byte[24])).hasSize(24);
        }
    }
}

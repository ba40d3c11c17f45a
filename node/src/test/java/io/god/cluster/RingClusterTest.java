package io.god.cluster;

import static io.god.cluster.Rings.b64;
import static io.god.cluster.Rings.call;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.god.metrics.NodeMeters;
import io.god.node.GodNode;
import io.god.ring.Member;
import io.god.testing.ScaledTimeout;
import io.god.testing.TimeScale;
import io.god.time.Scheduler;
import io.god.transport.InMemoryNetwork;
import io.god.transport.TestNetwork;
import io.micrometer.prometheus.PrometheusConfig;
import io.micrometer.prometheus.PrometheusMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Multi-node rings in one JVM over TCP on 127.0.0.x (and over the in-memory network for partitions). */
@ScaledTimeout(120)
class RingClusterTest {

    static final Duration CONVERGE = TimeScale.seconds(20);

    @TempDir
    Path tmp;

    @Test
    void growingFromOneToSixNodesConvergesAndEveryKeyLivesOnNNodes() throws Exception {
        try (Rings rings = new Rings()) {
            String seed = rings.address(0);
            rings.start(0, null, seed);
            await().atMost(CONVERGE).until(rings::converged);
            for (int i = 1; i < 6; i++) {
                rings.start(i, null, seed);
                int size = i + 1;
                await().atMost(CONVERGE).until(() -> rings.converged()
                        && rings.nodes.get(0).membership().ring().size() == size);
            }
            Set<String> positions = new HashSet<>();
            rings.nodes.forEach(n -> positions.add(n.membership().self().hex()));
            assertThat(positions).hasSize(6);

            // 1 000 keys written through node A (Sync=true) are readable through every node
            for (int k = 0; k < 1000; k++) {
                call(rings.rpcs.get(0), "Put", "{\"Key\":\"" + b64("key" + k) + "\",\"Value\":\"" + b64("v" + k)
                        + "\",\"Sync\":true}");
            }
            for (int i = 0; i < 6; i++) {
                for (int k = 0; k < 1000; k += 7) {
                    assertThat(call(rings.rpcs.get(i), "Get", "{\"Key\":\"" + b64("key" + k) + "\"}"))
                            .contains("\"Value\":\"" + b64("v" + k) + "\"").contains("\"Exists\":true");
                }
            }
            // ... and each lives on exactly min(N, size) = 3 nodes: its replica set (a Sync write returns once W = 2
            // confirmed: the third copy may still be on its way)
            await().atMost(CONVERGE).untilAsserted(() -> {
                for (int k = 0; k < 1000; k++) {
                    byte[] key = ("key" + k).getBytes(StandardCharsets.UTF_8);
                    List<String> holders = new ArrayList<>();
                    for (GodNode n : rings.nodes) {
                        if (n.store().state().get(key).exists()) {
                            holders.add(n.address());
                        }
                    }
                    List<String> replicas = rings.nodes.get(0).membership().ring().replicas(key, 3).stream()
                            .map(Member::address).toList();
                    assertThat(holders).as("holders of key" + k).hasSize(3).containsExactlyInAnyOrderElementsOf(replicas);
                }
            });
            for (int i = 0; i < 6; i++) {
                assertThat(call(rings.rpcs.get(i), "Size", "{}")).as("Size sums owned ranges").isEqualTo("1000");
            }
            assertThat(call(rings.rpcs.get(3), "Nodes", "{}")).contains(rings.address(5)).contains(rings.address(0));
            // the typed entry point of /v1 routes the same way
            for (int i = 0; i < 6; i++) {
                io.god.request.Request get = new io.god.request.Request.Get(
                        ("key" + (i * 11)).getBytes(StandardCharsets.UTF_8), false);
                io.god.request.Result.ValueRes r = (io.god.request.Result.ValueRes) rings.rpcs.get(i).execute(get, null);
                assertThat(r.exists()).isTrue();
                assertThat(new String(r.value(), StandardCharsets.UTF_8)).isEqualTo("v" + (i * 11));
                assertThat(rings.rpcs.get(i).execute(new io.god.request.Request.Size(), null)).isEqualTo(1000L);
            }

            // deletes, sub trees, sub-tree configuration and set expressions across nodes
            call(rings.rpcs.get(1), "Del", "{\"Key\":\"" + b64("key1") + "\",\"Sync\":true}");
            assertThat(call(rings.rpcs.get(4), "Get", "{\"Key\":\"" + b64("key1") + "\"}")).contains("\"Exists\":false");
            call(rings.rpcs.get(2), "SubAddConfiguration", "{\"TreeKey\":\"" + b64("t1") + "\",\"Key\":\"mirrored\",\"Value\":\"yes\"}");
            for (int j = 0; j < 10; j++) {
                call(rings.rpcs.get(j % 6), "SubPut", "{\"Key\":\"" + b64("t1") + "\",\"SubKey\":\"" + b64("s" + j)
                        + "\",\"Value\":\"" + b64("v" + (9 - j)) + "\",\"Sync\":true}");
                call(rings.rpcs.get(j % 6), "SubPut", "{\"Key\":\"" + b64("t2") + "\",\"SubKey\":\"" + b64("s" + (j + 5))
                        + "\",\"Value\":\"" + b64("w") + "\",\"Sync\":true}");
            }
            assertThat(call(rings.rpcs.get(5), "SubSize", "{\"Key\":\"" + b64("t1") + "\"}")).isEqualTo("10");
            assertThat(call(rings.rpcs.get(4), "MirrorFirst", "{\"Key\":\"" + b64("t1") + "\"}")).contains(b64("v0"));
            String inter = call(rings.rpcs.get(3), "SetExpression", "{\"Code\":\"(I t1 t2)\"}");
            assertThat(inter).contains(b64("s5")).contains(b64("s9")).doesNotContain(b64("s4"));
            // executed where the largest source lives
            for (int j = 0; j < 30; j++) {
                call(rings.rpcs.get(0), "SubPut", "{\"Key\":\"" + b64("big") + "\",\"SubKey\":\"" + b64("s" + j)
                        + "\",\"Value\":\"" + b64("b") + "\",\"Sync\":true}");
            }
            String bigOwner = rings.nodes.get(0).membership().ring().successor("big".getBytes(StandardCharsets.UTF_8)).address();
            int entry = rings.address(0).equals(bigOwner) ? 1 : 0;
            int owner = -1;
            for (int i = 0; i < 6; i++) {
                owner = rings.address(i).equals(bigOwner) ? i : owner;
            }
            rings.calls.clear();
            assertThat(call(rings.rpcs.get(entry), "SetExpression", "{\"Code\":\"(I t1 big)\"}"))
                    .contains(b64("s0")).contains(b64("s9")).doesNotContain(b64("s10"));
            assertThat(rings.calls).contains(owner + ":SetExpression");
                        call(rings.rpcs.get(0), "SetExpression", "{\"Code\":\"(U:First t1 t2)\",\"Dest\":\"" + b64("t3") + "\"}");
            assertThat(call(rings.rpcs.get(1), "SubSize", "{\"Key\":\"" + b64("t3") + "\"}")).isEqualTo("15");
            // Next/Prev walk the whole ring
            assertThat(call(rings.rpcs.get(2), "Next", "{\"Key\":\"" + b64("key99") + "\"}")).contains(b64("key990"));
            call(rings.rpcs.get(5), "Clear", "{}");
            assertThat(call(rings.rpcs.get(0), "Size", "{}")).isEqualTo("0");
        }
    }

    @Test
    void sixNodesStartedAtTheSameMomentFormOneRing() throws Exception {
        try (Rings rings = new Rings()) {
            StringBuilder seeds = new StringBuilder();
            for (int i = 0; i < 6; i++) {
                seeds.append(i == 0 ? "" : ",").append(rings.address(i));
            }
            ExecutorService pool = Executors.newFixedThreadPool(6);
            try {
                List<Future<GodNode>> started = new ArrayList<>();
                for (int i = 0; i < 6; i++) {
                    int id = i;
                    started.add(pool.submit(() -> rings.start(id, tmp.resolve("n" + id), seeds.toString())));
                }
                for (Future<GodNode> f : started) {
                    f.get();
                }
            } finally {
                pool.shutdownNow();
            }
            await().atMost(CONVERGE).until(() -> rings.converged() && rings.nodes.get(0).membership().ring().size() == 6);
            Set<String> positions = new HashSet<>();
            rings.nodes.forEach(n -> positions.add(n.membership().self().hex()));
            assertThat(positions).as("distinct positions").hasSize(6);
        }
    }

    @Test
    void aRestartedNodeComesBackAtItsOldPosition() throws Exception {
        try (Rings rings = new Rings()) {
            String seeds = rings.address(0) + "," + rings.address(1);
            for (int i = 0; i < 3; i++) {
                rings.start(i, tmp.resolve("r" + i), seeds);
            }
            await().atMost(CONVERGE).until(() -> rings.converged() && rings.nodes.get(0).membership().ring().size() == 3);
            String before = rings.nodes.get(2).membership().self().hex();
            call(rings.rpcs.get(0), "Put", "{\"Key\":\"" + b64("k") + "\",\"Value\":\"" + b64("v") + "\",\"Sync\":true}");
            rings.nodes.get(2).close();
            await().atMost(CONVERGE).until(() -> rings.converged() && rings.nodes.get(0).membership().ring().size() == 2);
            rings.start(2, tmp.resolve("r2"), seeds);
            await().atMost(CONVERGE).until(() -> rings.converged() && rings.nodes.get(0).membership().ring().size() == 3);
            assertThat(rings.nodes.get(2).membership().self().hex()).isEqualTo(before);
            assertThat(rings.nodes.get(0).membership().ring().byAddress(rings.address(2)).hex()).isEqualTo(before);
            assertThat(call(rings.rpcs.get(2), "Get", "{\"Key\":\"" + b64("k") + "\"}")).contains("\"Exists\":true");
        }
    }

    @Test
    void aNodeJoinsOnlyAfterItsFrontEndsAreInstalled() throws Exception {
        try (Rings rings = new Rings()) {
            GodNode seed = rings.start(0, null, rings.address(0));
            await().atMost(CONVERGE).until(rings::converged);
            java.util.concurrent.atomic.AtomicBoolean seenEarly = new java.util.concurrent.atomic.AtomicBoolean();
            // slow front ends (a cold JVM builds its handlers for a while): the ring must not route to the node yet;
            // before the fix it joined on its first tick and answered "not serving calls yet" meanwhile
            GodNode joining = rings.start(1, null, rings.address(0), n -> {
                long until = System.nanoTime() + TimeScale.seconds(1).toNanos();
                while (System.nanoTime() < until && !seenEarly.get()) {
                    seenEarly.set(seed.membership().ring().byAddress(rings.address(1)) != null);
                    try {
                        Thread.sleep(10);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
            });
            assertThat(seenEarly).as("the seed saw the node before its front ends existed").isFalse();
            await().atMost(CONVERGE).until(() -> rings.converged() && seed.membership().ring().size() == 2);
            call(rings.rpc(0), "Put", "{\"Key\":\"" + b64("j") + "\",\"Value\":\"" + b64("v") + "\",\"Sync\":true}");
            assertThat(call(rings.rpc(1), "Get", "{\"Key\":\"" + b64("j") + "\"}")).contains("\"Exists\":true");
            assertThat(joining.state()).isEqualTo(GodNode.State.ACTIVE);
        }
    }

    @Test
    void onlyTheFirstSeedFoundsARing() throws Exception {
        try (Rings rings = new Rings()) {
            String seeds = rings.address(0) + "," + rings.address(1);
            GodNode second = rings.start(1, null, seeds);
            Thread.sleep(200);
            assertThat(second.state()).as("no member reachable: keeps trying").isEqualTo(GodNode.State.JOINING);
            var joining = rings.rpcs.get(1).handle("DHash.Get", "{}".getBytes(StandardCharsets.UTF_8), null);
            assertThat(joining.status()).isEqualTo(503);
            assertThat(joining.text()).contains("joining");
            rings.start(0, null, seeds);
            await().atMost(CONVERGE).until(() -> rings.converged() && second.membership().ring().size() == 2);
        }
    }

    @Test
    void readsFailOverWhenTheOwnerStopsAnswering() throws Exception {
        try (Rings rings = new Rings()) {
            for (int i = 0; i < 4; i++) {
                rings.start(i, null, rings.address(0));
            }
            await().atMost(CONVERGE).until(() -> rings.converged() && rings.nodes.get(0).membership().ring().size() == 4);
            List<String> keys = new ArrayList<>();
            for (int k = 0; k < 200; k++) {
                keys.add("f" + k);
                call(rings.rpcs.get(0), "Put", "{\"Key\":\"" + b64("f" + k) + "\",\"Value\":\"" + b64("v") + "\",\"Sync\":true}");
            }
            GodNode victim = rings.nodes.get(3);
            victim.close();
            // immediately, before the ring noticed: each read answers (failover), within a bound
            for (String k : keys) {
                long start = System.nanoTime();
                assertThat(call(rings.rpcs.get(k.hashCode() % 2 == 0 ? 1 : 2), "Get", "{\"Key\":\"" + b64(k) + "\"}"))
                        .contains("\"Exists\":true");
                assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(TimeScale.seconds(2));
            }
        }
    }

    @Test
    void aSyncWriteIsNeverReportedWithFewerCopiesAndEventsAreEmitted() throws Exception {
        ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();
        ExecutorService workers = Executors.newCachedThreadPool();
        InMemoryNetwork net = new InMemoryNetwork(Scheduler.of(timers), workers, 11);
        try (Rings rings = new Rings()) {
            rings.transports = (settings, handlers) -> net.transport(settings.advertise());
            rings.extra.put("god.ring.failures", "1000"); // keep the unreachable replica in the view
            rings.extra.put("god.sync.acks", "all"); // every replica of the key (DESIGN §5)
            rings.extra.put("god.rpc.timeout", TimeScale.setting("1s"));
            List<io.god.events.Event> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
            GodNode first = rings.start(0, null, rings.address(0));
            first.events().subscribe(seen::add);
            for (int i = 1; i < 3; i++) {
                rings.start(i, null, rings.address(0)).events().subscribe(seen::add);
            }
            await().atMost(CONVERGE).until(() -> rings.converged() && rings.nodes.get(0).membership().ring().size() == 3);
            call(rings.rpcs.get(0), "Put", "{\"Key\":\"" + b64("e") + "\",\"Value\":\"" + b64("v") + "\",\"Sync\":true}");
            assertThat(seen).anySatisfy(e -> assertThat(e).isInstanceOf(io.god.events.Event.RingChange.class));
            assertThat(seen).anySatisfy(e -> assertThat(e).isInstanceOfSatisfying(io.god.events.Event.Comm.class,
                    c -> assertThat(c.operation()).isEqualTo("DHash.SlavePut")));
            assertThat(seen).anySatisfy(e -> assertThat(e).isInstanceOfSatisfying(io.god.events.Event.Comm.class,
                    c -> assertThat(c.operation()).isEqualTo("Discord.Ping")));

            net.partition(List.of(rings.address(2)), List.of(rings.address(0), rings.address(1)));
            // N = 3 on 3 nodes: every key's replica set includes the cut-off node
            var r = rings.rpcs.get(0).handle("DHash.Put", ("{\"Key\":\"" + b64("s") + "\",\"Value\":\"" + b64("v")
                    + "\",\"Sync\":true}").getBytes(StandardCharsets.UTF_8), null);
            assertThat(r.status()).as(r.text()).isEqualTo(503);
            assertThat(r.text()).contains("confirmed by 2 of 3 replicas, 3 needed");
            // an async write is acknowledged once the executing node (here the owner) applied it
            // a key equal to the predecessor's position belongs to node 0
            var view = rings.nodes.get(0).membership().ring();
            String own = Base64.getEncoder().encodeToString(view.predecessorOf(view.byAddress(rings.address(0))).position());
            long start = System.nanoTime();
            call(rings.rpcs.get(0), "Put", "{\"Key\":\"" + own + "\",\"Value\":\"" + b64("v") + "\"}");
            // acknowledged without waiting for the cut-off replica (that would take god.rpc.timeout)
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(TimeScale.seconds(1));
            net.heal();
            call(rings.rpcs.get(1), "Put", "{\"Key\":\"" + b64("s") + "\",\"Value\":\"" + b64("v") + "\",\"Sync\":true}");
            for (GodNode n : rings.nodes) {
                assertThat(n.store().state().get("s".getBytes(StandardCharsets.UTF_8)).exists()).isTrue();
            }
        } finally {
            timers.shutdownNow();
            workers.shutdownNow();
        }
    }

    /**
     * With god.sync.acks=quorum a Sync write returns once W replicas confirmed: a replica that stopped answering but is
     * still in the view costs no call deadline. It did (the writer waited for every call), so a write forwarded to
     * its executing replica outlived the forwarder's own deadline and failed although two of three copies were made.
     */
    @Test
    void aQuorumSyncWriteDoesNotWaitForAReplicaThatStoppedAnswering() throws Exception {
        try (TestNetwork network = new TestNetwork(12); Rings rings = new Rings()) {
            byte[] key = thirdCutOff(network, rings);
            ExecutorService writer = Executors.newSingleThreadExecutor();
            try {
                Future<String> put = writer.submit(() -> syncPut(rings, key));
                await("confirmed by two replicas, long before the third one's 60 s deadline")
                        .atMost(TimeScale.seconds(20)).until(put::isDone);
                assertThat(put.get()).isEqualTo("{}");
            } finally {
                writer.shutdownNow();
            }
            for (int i = 0; i < 2; i++) {
                assertThat(rings.nodes.get(i).store().state().get(key).exists()).isTrue();
            }
            assertThat(rings.nodes.get(0).membership().ring().byAddress(rings.address(2))).isNotNull();
        }
    }

    /**
     * The copies for a replica that stopped answering wait in its lane; past {@code god.replication.queue} of them a
     * copy is refused at once, the Sync write still confirmed by the two others, and the refusal is counted
     * ({@code god_replication_refused_total}).
     */
    @Test
    void copiesBeyondTheQueueForAReplicaThatStoppedAnsweringAreRefusedAndCounted() throws Exception {
        try (TestNetwork network = new TestNetwork(12); Rings rings = new Rings()) {
            rings.extra.put("god.replication.queue", "2");
            byte[] key = thirdCutOff(network, rings);
            PrometheusMeterRegistry metrics = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
            NodeMeters.bind(rings.nodes.get(0), metrics, OptionalInt.empty());
            assertThat(NodeMetersRingTest.value(metrics, "god_replication_refused_total")).isZero();
            // the first copy for node 2 is in flight (held until its 60 s deadline), the next two wait in its lane
            for (int i = 0; i < 5; i++) {
                assertThat(syncPut(rings, key)).isEqualTo("{}");
            }
            assertThat(NodeMetersRingTest.value(metrics, "god_replication_refused_total")).isEqualTo(2);
            assertThat(rings.nodes.get(1).store().state().get(key).exists()).isTrue();
        }
    }

    /**
     * Three in-memory nodes, N = 3 and W = 2 (every key's replica set is all three), node 2 cut off from the others
     * but kept in their view (calls to it go unanswered until their 60 s deadline); returns a key node 0 executes
     * (equal to its predecessor's position: not forwarded to the cut-off node).
     */
    private static byte[] thirdCutOff(TestNetwork network, Rings rings) throws Exception {
        rings.transports = (settings, handlers) -> network.net.transport(settings.advertise());
        rings.extra.put("god.ring.failures", "1000"); // keep the unreachable replica in the view
        rings.extra.put("god.ring.interval", "100ms");
        rings.extra.put("god.sync.acks", "quorum");
        rings.extra.put("god.rpc.timeout", TimeScale.setting("60s"));
        for (int i = 0; i < 3; i++) {
            rings.start(i, null, rings.address(0));
        }
        await().atMost(CONVERGE).until(() -> rings.converged() && rings.nodes.get(0).membership().ring().size() == 3);
        network.net.partition(List.of(rings.address(2)), List.of(rings.address(0), rings.address(1)));
        var view = rings.nodes.get(0).membership().ring();
        return view.predecessorOf(view.byAddress(rings.address(0))).position();
    }

    private static String syncPut(Rings rings, byte[] key) {
        return call(rings.rpcs.get(0), "Put", "{\"Key\":\"" + Base64.getEncoder().encodeToString(key) + "\",\"Value\":\""
                + b64("v") + "\",\"Sync\":true}");
    }

    @Test
    void partitionsOfTheInMemoryNetworkHeal() throws Exception {
        ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();
        ExecutorService workers = Executors.newCachedThreadPool();
        InMemoryNetwork net = new InMemoryNetwork(Scheduler.of(timers), workers, 7);
        try (Rings rings = new Rings()) {
            rings.transports = (settings, handlers) -> net.transport(settings.advertise());
            for (int i = 0; i < 4; i++) {
                rings.start(i, null, rings.address(0));
            }
            await().atMost(CONVERGE).until(() -> rings.converged() && rings.nodes.get(0).membership().ring().size() == 4);
            List<String> left = List.of(rings.address(0), rings.address(1));
            List<String> right = List.of(rings.address(2), rings.address(3));
            net.partition(left, right);
            await().atMost(CONVERGE).until(() -> rings.nodes.get(0).membership().ring().size() == 2
                    && rings.nodes.get(3).membership().ring().size() == 2
                    && rings.nodes.get(1).membership().ring().size() == 2
                    && rings.nodes.get(2).membership().ring().size() == 2);
            net.heal();
            await().atMost(CONVERGE).until(() -> rings.converged() && rings.nodes.get(0).membership().ring().size() == 4);
            net.delay(Duration.ofMillis(2));
            net.loss(0.05);
            call(rings.rpcs.get(1), "Put", "{\"Key\":\"" + b64("x") + "\",\"Value\":\"" + b64("y") + "\"}");
            await().atMost(CONVERGE).untilAsserted(() -> assertThat(
                    call(rings.rpcs.get(2), "Get", "{\"Key\":\"" + b64("x") + "\"}")).contains("\"Exists\":true"));
        } finally {
            timers.shutdownNow();
            workers.shutdownNow();
        }
    }

    /**
     * A forwarded write carries the entry node's stamp: in time, the owner stamps it afresh (every
     * replica stores the owner's stamp); a late duplicate (the original reaching the owner after the
     * forwarding timeout, when its fail-over copy was acknowledged and the key deleted) keeps the old
     * stamp and loses to the delete. Without the stamp the owner re-stamps it and the value comes back.
     */
    @Test
    void aForwardedWriteKeepsTheFirstNodesStampSoALateDuplicateCannotUndoADelete() throws Exception {
        try (Rings rings = new Rings()) {
            rings.extra.put("god.redundancy", "2");
            String seed = rings.address(0);
            for (int i = 0; i < 4; i++) {
                rings.start(i, null, seed);
            }
            await().atMost(CONVERGE).until(() -> rings.converged() && rings.nodes.get(0).membership().ring().size() == 4);
            byte[] key = "stamped".getBytes(StandardCharsets.UTF_8);
            List<Member> replicas = rings.nodes.get(0).membership().ring().replicas(key, 2);
            List<String> replicaAddresses = replicas.stream().map(Member::address).toList();
            int via = 0;
            while (replicaAddresses.contains(rings.address(via))) {
                via++;
            }
            int owner = rings.nodes.indexOf(rings.nodes.stream()
                    .filter(n -> n.address().equals(replicas.get(0).address())).findFirst().orElseThrow());
            String put = "{\"Key\":\"" + b64("stamped") + "\",\"Value\":\"" + b64("old") + "\",\"Sync\":true}";
            call(rings.rpcs.get(via), "Put", put);
            long stamp = rings.nodes.get(owner).store().state().entry(key).timestamp();
            for (Member m : replicas) {
                GodNode n = rings.nodes.stream().filter(x -> x.address().equals(m.address())).findFirst().orElseThrow();
                assertThat(n.store().state().entry(key).timestamp()).isEqualTo(stamp);
            }

            call(rings.rpcs.get(via), "Del", "{\"Key\":\"" + b64("stamped") + "\",\"Sync\":true}");
            // the late original (past god.rpc.timeout), as the owner decodes it from the wire: it keeps the
            // first node's stamp, so LWW drops it
            GodNode ownerNode = rings.nodes.get(owner);
            long pastRpcTimeout = TimeScale.millis(500).plusMillis(100).toNanos();
            await().atMost(CONVERGE).until(() -> ownerNode.timeNet().continuous() - stamp > pastRpcTimeout);
            io.god.wire.Call late = io.god.wire.Call.decode(new io.god.wire.Call("DHash.Put",
                    put.getBytes(StandardCharsets.UTF_8), null, 1, io.god.wire.Call.EXECUTE, stamp).encode());
            var r = rings.rpcs.get(owner).handle(late.method(), late.body(), null, late.hops(), late.mode(), late.stamp());
            assertThat(r.status()).isEqualTo(200);
            assertThat(call(rings.rpcs.get(via), "Get", "{\"Key\":\"" + b64("stamped") + "\"}")).contains("\"Exists\":false");
            assertThat(rings.nodes.get(owner).timestamps().last()).isGreaterThan(stamp);

            // the same call without a stamp (as before the fix) is a new, newer write: the value is back
            rings.rpcs.get(owner).handle(late.method(), late.body(), null, late.hops(), late.mode());
            assertThat(call(rings.rpcs.get(via), "Get", "{\"Key\":\"" + b64("stamped") + "\"}")).contains("\"Exists\":true");
        }
    }
}

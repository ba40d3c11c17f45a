package io.god.cluster;

import static io.god.cluster.Rings.b64;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.god.api.JsonRpc;
import io.god.node.GodNode;
import io.god.testing.ScaledTimeout;
import io.god.testing.TimeScale;
import io.god.time.Scheduler;
import io.god.transport.InMemoryNetwork;
import io.god.transport.Transport;
import io.god.transport.WrappedTransport;
import io.god.wire.Ops;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Coalesced replication (issue 29) in a 3-node ring over an in-memory network with a one-way delay: many concurrent
 * Sync writes through the JSON contract need fewer REPLICATE calls than records, each acknowledged write has all
 * its copies (god.sync.acks=all), and when a replica refuses the calls every Sync writer whose records they carried
 * fails with the message a call of its own fails with.
 */
@ScaledTimeout(180)
class ReplicationBatchingTest {

    static final Duration WAIT = TimeScale.seconds(30);
    static final int WRITERS = 24;
    static final int WRITES = 96;

    private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();
    private final ExecutorService workers = Executors.newCachedThreadPool();
    private final ExecutorService clients = Executors.newFixedThreadPool(WRITERS);
    /** While set, the third node refuses every REPLICATE call. */
    private final AtomicBoolean refuse = new AtomicBoolean();
    /** Records per REPLICATE call the third node received. */
    private final List<Integer> received = new java.util.concurrent.CopyOnWriteArrayList<>();
    /** Records per REPLICATE call any node received. */
    private final List<Integer> receivedByAny = new java.util.concurrent.CopyOnWriteArrayList<>();

    @AfterEach
    void stop() {
        clients.shutdownNow();
        timers.shutdownNow();
        workers.shutdownNow();
    }

    private Rings ring() throws Exception {
        InMemoryNetwork net = new InMemoryNetwork(Scheduler.of(timers), workers, 29);
        Rings rings = new Rings();
        rings.extra.put("god.sync.acks", "all");
        rings.extra.put("god.rpc.timeout", TimeScale.setting("5s"));
        String third = rings.address(2);
        rings.transports = (settings, handlers) -> new Refusing(net.transport(settings.advertise()),
                settings.advertise().equals(third));
        String seeds = rings.address(0) + "," + rings.address(1);
        for (int i = 0; i < 3; i++) {
            rings.start(i, null, seeds);
        }
        // every node expects all three (acks=all: W = min(N, E) = 3 only once E is known everywhere)
        await().atMost(WAIT).until(() -> rings.converged() && rings.nodes.stream()
                .allMatch(n -> n.membership().ring().size() == 3 && n.cluster().expected().size() == 3));
        net.delay(Duration.ofMillis(5)); // a call in flight for 10 ms: concurrent writers' copies meet behind it
        return rings;
    }

    /** A node's transport: counts the records of each REPLICATE call; the third node's refuses them while told to. */
    private final class Refusing extends WrappedTransport {
        private final boolean third;

        Refusing(Transport inner, boolean third) {
            super(inner);
            this.third = third;
        }

        @Override
        public void serve(Handler handler) {
            inner.serve((op, payload) -> {
                if (op != Ops.REPLICATE) {
                    return handler.handle(op, payload);
                }
                int records = Cluster.decode(payload).size();
                receivedByAny.add(records);
                if (!third) {
                    return handler.handle(op, payload);
                }
                received.add(records);
                return refuse.get() ? CompletableFuture.failedFuture(new IllegalStateException("refused by the test"))
                        : handler.handle(op, payload);
            });
        }
    }

    /**
     * Write k's key: its first byte runs over the whole range, so the keys spread over the ring and every node
     * executes some writes and replicates others (short keys like "k17" all fall in one node's range).
     */
    private static byte[] key(String prefix, int k) {
        return new byte[] {(byte) (k * 256 / WRITES), (byte) prefix.charAt(0), (byte) k};
    }

    private List<JsonRpc.Response> concurrentSyncPuts(Rings rings, String prefix) throws Exception {
        List<Future<JsonRpc.Response>> calls = new ArrayList<>();
        for (int k = 0; k < WRITES; k++) {
            int node = k % 3;
            String body = "{\"Key\":\"" + java.util.Base64.getEncoder().encodeToString(key(prefix, k)) + "\",\"Value\":\"" + b64("v" + k) + "\",\"Sync\":true}";
            calls.add(clients.submit(() -> Rings.handle(rings.rpc(node), "Put", body)));
        }
        List<JsonRpc.Response> out = new ArrayList<>();
        for (Future<JsonRpc.Response> c : calls) {
            out.add(c.get());
        }
        return out;
    }

    private static long sum(Rings rings, java.util.function.ToLongFunction<Cluster> f) {
        return rings.nodes.stream().map(GodNode::cluster).mapToLong(f).sum();
    }

    @Test
    void concurrentSyncWritesShareReplicationCallsAndEachHasItsCopies() throws Exception {
        try (Rings rings = ring()) {
            long calls0 = sum(rings, Cluster::replicationCalls);
            long records0 = sum(rings, Cluster::replicatedRecords);
            List<JsonRpc.Response> replies = concurrentSyncPuts(rings, "k");
            for (JsonRpc.Response r : replies) {
                assertThat(r.status()).as(r.text()).isEqualTo(200);
            }
            long calls = sum(rings, Cluster::replicationCalls) - calls0;
            long records = sum(rings, Cluster::replicatedRecords) - records0;
            assertThat(records).as("two copies of each write").isGreaterThanOrEqualTo(2L * WRITES);
            assertThat(calls).as("REPLICATE calls for %d records", records).isLessThan(records);
            assertThat(receivedByAny).as("records per REPLICATE call").anyMatch(n -> n > 1);
            for (int k = 0; k < WRITES; k++) { // acks=all: an acknowledged write is on every replica
                byte[] key = key("k", k);
                for (GodNode n : rings.nodes) {
                    assertThat(n.store().state().get(key).value()).as("k%d on %s", k, n.address())
                            .isEqualTo(("v" + k).getBytes(StandardCharsets.UTF_8));
                }
            }
        }
    }

    @Test
    void aRefusedCallFailsEachSyncWriterInItWithTheReplicasReason() throws Exception {
        try (Rings rings = ring()) {
            received.clear();
            refuse.set(true);
            List<JsonRpc.Response> replies = concurrentSyncPuts(rings, "f");
            String third = rings.address(2);
            int failed = 0;
            for (JsonRpc.Response r : replies) {
                if (r.status() == 200) {
                    continue; // executed by the third node itself: the two others confirmed
                }
                failed++;
                assertThat(r.status()).as(r.text()).isEqualTo(503);
                assertThat(r.text()).isEqualTo("\"Sync write confirmed by 2 of 3 replicas, 3 needed (god.sync.acks=all; "
                        + third + ": refused by the test); it may be applied on some; retry\"");
            }
            int sentToThird = received.stream().mapToInt(Integer::intValue).sum();
            assertThat(failed).as("writes the third node did not execute").isPositive().isEqualTo(sentToThird);
            assertThat(received).as("records per refused call").anyMatch(n -> n > 1);
        }
    }
}

package io.god.client;

import static io.god.client.GodClient.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.god.cluster.Rings;
import io.god.node.GodNode;
import io.god.testing.ScaledTimeout;
import io.god.testing.TimeScale;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Java client across ring changes (issue 24): a rolling restart under quorum Sync writes, and a
 * cached view that shrank to one member which then dies (the configured endpoints are the fallback).
 * Real TCP nodes in one JVM.
 */
@ScaledTimeout(180)
class GodClientRingChangesTest {

    static final Duration WAIT = TimeScale.seconds(30);

    @TempDir
    Path tmp;

    private static String seeds(Rings rings) {
        return rings.address(0) + "," + rings.address(1) + "," + rings.address(2);
    }

    @Test
    void aRollingRestartOfThreeMembersFailsNoQuorumSyncWrite() throws Exception {
        try (Rings rings = new Rings()) {
            rings.extra.put("god.rpc.timeout", TimeScale.setting("300ms"));
            rings.extra.put("god.sync.interval", "50ms");
            for (int i = 0; i < 3; i++) {
                rings.start(i, tmp.resolve("n" + i), seeds(rings));
            }
            await().atMost(WAIT).until(() -> rings.converged() && rings.nodes.get(0).membership().ring().size() == 3);
            try (GodClient client = GodClient.builder().endpoints(rings.address(0), rings.address(1), rings.address(2))
                    .attemptTimeout(TimeScale.seconds(2)).deadline(TimeScale.seconds(20)).build()) {
                AtomicBoolean stop = new AtomicBoolean();
                AtomicLong writes = new AtomicLong();
                ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
                ExecutorService pool = Executors.newFixedThreadPool(2);
                List<Future<?>> writers = new ArrayList<>();
                for (int t = 0; t < 2; t++) {
                    int id = t;
                    writers.add(pool.submit(() -> {
                        int i = 0;
                        while (!stop.get()) {
                            try {
                                client.put(utf8("roll" + id + "-" + (i % 200)), utf8("v" + i), true);
                                writes.incrementAndGet();
                            } catch (RuntimeException e) {
                                failures.add(e.toString());
                            }
                            i++;
                        }
                    }));
                }
                try {
                    for (int i = 0; i < 3; i++) {
                        long before = writes.get();
                        await().atMost(WAIT).until(() -> writes.get() >= before + 20);
                        rings.nodes.get(i).close();
                        int down = i;
                        await().atMost(WAIT).until(() -> rings.nodes.get((down + 1) % 3).membership().ring().size() == 2);
                        rings.start(i, tmp.resolve("n" + i), seeds(rings)); // same position, same address
                        // the roll waits for the member to catch up (ACTIVE) before the next
                        await().atMost(WAIT).until(() -> rings.converged()
                                && rings.nodes.get(0).membership().ring().size() == 3);
                    }
                    long after = writes.get();
                    await().atMost(WAIT).until(() -> writes.get() >= after + 20);
                } finally {
                    stop.set(true);
                }
                for (Future<?> f : writers) {
                    f.get();
                }
                pool.shutdown();
                System.out.printf("rolling restart: %d quorum Sync writes, %d failed%n", writes.get(), failures.size());
                assertThat(failures).as("failed client calls").isEmpty();
            }
        }
    }

    @Test
    void aViewShrunkToOneMemberThatDiesFallsBackToTheConfiguredEndpoints() throws Exception {
        try (Rings rings = new Rings()) {
            rings.extra.put("god.rpc.timeout", TimeScale.setting("300ms"));
            GodNode first = rings.start(0, null, rings.address(0));
            await().atMost(WAIT).until(rings::converged);
            // the client's endpoints (the "Service"): every node; only the first is up, so its view is one member
            try (GodClient client = GodClient.builder().endpoints(rings.address(0), rings.address(1), rings.address(2))
                    .attemptTimeout(TimeScale.millis(500)).deadline(TimeScale.seconds(10))
                    .ringRefresh(Duration.ofHours(1)).build()) {
                assertThat(client.ring()).hasSize(1);
                rings.start(1, null, rings.address(0));
                rings.start(2, null, rings.address(0));
                await().atMost(WAIT).until(() -> rings.converged() && first.membership().ring().size() == 3);
                client.put(utf8("before"), utf8("v"), true);
                first.close(); // the one member of the client's view dies
                await().atMost(WAIT).until(() -> rings.nodes.get(1).membership().ring().size() == 2);
                client.put(utf8("after"), utf8("w"), true);
                assertThat(client.get(utf8("after")).value()).isEqualTo(utf8("w"));
                assertThat(client.get(utf8("before")).exists()).isTrue();
                await().atMost(WAIT).untilAsserted(() -> assertThat(client.ring()).extracting(GodClient.Member::address)
                        .containsExactlyInAnyOrder(rings.address(1), rings.address(2))); // refreshed from the fallback
            }
        }
    }
    @Test
    void aClientWithAnOlderViewReadsWhatTheKeysNewOwnerAcknowledged() throws Exception {
        try (Rings rings = new Rings()) {
            rings.extra.put("god.redundancy", "1"); // one copy: the older view's owner holds nothing of the key
            rings.start(0, null, rings.address(0));
            rings.start(1, null, rings.address(0));
            await().atMost(WAIT).until(() -> rings.converged() && rings.nodes.get(0).membership().ring().size() == 2);
            try (GodClient older = GodClient.builder().endpoints(rings.address(0)).redundancy(1)
                    .attemptTimeout(TimeScale.seconds(2)).deadline(TimeScale.seconds(10))
                    .ringRefresh(Duration.ofHours(1)).build()) {
                assertThat(older.ring()).hasSize(2);
                rings.start(2, null, rings.address(0));
                await().atMost(WAIT).until(() -> rings.converged() && rings.nodes.stream()
                        .allMatch(n -> n.membership().ring().size() == 3));
                try (GodClient current = GodClient.builder().endpoints(rings.address(0)).redundancy(1)
                        .attemptTimeout(TimeScale.seconds(2)).deadline(TimeScale.seconds(10)).build()) {
                    // a key the new member owns (keys spread over the key space): another member owns it in the older view
                    byte[] key = null;
                    for (int i = 0; key == null && i < 10_000; i++) {
                        byte[] k = GodClient.hashed(utf8("moved-" + i));
                        if (current.replicas(k).get(0).address().equals(rings.address(2))) {
                            key = k;
                        }
                    }
                    assertThat(key).as("a key owned by the new member").isNotNull();
                    current.put(key, utf8("acknowledged"), true);
                    String oldOwner = older.replicas(key).get(0).address();
                    assertThat(oldOwner).isNotEqualTo(rings.address(2));
                    assertThat(older.ring()).as("the older view is kept").hasSize(2);
                    GodClient.Value v = older.get(key);
                    assertThat(v.exists()).as("read via %s (older view)", oldOwner).isTrue();
                    assertThat(v.value()).isEqualTo(utf8("acknowledged"));
                }
            }
        }
    }
}

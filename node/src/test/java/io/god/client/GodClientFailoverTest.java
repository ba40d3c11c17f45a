package io.god.client;

import static io.god.client.GodClient.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.god.testing.ScaledTimeout;
import io.god.testing.TimeScale;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Killing the owner of the keys being read mid-stream: zero failed reads, bounded latency. */
@ScaledTimeout(60)
class GodClientFailoverTest {

    /** The latency bound a read may take across the owner's death (attempt timeout 300 ms + backoff + refresh). */
    static final Duration BOUND = TimeScale.millis(1500);

    @Test
    void killingTheOwnerMidStreamLosesNoRead() throws Exception {
        try (ClientRings rings = new ClientRings().start(4);
             GodClient client = GodClient.builder().endpoints(rings.address(0), rings.address(1))
                     .attemptTimeout(TimeScale.millis(300)).deadline(TimeScale.seconds(5)).build()) {
            byte[] tree = utf8("failover-tree");
            String victim = client.replicas(tree).get(0).address();
            // keys owned by the victim, and a sub tree it owns, written with Sync=true (on every replica); the keys
            // are hashed over the whole ring: a common prefix could all lie outside the victim's range
            List<byte[]> keys = new ArrayList<>();
            for (int i = 0; keys.size() < 40 && i < 100_000; i++) {
                byte[] k = GodClient.hashed("fk" + i);
                if (client.replicas(k).get(0).address().equals(victim)) {
                    keys.add(k);
                    client.put(k, utf8("v" + i), true);
                }
            }
            assertThat(keys).as("keys the victim owns").hasSize(40);
            for (int i = 0; i < 20; i++) {
                client.subPut(tree, utf8(String.format("s%02d", i)), utf8("x"), true);
            }
            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong reads = new AtomicLong();
            AtomicLong maxNanos = new AtomicLong();
            ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
            ExecutorService pool = Executors.newFixedThreadPool(5);
            List<Future<?>> readers = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int id = t;
                readers.add(pool.submit(() -> {
                    int i = 0;
                    while (!stop.get()) {
                        long t0 = System.nanoTime();
                        try {
                            if (id % 2 == 0) {
                                byte[] k = keys.get(i++ % keys.size());
                                GodClient.Value v = client.get(k);
                                if (!v.exists()) {
                                    failures.add("absent " + HexFormat.of().formatHex(k));
                                }
                            } else {
                                int n = client.sliceLen(tree, null, true, 5).size();
                                long size = client.subSize(tree);
                                if (n != 5 || size != 20) {
                                    failures.add("slice " + n + " size " + size);
                                }
                            }
                        } catch (RuntimeException e) {
                            failures.add(e.toString());
                        }
                        maxNanos.accumulateAndGet(System.nanoTime() - t0, Math::max);
                        reads.incrementAndGet();
                    }
                }));
            }
            // and a writer: Sync=true puts to the victim's keys throughout (a 503 while the dead replica is
            // still in the ring is retried with backoff until the ring drops it)
            AtomicLong writes = new AtomicLong();
            readers.add(pool.submit(() -> {
                int i = 0;
                while (!stop.get()) {
                    byte[] k = keys.get(i++ % keys.size());
                    try {
                        client.put(k, utf8("w" + i), true);
                        writes.incrementAndGet();
                    } catch (RuntimeException e) {
                        failures.add("write: " + e);
                    }
                }
            }));
            // events, not wall-clock windows: the readers and the writer are under way before the kill, and the run
            // covers the ring dropping the victim plus some traffic after that
            long before;
            long writesBefore;
            try {
                await().atMost(TimeScale.seconds(10)).until(() -> reads.get() >= 20 && writes.get() >= 5);
                before = reads.get();
                writesBefore = writes.get();
                rings.byAddress(victim).close();
                await().atMost(TimeScale.seconds(20)).until(rings::converged);
                long dropped = reads.get();
                await().atMost(TimeScale.seconds(10)).until(() -> reads.get() - before > 20
                        && reads.get() - dropped >= 8 && writes.get() - writesBefore > 10);
            } finally {
                stop.set(true);
            }
            for (Future<?> f : readers) {
                f.get();
            }
            pool.shutdown();
            System.out.printf("failover: %d reads (%d after the kill), max read latency %d ms, %d Sync writes%n",
                    reads.get(), reads.get() - before, maxNanos.get() / 1_000_000, writes.get());
            assertThat(failures).as("failed reads").isEmpty();
            assertThat(reads.get() - before).isGreaterThan(20);
            assertThat(writes.get() - writesBefore).isGreaterThan(10);
            assertThat(Duration.ofNanos(maxNanos.get())).isLessThan(BOUND);
        }
    }
}

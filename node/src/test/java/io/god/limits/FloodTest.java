package io.god.limits;

import static org.assertj.core.api.Assertions.assertThat;

import io.god.client.GodClient;
import io.god.persist.Record;
import io.god.supervise.Heartbeat;
import io.god.testing.ScaledTimeout;
import io.god.testing.TimeScale;
import io.god.time.NanoClock;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 22's flood: many clients send the largest set expression the default limits allow
 * ({@code god.limits.set-sources} sources whose union has exactly {@code god.limits.result-rows} rows)
 * through the god JSON contract's HTTP route, while other threads read single keys through the Java
 * client (binary protocol) and over HTTP. The bulkhead must keep the node serving: every Get answers
 * within the client's deadline, each expensive call gets its whole answer or a 503 with Retry-After,
 * the live heap stays bounded and every supervised loop keeps ticking.
 */
@ScaledTimeout(150)
class FloodTest {

    private static final Limits DEFAULTS = Limits.defaultLimits();
    /** One tree per source, each with its share of the rows: the union has exactly the row limit. */
    private static final int TREES = DEFAULTS.setSources();
    private static final int ROWS_PER_TREE = DEFAULTS.resultRows() / TREES;
    private static final int VALUE_BYTES = 32;
    /** More than the bulkhead admits (running + queued), so some are refused while it is full. */
    private static final int FLOODERS = DEFAULTS.expensiveRunning() + DEFAULTS.expensiveQueue() + 4;
    /** How long the flood lasts: a load, not a deadline, so it is not scaled. */
    private static final Duration FLOOD = Duration.ofSeconds(6);
    /** The Java client's default deadline, stretched by the suite's time scale. */
    private static final Duration GET_DEADLINE = TimeScale.of(Duration.ofSeconds(5));
    /**
     * Live heap (after a full GC) the flood may add to what the loaded node holds before it. Without
     * the limits one such expression per source repetition reached gigabytes (issue 22: 4 requests of
     * 8 MB, 6.25 GB RSS); with them at most 2 run, each holding one result of the row limit.
     */
    private static final long HEAP_GROWTH_BOUND = 256L << 20;

    private static String tree(int i) {
        return String.format("t%04d", i);
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return s.getLocalPort();
        }
    }

    /** Live heap bytes: a full collection first, so only what is reachable counts. */
    private static long liveHeap(MemoryMXBean memory) {
        memory.gc();
        return memory.getHeapMemoryUsage().getUsed();
    }

    /** The rows of a SetExpression answer, counted as it streams in (100 000 rows are ~8 MB of JSON). */
    private static long countRows(InputStream in) throws IOException {
        byte[] pattern = "\"Key\"".getBytes(StandardCharsets.US_ASCII);
        byte[] buf = new byte[1 << 16];
        long rows = 0;
        int matched = 0;
        for (int n; (n = in.read(buf)) > 0; ) {
            for (int i = 0; i < n; i++) {
                byte b = buf[i];
                if (b == pattern[matched]) {
                    if (++matched == pattern.length) {
                        rows++;
                        matched = 0;
                    }
                } else {
                    matched = b == pattern[0] ? 1 : 0;
                }
            }
        }
        return rows;
    }

    @Test
    void aFloodOfTheLargestAllowedExpressionsLeavesGetsLoopsAndHeapAlone(@TempDir Path dir) throws Exception {
        int port = freePort();
        String address = "127.0.0.1:" + port;
        Map<String, String> settings = new HashMap<>(Map.of("god.node.port", String.valueOf(port),
                "god.node.advertise", address, "god.data-dir", dir.toString(), "god.persistence.fsync", "everysec",
                "god.gc.interval", "100ms", "god.ring.interval", "100ms", "god.sync.interval", "100ms"));
        try (LimitServer s = new LimitServer(settings, NanoClock.system())) {
            byte[] value = "v".repeat(VALUE_BYTES).getBytes(StandardCharsets.UTF_8);
            for (int t = 0; t < TREES; t++) {
                byte[] key = tree(t).getBytes(StandardCharsets.UTF_8);
                for (int r = 0; r < ROWS_PER_TREE; r++) {
                    s.node.store().apply(Record.subPut(key, (tree(t) + "-" + r).getBytes(StandardCharsets.UTF_8),
                            value, s.node.timestamps().next()));
                }
            }
            s.node.store().apply(Record.put("g".getBytes(StandardCharsets.UTF_8),
                    "point".getBytes(StandardCharsets.UTF_8), s.node.timestamps().next()));

            StringBuilder code = new StringBuilder("(U");
            for (int t = 0; t < TREES; t++) {
                code.append(' ').append(tree(t));
            }
            String largest = "{\"Code\":\"" + code + ")\"}";
            // the largest allowed: one source more is refused
            HttpResponse<String> oneMore = s.call("SetExpression", "{\"Code\":\"" + code + " " + tree(0) + ")\"}");
            assertThat(oneMore.statusCode()).as(oneMore.body()).isEqualTo(400);
            assertThat(oneMore.body()).contains(Limits.SET_SOURCES);

            MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
            long baseline = liveHeap(memory);
            HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            // the point reads have their own connections: the node closes a connection after refusing an
            // 8 MB body it did not read (503), and a pooled connection shared with the flood may be that one
            HttpClient getHttp = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            HttpRequest expensive = HttpRequest.newBuilder(s.uri("SetExpression"))
                    .timeout(TimeScale.of(Duration.ofSeconds(60))) // queued ≤ eval-time, then ≤ eval-time running
                    .POST(HttpRequest.BodyPublishers.ofString(largest)).build();
            HttpRequest httpGet = HttpRequest.newBuilder(s.uri("Get")).timeout(GET_DEADLINE)
                    .POST(HttpRequest.BodyPublishers.ofString("{\"Key\":\"" + LimitServer.b64("g") + "\"}")).build();

            AtomicBoolean flooding = new AtomicBoolean(true);
            AtomicInteger answered = new AtomicInteger();
            AtomicInteger busy = new AtomicInteger();
            AtomicInteger overTime = new AtomicInteger();
            AtomicInteger gets = new AtomicInteger();
            AtomicLong slowestGet = new AtomicLong();
            ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
            List<Future<?>> workers = new ArrayList<>();
            ExecutorService pool = Executors.newCachedThreadPool();
            CountDownLatch go = new CountDownLatch(1);
            try (GodClient client = GodClient.builder().endpoints(address).token(LimitServer.TOKEN).redundancy(1)
                    .deadline(GET_DEADLINE).attemptTimeout(TimeScale.of(Duration.ofSeconds(1))).build()) {
                assertThat(client.get("g".getBytes(StandardCharsets.UTF_8)).exists()).isTrue(); // ring known
                for (int i = 0; i < FLOODERS; i++) {
                    workers.add(pool.submit(() -> {
                        go.await();
                        while (flooding.get()) {
                            try {
                                HttpResponse<InputStream> r = http.send(expensive,
                                        HttpResponse.BodyHandlers.ofInputStream());
                                try (InputStream in = r.body()) {
                                    if (r.statusCode() == 200) {
                                        long rows = countRows(in);
                                        if (rows != DEFAULTS.resultRows()) {
                                            failures.add("SetExpression answered " + rows + " rows");
                                        }
                                        answered.incrementAndGet();
                                    } else if (r.statusCode() == 503
                                            && r.headers().firstValue("Retry-After").isPresent()) {
                                        in.readAllBytes();
                                        busy.incrementAndGet();
                                    } else if (r.statusCode() == 400 && new String(in.readAllBytes(),
                                            StandardCharsets.UTF_8).contains(Limits.EVAL_TIME)) {
                                        // on a starved machine the largest expression may outlast its time
                                        // budget: a bounded refusal naming the limit, as designed
                                        overTime.incrementAndGet();
                                    } else {
                                        failures.add("SetExpression " + r.statusCode() + " " + r.headers().map()
                                                + " " + new String(in.readAllBytes(), StandardCharsets.UTF_8));
                                    }
                                }
                            } catch (IOException e) {
                                failures.add("SetExpression: " + e);
                            }
                        }
                        return null;
                    }));
                }
                workers.add(pool.submit(() -> { // point reads through the Java client (binary data calls)
                    go.await();
                    while (flooding.get()) {
                        long start = System.nanoTime();
                        try {
                            GodClient.Value v = client.get("g".getBytes(StandardCharsets.UTF_8));
                            if (!v.exists() || !"point".equals(new String(v.value(), StandardCharsets.UTF_8))) {
                                failures.add("client Get answered " + v);
                            }
                        } catch (RuntimeException e) {
                            failures.add("client Get: " + e);
                        }
                        slowestGet.accumulateAndGet(System.nanoTime() - start, Math::max);
                        gets.incrementAndGet();
                    }
                    return null;
                }));
                workers.add(pool.submit(() -> { // point reads over HTTP
                    go.await();
                    while (flooding.get()) {
                        long start = System.nanoTime();
                        try {
                            HttpResponse<String> r = getHttp.send(httpGet, HttpResponse.BodyHandlers.ofString());
                            if (r.statusCode() != 200 || !r.body().contains(LimitServer.b64("point"))) {
                                failures.add("HTTP Get " + r.statusCode() + " " + r.body());
                            }
                        } catch (IOException e) {
                            failures.add("HTTP Get: " + e);
                        }
                        slowestGet.accumulateAndGet(System.nanoTime() - start, Math::max);
                        gets.incrementAndGet();
                    }
                    return null;
                }));

                Map<String, Long> beatsBefore = new HashMap<>();
                s.node.supervisor().loops().forEach(h -> beatsBefore.put(h.name(), h.beats()));
                go.countDown();
                long peak = 0;
                long end = System.nanoTime() + FLOOD.toNanos();
                while (System.nanoTime() < end) {
                    TimeUnit.MILLISECONDS.sleep(1500);
                    peak = Math.max(peak, liveHeap(memory));
                }
                Map<String, Long> beatsAfter = new HashMap<>();
                s.node.supervisor().loops().forEach(h -> beatsAfter.put(h.name(), h.beats()));
                flooding.set(false);
                for (Future<?> w : workers) {
                    w.get(TimeScale.of(Duration.ofSeconds(60)).toMillis(), TimeUnit.MILLISECONDS);
                }

                String figures = String.format("flood of %d s: %d whole answers, %d busy (503), %d over eval-time (400), %d Gets (slowest %d ms,"
                                + " deadline %d ms); live heap %d MiB before, peak %d MiB (bound: before + %d MiB)",
                        FLOOD.toSeconds(), answered.get(), busy.get(), overTime.get(), gets.get(),
                        TimeUnit.NANOSECONDS.toMillis(slowestGet.get()), GET_DEADLINE.toMillis(), baseline >> 20,
                        peak >> 20, HEAP_GROWTH_BOUND >> 20);
                System.out.println("FloodTest: " + figures + "; loop beats " + beatsBefore + " -> " + beatsAfter);
                assertThat(failures).as(figures).isEmpty();
                // admitted expressions ran: answered whole, or, on a starved machine (CI with load 14 once answered
                // none in 6 s), stopped by their time budget naming god.limits.eval-time — both bounded, as designed
                assertThat(answered.get() + overTime.get()).as(figures).isPositive();
                assertThat(busy.get()).as("the flood exceeds the bulkhead: " + figures).isPositive();
                assertThat(gets.get()).as(figures).isPositive();
                assertThat(slowestGet.get()).as(figures).isLessThanOrEqualTo(GET_DEADLINE.toNanos());
                assertThat(peak).as(figures).isLessThan(baseline + HEAP_GROWTH_BOUND);
                assertThat(beatsAfter.keySet()).as("supervised loops")
                        .containsExactlyInAnyOrder("wal-fsync", "tombstone-gc", "ring", "sync", "pause-watch");
                for (Heartbeat h : s.node.supervisor().loops()) {
                    assertThat(beatsAfter.get(h.name())).as(h.name() + " ticked during the flood")
                            .isGreaterThan(beatsBefore.get(h.name()));
                }
                assertThat(s.node.supervisor().dead()).isEmpty();
            } finally {
                flooding.set(false);
                pool.shutdownNow();
                pool.awaitTermination(30, TimeUnit.SECONDS);
            }
        }
    }
}

package io.god.bench;

import io.god.persist.DurableTree;
import io.god.persist.FsyncPolicy;
import io.god.persist.PersistenceOptions;
import io.god.persist.Record;
import io.god.time.NanoClock;
import io.god.tree.Tree;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * Persistence figures: write throughput per fsync policy (1 and 4 writer threads, 16-byte keys and
 * values, automatic snapshots at the default 64 MiB threshold), then snapshot write time and recovery
 * time for 1 M keys from a snapshot and from a log alone.
 *
 * <pre>java -cp bench/target/benchmarks.jar io.god.bench.PersistenceBench [dir] [seconds-per-case]</pre>
 */
public final class PersistenceBench {

    private PersistenceBench() {
    }

    public static void main(String[] args) throws Exception {
        Path base = args.length > 0 ? Path.of(args[0]) : Files.createTempDirectory("god-persist-bench");
        double seconds = args.length > 1 ? Double.parseDouble(args[1]) : 3;
        System.out.printf("data dir %s, %d cores, java %s%n", base, Runtime.getRuntime().availableProcessors(),
                System.getProperty("java.version"));
        // warm-up so the first policy is not measured with a cold JIT
        writes(base.resolve("warmup"), FsyncPolicy.NO, 1, 1.0);
        System.out.println("policy    threads   writes/s   mean latency");
        for (FsyncPolicy p : FsyncPolicy.values()) {
            for (int threads : new int[] {1, 4}) {
                writes(base.resolve(p + "-" + threads), p, threads, seconds);
            }
        }
        recovery(base.resolve("recovery"), 1_000_000);
        deleteAll(base);
    }

    private static Tree tree() {
        return new Tree(NanoClock.system(), Duration.ofHours(24));
    }

    private static byte[] key(long i) {
        return String.format("key-%012d", i).getBytes(StandardCharsets.UTF_8);
    }

    private static void writes(Path dir, FsyncPolicy policy, int threads, double seconds) throws Exception {
        PersistenceOptions o = PersistenceOptions.defaults().withFsync(policy);
        AtomicLong count = new AtomicLong();
        AtomicLong latencyNanos = new AtomicLong();
        try (DurableTree d = DurableTree.open(dir, tree(), o)) {
            long end = System.nanoTime() + (long) (seconds * 1e9);
            List<Thread> ts = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int id = t;
                Thread th = new Thread(() -> {
                    byte[] value = "0123456789abcdef".getBytes(StandardCharsets.UTF_8);
                    long i = 0;
                    long lat = 0;
                    long now;
                    while ((now = System.nanoTime()) < end) {
                        d.put(key(id * 1_000_000_000L + i), value, System.currentTimeMillis() * 1_000_000 + i);
                        lat += System.nanoTime() - now;
                        i++;
                    }
                    count.addAndGet(i);
                    latencyNanos.addAndGet(lat);
                });
                ts.add(th);
                th.start();
            }
            for (Thread th : ts) {
                th.join();
            }
        }
        if (!dir.getFileName().toString().equals("warmup")) {
            System.out.printf("%-9s %7d %10.0f %11.1f µs%n", policy.name().toLowerCase(), threads, count.get() / seconds,
                    latencyNanos.get() / 1e3 / Math.max(1, count.get()));
        }
        deleteAll(dir);
    }

    private static void recovery(Path dir, int keys) throws Exception {
        Path snapDir = dir.resolve("snapshot");
        Path logDir = dir.resolve("log");
        byte[] value = "0123456789abcdef".getBytes(StandardCharsets.UTF_8);
        for (Path p : List.of(snapDir, logDir)) {
            PersistenceOptions o = PersistenceOptions.defaults().withFsync(FsyncPolicy.NO).withSnapshotThreshold(0);
            try (DurableTree d = DurableTree.open(p, tree(), o)) {
                long t0 = System.nanoTime();
                List<Record> batch = new ArrayList<>();
                for (int i = 0; i < keys; i++) {
                    batch.add(Record.put(key(i), value, 1_000_000_000L + i));
                    if (batch.size() == 10_000) {
                        d.applyAll(batch);
                        batch.clear();
                    }
                }
                d.applyAll(batch);
                d.sync();
                System.out.printf("%n%s: wrote %,d keys (batches of 10,000) in %d ms%n", p.getFileName(), keys,
                        (System.nanoTime() - t0) / 1_000_000);
                if (p == snapDir) {
                    long s0 = System.nanoTime();
                    d.snapshot();
                    System.out.printf("snapshot of %,d keys written and fsynced in %d ms%n", keys, (System.nanoTime() - s0) / 1_000_000);
                }
            }
            System.out.printf("files: %s%n", sizes(p));
            for (int round = 0; round < 3; round++) {
                long r0 = System.nanoTime();
                try (DurableTree d = DurableTree.open(p, tree(), PersistenceOptions.defaults().withSnapshotThreshold(0))) {
                    long ms = (System.nanoTime() - r0) / 1_000_000;
                    System.out.printf("recovery %d from %s: %d ms (%s)%n", round + 1, p.getFileName(), ms, d.recovery());
                    if (d.state().size() != keys) {
                        throw new IllegalStateException("recovered " + d.state().size() + " keys");
                    }
                }
            }
        }
    }

    private static String sizes(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(f -> f.toString().endsWith(".snap") || f.toString().endsWith(".log"))
                    .map(f -> {
                        try {
                            return f.getFileName() + "=" + Files.size(f) / 1024 / 1024 + " MiB";
                        } catch (IOException e) {
                            return f.getFileName() + "=?";
                        }
                    }).sorted().toList().toString();
        }
    }

    private static void deleteAll(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}

package io.god.bench.load;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The load generator: {@code concurrency} workers, each a closed loop of blocking requests (one
 * outstanding request per worker, like {@code redis-benchmark -c}), against god over the binary protocol
 * or HTTP JSON. Latencies of the measured phase (after the warm-up) go into HdrHistograms; the report is
 * printed as text and optionally written as JSON.
 *
 * <pre>java -cp bench/target/benchmarks.jar io.god.bench.load.LoadGen --target binary \
 *     --endpoints 127.0.0.1:9191 --mix put=50,get=50 --keys 100000 --concurrency 16 --duration 10</pre>
 */
@Command(name = "loadgen", mixinStandardHelpOptions = true,
        description = "Drives god with a mix of operations and reports ops/s, p50/p99/p999 and errors.")
public final class LoadGen implements Callable<Integer> {

    enum Protocol { BINARY, HTTP, WIRE }

    enum KeyOrder { HASHED, ORDERED }

    @Option(names = "--target", description = "binary (GodClient), http (JSON contract) or wire (binary data calls "
            + "from one NIO thread, like redis-benchmark: the node's ceiling; put, get, subput); default ${DEFAULT-VALUE}")
    Protocol target = Protocol.BINARY;

    @Option(names = "--endpoints", split = ",", required = true,
            description = "host:port list: binary ports (9191) for binary, HTTP ports (9192) for http")
    List<String> endpoints;

    @Option(names = "--token", description = "god.auth.token of the nodes, if set")
    String token;

    @Option(names = "--mix", description = "op=weight list of put, get, subput, slice, setexpr; default ${DEFAULT-VALUE}")
    String mix = "put=50,get=50";

    @Option(names = "--dist", description = "uniform or zipf; default ${DEFAULT-VALUE}")
    KeySpace.Distribution distribution = KeySpace.Distribution.UNIFORM;

    @Option(names = "--zipf-theta", description = "Zipf exponent in (0, 1); default ${DEFAULT-VALUE}")
    double zipfTheta = 0.99;

    @Option(names = "--key-order", description = "hashed (murmur3, spread over the ring) or ordered; default ${DEFAULT-VALUE}")
    KeyOrder keyOrder = KeyOrder.HASHED;

    @Option(names = "--keys", description = "key space (also the sub keys of the trees); default ${DEFAULT-VALUE}")
    long keys = 100_000;

    @Option(names = "--value-size", description = "bytes per value; default ${DEFAULT-VALUE}")
    int valueSize = 16;

    @Option(names = {"-c", "--concurrency"}, description = "workers, one outstanding request each; default ${DEFAULT-VALUE}")
    int concurrency = 16;

    @Option(names = "--duration", description = "measured seconds; default ${DEFAULT-VALUE}")
    double duration = 10;

    @Option(names = "--warmup", description = "unmeasured seconds before; default ${DEFAULT-VALUE}")
    double warmup = 2;

    @Option(names = "--preload", description = "put every key of the key space once before the run (its rate is reported)")
    boolean preload;

    @Option(names = "--preload-subs", description = "sub keys put before the run, alternating between the two trees; default ${DEFAULT-VALUE}")
    long preloadSubs;

    @Option(names = "--slice-len", description = "entries per slice and set-expression result; default ${DEFAULT-VALUE}")
    int sliceLen = 100;

    @Option(names = "--connections", description = "binary: 0 = a client and connection per worker (no "
            + "pipelining, like redis-benchmark -c); N = one shared client with N pipelined connections per node; "
            + "default ${DEFAULT-VALUE}")
    int connections = 0;

    @Option(names = "--redundancy", description = "binary: replicas per key, as the ring's god.redundancy; default ${DEFAULT-VALUE}")
    int redundancy = 3;

    @Option(names = "--seed", description = "random seed; default ${DEFAULT-VALUE}")
    long seed = 42;

    @Option(names = "--json", description = "also write the report as JSON to this file")
    Path json;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** The two sub trees of subput, slice (the first) and setexpr (their intersection). */
    static final byte[][] TREES = {"bencht0".getBytes(StandardCharsets.US_ASCII), "bencht1".getBytes(StandardCharsets.US_ASCII)};
    static final String SET_EXPRESSION = "(I bencht0 bencht1)";

    public static void main(String[] args) {
        System.exit(new CommandLine(new LoadGen()).setCaseInsensitiveEnumValuesAllowed(true).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        validate();
        OpMix ops = OpMix.parse(mix);
        KeySpace space = new KeySpace(keys, distribution, zipfTheta, keyOrder == KeyOrder.HASHED);
        if (target == Protocol.WIRE) {
            return wire(ops, space);
        }
        try (Target.Factory factory = target == Protocol.BINARY
                ? BinaryTarget.factory(endpoints, connections, redundancy, token)
                : HttpTarget.factory(endpoints, token)) {
            List<Target> targets = new ArrayList<>();
            for (int i = 0; i < concurrency; i++) {
                targets.add(factory.open(i));
            }
            try {
                Report report = new Report().setting("target", factory.describe()).setting("mix", ops)
                        .setting("keys", space.describe()).setting("value size", valueSize)
                        .setting("concurrency", concurrency).setting("warm-up s", warmup).setting("duration s", duration);
                if (preload) {
                    report.setting("preload puts/s", Math.round(load(targets, keys, false)));
                }
                if (preloadSubs > 0) {
                    report.setting("preload subputs/s", Math.round(load(targets, preloadSubs, true)));
                }
                if (duration > 0) {
                    run(targets, ops, space, report);
                }
                System.out.print(report.text());
                if (json != null) {
                    Files.writeString(json, report.json());
                }
                long total = 0;
                long errors = 0;
                for (OpMix.Op op : ops.ops()) {
                    total += report.count(op);
                    errors += report.errors(op);
                }
                return duration > 0 && total == 0 && errors > 0 ? 1 : 0;
            } finally {
                targets.forEach(Target::close);
            }
        }
    }

    /** --target wire: one NIO thread, no GodClient (see {@link WireLoad}). */
    private int wire(OpMix ops, KeySpace space) throws java.io.IOException {
        require(!preload && preloadSubs == 0, "--target wire does not preload (preload with --target binary)");
        Report report = new Report().setting("target", "binary data calls from one NIO thread, " + concurrency
                        + " connections to " + endpoints).setting("mix", ops).setting("keys", space.describe())
                .setting("value size", valueSize).setting("concurrency", concurrency).setting("warm-up s", warmup)
                .setting("duration s", duration);
        new WireLoad(endpoints, token, concurrency, ops, space, value(new SplittableRandom(seed)), seed)
                .run(warmup, duration, report);
        System.out.print(report.text());
        if (json != null) {
            Files.writeString(json, report.json());
        }
        return 0;
    }

    private void validate() {
        require(concurrency >= 1 && concurrency <= 4096, "--concurrency must be 1..4096");
        require(valueSize >= 0 && valueSize <= 4 << 20, "--value-size must be 0..4M");
        require(duration >= 0 && warmup >= 0, "--duration and --warmup must not be negative");
        require(sliceLen >= 1, "--slice-len must be at least 1");
        require(!endpoints.isEmpty(), "--endpoints needs at least one host:port");
        require(keys >= 1, "--keys must be at least 1");
        require(connections >= 0 && connections <= 64, "--connections must be 0..64");
        require(redundancy >= 1 && redundancy <= 64, "--redundancy must be 1..64 (as god.redundancy)");
    }

    private void require(boolean ok, String message) {
        if (!ok) {
            throw new CommandLine.ParameterException(spec.commandLine(), message); // printed with the usage
        }
    }

    /** Puts indexes 0..n-1 (keys, or sub keys alternating between the two trees) split over the workers; returns ops/s. */
    private double load(List<Target> targets, long n, boolean subs) throws InterruptedException {
        KeySpace ordered = new KeySpace(Math.max(n, 1), KeySpace.Distribution.UNIFORM, 0.5, keyOrder == KeyOrder.HASHED);
        AtomicLong next = new AtomicLong();
        AtomicLong failures = new AtomicLong();
        long start = System.nanoTime();
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < targets.size(); w++) {
            Target t = targets.get(w);
            byte[] value = value(new SplittableRandom(seed + w));
            threads.add(started(() -> {
                for (long i = next.getAndIncrement(); i < n; i = next.getAndIncrement()) {
                    try {
                        if (subs) {
                            t.subPut(TREES[(int) (i & 1)], ordered.key(i), value);
                        } else {
                            t.put(ordered.key(i), value);
                        }
                    } catch (RuntimeException e) {
                        if (failures.incrementAndGet() == 1) {
                            System.err.println("preload failure: " + e);
                        }
                    }
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        if (failures.get() > 0) {
            System.err.println("preload: " + failures.get() + " of " + n + " puts failed");
        }
        return n / ((System.nanoTime() - start) / 1e9);
    }

    private void run(List<Target> targets, OpMix ops, KeySpace space, Report report) throws InterruptedException {
        long start = System.nanoTime();
        long measureFrom = start + (long) (warmup * 1e9);
        long end = measureFrom + (long) (duration * 1e9);
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < targets.size(); w++) {
            Target t = targets.get(w);
            SplittableRandom random = new SplittableRandom(seed * 31 + w);
            threads.add(started(() -> {
                Map<OpMix.Op, Report.Part> mine = new EnumMap<>(OpMix.Op.class);
                byte[] value = value(random);
                long now = System.nanoTime();
                while (now < end) {
                    OpMix.Op op = ops.next(random);
                    long t0 = now;
                    Throwable failed = null;
                    try {
                        once(t, op, space, random, value);
                    } catch (RuntimeException e) {
                        failed = e;
                    }
                    now = System.nanoTime();
                    if (t0 >= measureFrom) {
                        Report.Part p = mine.computeIfAbsent(op, o -> new Report.Part());
                        if (failed == null) {
                            p.ok(now - t0);
                        } else {
                            p.error(failed);
                        }
                    }
                }
                mine.forEach(report::add);
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        report.seconds((System.nanoTime() - Math.max(measureFrom, start)) / 1e9);
    }

    private void once(Target t, OpMix.Op op, KeySpace space, SplittableRandom random, byte[] value) {
        switch (op) {
            case PUT -> t.put(space.key(space.next(random)), value);
            case GET -> t.get(space.key(space.next(random)));
            case SUBPUT -> t.subPut(TREES[random.nextInt(2)], space.key(space.next(random)), value);
            case SLICE -> t.slice(TREES[0], sliceLen);
            case SETEXPR -> t.setExpression(SET_EXPRESSION, sliceLen);
        }
    }

    private static Thread started(Runnable r) {
        Thread t = new Thread(r, "loadgen-worker");
        t.start();
        return t;
    }

    private byte[] value(SplittableRandom random) {
        byte[] v = new byte[valueSize];
        random.nextBytes(v);
        return v;
    }
}

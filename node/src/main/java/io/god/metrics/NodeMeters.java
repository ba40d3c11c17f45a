package io.god.metrics;

import io.god.api.AdminStatus;
import io.god.api.JsonRpc;
import io.god.node.GodNode;
import io.god.persist.PersistenceObserver;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.ToDoubleFunction;

/**
 * Every metric of one node, in one place (docs/operations.md "Monitoring" lists them): the state the
 * node already keeps (ring, replication, anti-entropy, tree, quarantine, clock) read at scrape time,
 * and the events it is told about as they happen (requests and their refusals through
 * {@link io.god.command.CommandObserver}, log appends, fsyncs and snapshots through {@link PersistenceObserver},
 * ring changes through the membership's change listener).
 *
 * <p>Request latency: a histogram per method would be ~50 methods × 13 series; instead each method
 * and outcome gets a counter ({@code god_rpc_requests_total}) and the histogram with
 * {@link #LATENCY_SLOS} is per kind of call ({@code god_rpc_latency_seconds{kind}}), so
 * {@code /q/metrics} stays well below 400 series.
 */
public final class NodeMeters implements io.god.command.CommandObserver, PersistenceObserver {

    /** Request latency buckets (plus +Inf): the latency objectives one can alert on. */
    public static final Duration[] LATENCY_SLOS = millis(1, 5, 10, 25, 50, 100, 250, 1000, 5000);
    /** Log append and fsync buckets. */
    public static final Duration[] DISK_SLOS = millis(0.1, 0.5, 1, 5, 10, 50, 100, 500, 1000);
    /** Snapshot duration buckets. */
    public static final Duration[] SNAPSHOT_SLOS = millis(100, 1000, 10_000, 60_000, 300_000);
    /** Records made durable by one fsync (group commit). */
    static final double[] RECORDS_PER_FSYNC = {1, 2, 5, 10, 50, 100, 1000, 10_000};

    static final Set<String> WRITES = Set.of("Put", "Del", "SubPut", "SubDel", "SubClear", "SubUpdate", "Clear",
            "AddConfiguration", "SubAddConfiguration");

    private final GodNode node;
    private final MeterRegistry registry;
    private final Map<String, java.util.concurrent.atomic.LongAdder> calls = new ConcurrentHashMap<>();
    private final Map<String, Timer> kinds = new ConcurrentHashMap<>();
    private final Map<String, MethodMeters> byMethod = new ConcurrentHashMap<>();
    private final Map<String, Counter> refusals = new ConcurrentHashMap<>();
    private final Counter bulkheadRejections;
    private final Timer walAppend;
    private final Timer walFsync;
    private final DistributionSummary recordsPerFsync;
    private final Timer snapshot;
    private final AtomicLong snapshotBytes = new AtomicLong();
    private final AtomicLong ringChanges = new AtomicLong();

    private NodeMeters(GodNode node, MeterRegistry registry) {
        this.node = node;
        this.registry = registry;
        bulkheadRejections = Counter.builder("god.bulkhead.rejections")
                .description("expensive calls refused because the bulkhead was full (503; /rpc, /v1, binary)").register(registry);
        walAppend = Timer.builder("god.wal.append").description("log appends (one write's records)")
                .serviceLevelObjectives(DISK_SLOS).register(registry);
        walFsync = Timer.builder("god.wal.fsync").description("fsyncs of the log")
                .serviceLevelObjectives(DISK_SLOS).register(registry);
        recordsPerFsync = DistributionSummary.builder("god.wal.fsync.records")
                .description("records made durable by one fsync").serviceLevelObjectives(RECORDS_PER_FSYNC)
                .register(registry);
        snapshot = Timer.builder("god.snapshot").description("snapshots written")
                .serviceLevelObjectives(SNAPSHOT_SLOS).register(registry);
        Gauge.builder("god.snapshot.size", snapshotBytes, AtomicLong::get).baseUnit("bytes")
                .description("size of the newest snapshot written since start").register(registry);
    }

    /**
     * Registers the node's metrics in {@code registry} and starts listening to its events; pass the
     * result to the node's {@link JsonRpc} as its observer.
     *
     * @param expectedRingSize the members the ring should have (the operator's replicas), if known
     */
    public static NodeMeters bind(GodNode node, MeterRegistry registry, OptionalInt expectedRingSize) {
        NodeMeters m = new NodeMeters(node, registry);
        m.state(expectedRingSize);
        node.store().observe(m);
        if (node.membership() != null) {
            node.membership().onChange(r -> m.ringChanges.incrementAndGet());
        }
        return m;
    }

    private void state(OptionalInt expectedRingSize) {
        // ---- ring and replication
        for (String s : new String[] {"live", "suspect", "down"}) {
            gauge("god.ring.members", n -> members(n, s), "members of this node's ring view by state", "state", s);
        }
        expectedRingSize.ifPresent(e -> Gauge.builder("god.ring.expected.members", () -> e)
                .description("members the ring should have (god.metrics.expected-ring-size)").register(registry));
        counter("god.ring.changes", n -> ringChanges.get(), "changes of this node's ring view (its ring hash)");
        for (GodNode.State s : GodNode.State.values()) {
            gauge("god.node.state", n -> n.state() == s ? 1 : 0, "1 for the node's state", "state", s.name());
        }
        gauge("god.replicated", n -> n.closed() ? 0 : AdminStatus.of(n).replicated() ? 1 : 0,
                "1 when /admin/status says replicated (neighbourhood stable, last sync round clean)");
        gauge("god.catching.up", NodeMeters::catchingUp,
                "1 while the member catches up (state CATCHING_UP, or ACTIVE before its first sync with its successors)");
        gauge("god.replication.queue", n -> n.cluster() == null ? 0 : n.cluster().queuedReplications(),
                "asynchronous copies waiting to be sent");
        counter("god.replication.dropped", n -> n.cluster() == null ? 0 : n.cluster().droppedReplications(),
                "asynchronous copies dropped because the queue was full (anti-entropy repairs them)");
        counter("god.replication.failed", n -> n.cluster() == null ? 0 : n.cluster().failedAsyncReplications(),
                "asynchronous copies that failed (anti-entropy repairs them)");
        counter("god.replication.refused", n -> n.cluster() == null ? 0 : n.cluster().refusedReplications(),
                "copies (Sync or asynchronous) refused at once: their replica's lane held god.replication.queue waiting"
                        + " copies, it answers slowly or not at all (anti-entropy repairs them)");
        counter("god.replication.calls", n -> n.cluster() == null ? 0 : n.cluster().replicationCalls(),
                "replication calls sent (copies to one replica coalesce while a call to it is in flight)");
        counter("god.replication.records", n -> n.cluster() == null ? 0 : n.cluster().replicatedRecords(),
                "records the replication calls carried (once per replica)");
        // ---- anti-entropy, cleaning, migration, leave
        counter("god.sync.rounds", n -> n.antiEntropy() == null ? 0 : n.antiEntropy().rounds(), "anti-entropy rounds");
        counter("god.sync.pulled", n -> n.antiEntropy() == null ? 0 : n.antiEntropy().pulled(),
                "records pulled by anti-entropy (differences found on a peer)");
        counter("god.sync.pushed", n -> n.antiEntropy() == null ? 0 : n.antiEntropy().pushed(),
                "records pushed by anti-entropy (differences a peer lacked)");
        counter("god.sync.sent.bytes", n -> n.antiEntropy() == null ? 0 : n.antiEntropy().bytesSent(),
                "bytes sent by anti-entropy");
        counter("god.sync.received.bytes", n -> n.antiEntropy() == null ? 0 : n.antiEntropy().bytesReceived(),
                "bytes received by anti-entropy");
        counter("god.sync.older.peer", n -> n.antiEntropy() == null ? 0 : n.antiEntropy().olderPeerSyncs(),
                "anti-entropy syncs with a peer of an older hash version (stamps not compared; a rolling upgrade)");
        counter("god.sync.short.boundary.peer",
                n -> n.antiEntropy() == null ? 0 : n.antiEntropy().shortBoundaryPeerSyncs(),
                "anti-entropy syncs started with a peer without wide probes (range boundaries compared by short hashes)");
        counter("god.clean.entries", n -> n.cleaner() == null ? 0 : n.cleaner().cleaned(),
                "entries handed to their owners and removed");
        counter("god.migrations", n -> n.migrator() == null ? 0 : n.migrator().migrations(), "position moves by migration");
        gauge("god.leave.ranges.confirmed", n -> n.drain() == null ? 0 : n.drain().progress().rangesConfirmed(),
                "ranges of the current leave pass confirmed by their future holders");
        // ---- data
        gauge("god.tree.entries", n -> n.store().state().size(), "live values plus live sub-tree entries");
        gauge("god.tree.real.entries", n -> n.store().state().realSize(),
                "every marker including tombstones and sub-tree holders");
        gauge("god.tree.tombstone.markers", n -> n.store().state().realSize() - n.store().state().size(),
                "markers that are not live entries (tombstones pending collection, sub-tree holders)");
        counter("god.tombstones.collected", n -> n.store().collectedMarkers(),
                "expired tombstones and clear markers collected");
        Gauge.builder("god.data.bytes", node, n -> n.closed() ? 0 : n.store().dataBytes()).baseUnit("bytes")
                .description("bytes of logs and snapshots in the data directory").register(registry);
        gauge("god.gc.collected.up.to.seconds", n -> n.store().collectedUpTo() / 1e9,
                "newest collected tombstone's timestamp");
        counter("god.quarantines", n -> n.quarantine() == null ? 0 : n.quarantine().quarantines(),
                "stale data directories moved to quarantine/ at join");
        // ---- time and loops
        gauge("god.time.error.seconds", n -> n.timeNet() == null || n.timeNet().error() < 0 ? 0
                : n.timeNet().error() / 1e9, "RMS of the last clock error per peer");
        counter("god.time.clamps", n -> n.timestamps().bound().clamps(),
                "outside stamps, clock samples or offsets limited by god.time.max-skew");
        gauge("god.loops.dead", n -> n.supervisor().dead().size(),
                "background loops that stopped or missed their beats (liveness fails)");
    }

    /** A returning member is CATCHING_UP; a new one is ACTIVE but not ready until its first sync. */
    private static double catchingUp(GodNode n) {
        return !n.closed() && (n.state() == GodNode.State.CATCHING_UP
                || (n.state() == GodNode.State.ACTIVE && !n.ready())) ? 1 : 0;
    }

    private static double members(GodNode n, String state) {
        var m = n.membership();
        if (m == null) {
            return 0;
        }
        return switch (state) {
            case "live" -> m.ring().size();
            case "suspect" -> m.suspected();
            default -> m.down().size();
        };
    }

    private void gauge(String name, ToDoubleFunction<GodNode> f, String description, String... tags) {
        Gauge.builder(name, node, f).description(description).tags(tags).register(registry);
    }

    private void counter(String name, ToDoubleFunction<GodNode> f, String description) {
        FunctionCounter.builder(name, node, f).description(description).register(registry);
    }

    // ------------------------------------------------------------------ events

    @Override
    public void completed(String method, int status, long nanos) {
        // one map look-up by the method's (cached) hash per call: this runs for every RESP and binary command
        MethodMeters m = byMethod.computeIfAbsent(method, k -> new MethodMeters(latency(kind(k)),
                new java.util.concurrent.atomic.AtomicReferenceArray<>(OUTCOMES.length)));
        int o = switch (status / 100) {
            case 2 -> 0;
            case 5 -> 1;
            default -> status == 401 ? 2 : status == 404 ? 3 : 4;
        };
        java.util.concurrent.atomic.LongAdder c = m.calls().get(o);
        if (c == null) {
            c = calls.computeIfAbsent(method + "/" + OUTCOMES[o], k -> requests(method, OUTCOMES[o]));
            m.calls().set(o, c);
        }
        c.increment();
        m.latency().record(nanos, java.util.concurrent.TimeUnit.NANOSECONDS);
    }

    private static final String[] OUTCOMES = {"ok", "server_error", "unauthorized", "not_found", "client_error"};

    /**
     * A method's calls with one outcome: an adder read at scrape time, not a registered Counter — the registry is a
     * composite, whose counters walk their child registries on every increment (a JFR of RESP SET showed it).
     */
    private java.util.concurrent.atomic.LongAdder requests(String method, String outcome) {
        java.util.concurrent.atomic.LongAdder adder = new java.util.concurrent.atomic.LongAdder();
        FunctionCounter.builder("god.rpc.requests", adder, java.util.concurrent.atomic.LongAdder::sum)
                .description("god JSON and binary data calls by method and outcome (latency: god_rpc_latency_seconds)")
                .tag("method", method).tag("outcome", outcome).register(registry);
        return adder;
    }

    /** A method's latency timer (shared by its kind) and its counters by outcome (index in OUTCOMES), once seen. */
    private record MethodMeters(Timer latency,
                                java.util.concurrent.atomic.AtomicReferenceArray<java.util.concurrent.atomic.LongAdder> calls) {
    }

    private Timer latency(String kind) {
        return kinds.computeIfAbsent(kind, k -> Timer.builder("god.rpc.latency")
                .description("latency of god calls by kind (read, write, slice, set, other)").tag("kind", k)
                .serviceLevelObjectives(LATENCY_SLOS).register(registry));
    }

    /** The kind of a method: write, set (expressions), slice (ranges), read (point reads), other. */
    static String kind(String method) {
        if (WRITES.contains(method)) {
            return "write";
        }
        if (method.equals("SetExpression")) {
            return "set";
        }
        if (method.contains("Slice")) {
            return "slice";
        }
        if (!JsonRpc.METHODS.contains(method) || method.startsWith("Describe") || method.equals("Nodes")
                || method.endsWith("Configuration")) {
            return "other";
        }
        return "read";
    }

    @Override
    public void limitRefused(String limit) {
        refusals.computeIfAbsent(limit, l -> Counter.builder("god.limit.refusals")
                .description("requests refused by a request limit (400; /rpc, /v1, binary), by the limit's config key")
                .tag("limit", l).register(registry)).increment();
    }

    @Override
    public void bulkheadRejected() {
        bulkheadRejections.increment();
    }

    @Override
    public void appended(long nanos, int records) {
        walAppend.record(nanos, java.util.concurrent.TimeUnit.NANOSECONDS);
    }

    @Override
    public void synced(long nanos, long records) {
        walFsync.record(nanos, java.util.concurrent.TimeUnit.NANOSECONDS);
        recordsPerFsync.record(records);
    }

    @Override
    public void snapshotWritten(long nanos, long bytes, long records) {
        snapshot.record(nanos, java.util.concurrent.TimeUnit.NANOSECONDS);
        snapshotBytes.set(bytes);
    }

    private static Duration[] millis(double... ms) {
        return Arrays.stream(ms).mapToObj(m -> Duration.ofNanos((long) (m * 1_000_000))).toArray(Duration[]::new);
    }
}

package io.god.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.god.client.GodClient;
import io.god.operator.admin.HttpNodeAdmin;
import io.god.operator.admin.NodeStatus;
import io.god.operator.fake.FakeNodeAdmin;
import io.god.operator.fake.FakeStatefulSetController;
import io.god.operator.fake.NodeProcesses;
import io.god.operator.model.GodClusterStatus;
import io.god.operator.reconcile.Conditions;
import io.god.operator.reconcile.StatusWriter;
import io.god.operator.resources.Ports;
import io.god.testing.TimeScale;
import io.quarkus.test.kubernetes.client.KubernetesServer;
import io.quarkus.test.kubernetes.client.KubernetesTestServer;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;

/**
 * The operator driving real god nodes: the fake StatefulSet controller runs every pod as a child process of the
 * packaged node ({@link NodeProcesses}: pod {@code demo-i} on 127.0.0.(firstHost+i), ports 9192/9191/9000, the
 * operator's ConfigMap as its environment, data named after the claim), readiness is the node's
 * {@code /q/health/ready}, and the operator's NodeAdmin is the production {@link HttpNodeAdmin}. A {@link Workload}
 * writes with Sync=true and reads back while the test changes the GodCluster. Child output:
 * {@code target/<out>/<pod>.log}.
 */
abstract class RealNodesSupport extends ScenarioSupport {

    /** JVM start, recovery and joining included; on a loaded 2-core machine. */
    static final Duration START_BOUND = TimeScale.seconds(60);
    /** The workload thread stops by itself after this, whatever happens to the test. */
    static final Duration WORKLOAD_LIMIT = TimeScale.seconds(240);
    /** The nodes' settings: fast rounds so a step takes seconds (god.ring.failures stays at its default, 3). */
    static final Duration RING_INTERVAL = Duration.ofMillis(50);
    static final Duration RPC_TIMEOUT = TimeScale.millis(500);
    static final int RING_FAILURES = 3;

    @KubernetesTestServer
    KubernetesServer server;

    @Inject
    FakeNodeAdmin nodeAdmin;

    NodeProcesses nodes;
    Workload workload;
    final Map<String, Duration> durations = new java.util.LinkedHashMap<>();

    /** The namespace of the test's GodCluster. */
    abstract String namespace();

    /** The directory of the nodes' logs and data, under target/. */
    abstract Path out();

    /** The last byte of demo-0's loopback address: each test class its own addresses. */
    abstract int firstHost();

    /** Whether the nodes get their pods' Secret files (credentials, TLS): off, they run without auth. */
    boolean mountSecrets() {
        return false;
    }

    static Path nodeJar() {
        return Path.of(System.getProperty("god.node.jar", "../node/target/quarkus-app/quarkus-run.jar"));
    }

    @BeforeAll
    void startNodes() throws Exception {
        Path jar = nodeJar();
        if (!Files.exists(jar)) {
            // CI must run this test: a missing jar there is a failure, never a silent skip
            assertThat("true".equalsIgnoreCase(System.getenv("CI"))).as("CI=true but the node jar " + jar.toAbsolutePath()
                    + " is missing: package node before operator").isFalse();
            Assumptions.abort("no packaged node at " + jar.toAbsolutePath()
                    + " (./mvnw -B -o -pl client,node -DskipTests package first)");
        }
        deleteTree(out());
        startFakes(server, client -> {
            nodes = new NodeProcesses(client, jar, out(), firstHost(), List.of(
                    "-Dgod.ring.interval=" + RING_INTERVAL.toMillis() + "ms", "-Dgod.ring.failures=" + RING_FAILURES,
                    "-Dgod.rpc.timeout=" + RPC_TIMEOUT.toMillis() + "ms", "-Dgod.sync.interval=300ms",
                    "-Dgod.gc.interval=1s", TimeScale.jvmOption()));
            if (mountSecrets()) {
                nodes.withSecrets();
            }
            return new FakeStatefulSetController(client, nodes);
        });
        nodeAdmin.realNodes(new HttpNodeAdmin(TimeScale.seconds(1), Ports.MANAGEMENT, Optional.empty()));
    }

    @AfterAll
    void stopNodes() {
        nodeAdmin.realNodes(null);
        if (fakeController != null) {
            closeFakes();
        }
        if (nodes != null) {
            nodes.close();
        }
        System.out.println(getClass().getSimpleName() + " step durations: " + durations);
    }

    /** A client of the given pods with explicit, scaled call bounds (the nodes' god.rpc.timeout is scaled too). */
    GodClient client(String... pods) {
        return clientWithToken(null, pods);
    }

    /** The same with a token (null: none). */
    GodClient clientWithToken(String token, String... pods) {
        // a call must outlast one replica timeout; ring refreshed every 5 s and after failures
        return GodClient.builder().endpoints(Stream.of(pods).map(nodes::binaryAddress).toArray(String[]::new))
                .token(token).attemptTimeout(TimeScale.seconds(1)).deadline(TimeScale.seconds(5)).build();
    }

    /** A client of demo-0 with this token (null: none) cannot write. */
    void refusesAWrite(String token) {
        try (GodClient client = clientWithToken(token, "demo-0")) {
            assertThatThrownBy(() -> client.put(GodClient.utf8("refused"), GodClient.utf8("v"), true))
                    .as("a write with token " + token).isInstanceOf(RuntimeException.class);
        }
    }

    /** Starts the workload on its own daemon thread. */
    Thread startWorkload(GodClient client, String keyPrefix) {
        workload = new Workload(client, keyPrefix);
        Thread thread = new Thread(workload, "real-nodes-workload");
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    /** Stops the workload and waits for its thread (bounded). */
    void stopWorkload(Thread thread) throws InterruptedException {
        workload.stop.set(true);
        thread.join(TimeUnit.SECONDS.toMillis(30));
        System.out.printf("%s workload: %d acknowledged Sync writes, %d reads, %d failed calls %s;"
                + " slowest put %d ms, slowest get %d ms%n", getClass().getSimpleName(), workload.acked.size(),
                workload.reads.get(), workload.failures.size(), workload.failures,
                workload.slowestPut.get() / 1_000_000, workload.slowestGet.get() / 1_000_000);
        assertThat(thread.isAlive()).as("the workload stopped").isFalse();
    }

    /** The acknowledged writes a fresh read does not return (read once each, after the workload stopped). */
    List<String> unreadableAcknowledgedWrites(GodClient client) {
        List<String> unreadable = new ArrayList<>();
        for (Map.Entry<String, String> e : workload.acked.entrySet()) {
            GodClient.Value v = client.get(GodClient.utf8(e.getKey()));
            if (!v.exists() || !e.getValue().equals(new String(v.value(), StandardCharsets.UTF_8))) {
                unreadable.add(e.getKey());
            }
        }
        System.out.println(getClass().getSimpleName() + ": acknowledged writes not readable at the end: " + unreadable);
        return unreadable;
    }

    /** The members' statuses, read through their management port. */
    List<NodeStatus> statuses(List<String> pods) throws Exception {
        HttpNodeAdmin admin = new HttpNodeAdmin(TimeScale.seconds(2), Ports.MANAGEMENT, Optional.empty());
        List<NodeStatus> statuses = new ArrayList<>();
        for (String pod : pods) {
            statuses.add(admin.status(nodes.ip(pod)).toCompletableFuture()
                    .get(TimeScale.seconds(5).toMillis(), TimeUnit.MILLISECONDS));
        }
        return statuses;
    }

    /** Waits until the GodCluster reports {@code n} ready ACTIVE members on one ring hash, replicated, nothing left to do. */
    void settled(int n, Duration bound, String step) {
        long start = System.nanoTime();
        await(step).atMost(bound).pollInterval(Duration.ofMillis(100))
                .until(() -> isSettled(current(namespace(), "demo").getStatus(), n));
        durations.put(step, Duration.ofNanos(System.nanoTime() - start));
        System.out.printf("%s: %s settled in %d ms (at %d ms of the workload)%n", getClass().getSimpleName(), step,
                durations.get(step).toMillis(), workload == null ? 0 : workload.millis(System.nanoTime()));
    }

    static boolean isSettled(GodClusterStatus s, int n) {
        return s != null && StatusWriter.PHASE_RUNNING.equals(s.getPhase()) && s.getOperation() == null
                && s.getReplicas() != null && s.getReplicas() == n && s.getReadyReplicas() == n
                && s.getRingHash() != null && s.getMembers().size() == n
                && s.getMembers().stream().allMatch(m -> NodeStatus.ACTIVE.equals(m.getState()))
                && Conditions.find(s.getConditions(), Conditions.REPLICATED)
                        .filter(c -> Conditions.TRUE.equals(c.getStatus())).isPresent();
    }

    /** A failed call or read: when it started and ended (nanoTime), and whether a read missed an acknowledged value. */
    record Failure(long startedAt, long endedAt, boolean lostWrite, String text) {
        @Override
        public String toString() {
            return text;
        }
    }

    /**
     * Writes key i with Sync=true, then reads back a key written earlier (round robin), until stopped or
     * {@link #WORKLOAD_LIMIT}. A read that misses an acknowledged value is a failure like a failed call (lostWrite).
     */
    static final class Workload implements Runnable {
        final GodClient client;
        final String keyPrefix;
        final AtomicBoolean stop = new AtomicBoolean();
        final Map<String, String> acked = new ConcurrentHashMap<>();
        final List<String> ackedOrder = new CopyOnWriteArrayList<>();
        /** Every key a put was tried for, acknowledged or not. */
        final List<String> attempted = new CopyOnWriteArrayList<>();
        final List<Failure> failures = new CopyOnWriteArrayList<>();
        final AtomicLong reads = new AtomicLong();
        final AtomicLong slowestPut = new AtomicLong();
        final AtomicLong slowestGet = new AtomicLong();
        final java.util.Random random = new java.util.Random(13);
        final long began = System.nanoTime();

        Workload(GodClient client, String keyPrefix) {
            this.client = client;
            this.keyPrefix = keyPrefix;
        }

        long millis(long nanoTime) {
            return (nanoTime - began) / 1_000_000;
        }

        @Override
        public void run() {
            long end = System.nanoTime() + WORKLOAD_LIMIT.toNanos();
            for (int i = 0; !stop.get() && System.nanoTime() < end; i++) {
                String key = keyPrefix + i;
                String value = "v" + i;
                attempted.add(key);
                long start = System.nanoTime();
                try {
                    client.put(GodClient.utf8(key), GodClient.utf8(value), true);
                    slowestPut.accumulateAndGet(System.nanoTime() - start, Math::max);
                    acked.put(key, value);
                    ackedOrder.add(key);
                } catch (RuntimeException e) {
                    failures.add(failure(start, false, key, "put " + key + ": " + e));
                }
                if (ackedOrder.isEmpty()) {
                    continue;
                }
                // read-your-write of the key just acknowledged, then a random earlier one (fixed seed)
                check(ackedOrder.get(ackedOrder.size() - 1));
                check(ackedOrder.get(random.nextInt(ackedOrder.size())));
                pause();
            }
        }

        private void check(String key) {
            long start = System.nanoTime();
            try {
                GodClient.Value v = client.get(GodClient.utf8(key));
                slowestGet.accumulateAndGet(System.nanoTime() - start, Math::max);
                reads.incrementAndGet();
                if (!v.exists() || !acked.get(key).equals(new String(v.value(), StandardCharsets.UTF_8))) {
                    failures.add(failure(start, true, key, "get " + key + ": " + (v.exists() ? "another value"
                            : "missing")));
                }
            } catch (RuntimeException e) {
                failures.add(failure(start, false, key, "get " + key + ": " + e));
            }
        }

        /** When and with which ring view of the client a call failed: what a failure report needs. */
        private Failure failure(long start, boolean lostWrite, String key, String what) {
            long now = System.nanoTime();
            List<String> replicas = client.replicas(GodClient.utf8(key)).stream().map(GodClient.Member::address).toList();
            return new Failure(start, now, lostWrite, what + " (at " + millis(start) + "–" + millis(now)
                    + " ms, client ring " + client.ring().size() + " member(s), replicas " + replicas
                    + ", catching up " + new java.util.TreeSet<>(client.catchingUp()) + ")");
        }

        private static void pause() {
            try {
                Thread.sleep(5); // keep the 2-core machine breathing; pacing only, no timing assertion
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    static void deleteTree(Path p) throws Exception {
        if (Files.exists(p)) {
            try (Stream<Path> walk = Files.walk(p)) {
                walk.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }
}

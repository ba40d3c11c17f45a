package io.god.chaos;

import io.god.client.GodClient;
import io.god.client.GodException;
import io.god.testing.TimeScale;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * One run: a ring of packaged nodes in namespaces, the workload through the Java client, a seeded
 * schedule of nemeses (each injected for {@code faultTime}, healed, then the ring must converge again
 * and stay calm a while so reads reach the returned member), a final convergence, final reads and the
 * {@link Checker}. Teardown (nodes, then namespaces) happens in {@link #close()} and in a shutdown hook.
 */
final class Campaign implements AutoCloseable {

    /**
     * What to run. {@code duration} null: every nemesis of the list once, in a seeded order.
     * {@code tombstoneWindow} null: the nodes' default (24 h, far beyond any fault); else the nodes' window
     * ({@code god.tombstone-window}) and, when it is shorter than {@code faultTime}, the run only reports what the
     * checker finds ({@link Result#beyondWindow}): a member away longer than the window is beyond the promise.
     */
    record Config(long seed, int nodes, List<Nemesis> nemeses, Duration duration, Duration faultTime, Duration calm,
                  int threads, Path jar, Path out, Duration tombstoneWindow) {

        boolean faultsOutlastWindow() {
            return tombstoneWindow != null && faultTime.compareTo(tombstoneWindow) > 0;
        }

        /** The nodes' settings beyond the campaign's fixed ones. */
        List<String> nodeSettings() {
            List<String> out = new ArrayList<>();
            if (tombstoneWindow != null) {
                out.add("-Dgod.tombstone-window=" + tombstoneWindow.toMillis() + "ms");
                out.add("-Dgod.gc.interval=" + Math.max(10, tombstoneWindow.toMillis() / 10) + "ms");
            }
            if (nemeses.stream().anyMatch(n -> n instanceof Nemesis.FsyncFail)) {
                out.add(Nemesis.FsyncFail.SETTING); // testing only: fsyncs fail while the nemesis's trigger exists
            }
            return out;
        }
    }

    /** One nemesis round: when it was injected and healed, and how long the ring took to converge after it. */
    record Phase(String nemesis, String action, long injectedAt, long healedAt, int smallestRing, Long convergedAfterMs,
                 String notConverged) {
    }

    /** Everything the report says. */
    record Result(Config config, List<Phase> phases, List<Op> history, Map<String, Checker.Final> finals,
                  List<Checker.Violation> violations, List<String> knownIssues, List<String> unavailable,
                  Long finalConvergenceMs,
                  String finalNotConverged, long wallMs, Replicas.Outcome replicas, List<Checker.Violation> beyondWindow,
                  List<String> windowNotes) {
        boolean passed() {
            return violations.isEmpty() && finalNotConverged == null
                    && phases.stream().allMatch(p -> p.notConverged() == null);
        }
    }

    /** The client's timeout of one attempt (its default): a call that took longer failed over at least once. */
    static final Duration ATTEMPT_TIMEOUT = Duration.ofSeconds(1);

    private final Config config;
    private Net net;
    private Cluster cluster;
    /** Window scenario: what the nodes said of tombstone collection during the faults. */
    private final Map<Integer, Boolean> heldDuringFaults = new java.util.TreeMap<>();
    private java.time.Instant startWall;
    private final Thread hook = new Thread(this::teardown, "chaos-teardown");

    Campaign(Config config) {
        this.config = config;
    }

    Result run() throws Exception {
        long start = System.nanoTime();
        startWall = java.time.Instant.now(); // only to place the phases among the nodes' wall-clock log lines
        List<String> staleMounts = Disks.unmountUnder(config.out()); // a crashed run's small disks
        deleteTree(config.out()); // a fresh ring each run: no data, logs or report of an earlier one
        Files.createDirectories(config.out());
        List<String> stale = Net.removeStale();
        log("seed " + config.seed() + (stale.isEmpty() ? "" : "; removed a crashed run's " + stale)
                + (staleMounts.isEmpty() ? "" : "; unmounted a crashed run's " + staleMounts));
        Runtime.getRuntime().addShutdownHook(hook);
        net = Net.create(config.nodes());
        cluster = new Cluster(net, config.jar(), config.out(), config.nodeSettings());
        History history = new History(start);
        cluster.startAll();
        String[] why = new String[1];
        if (cluster.awaitConverged(TimeScale.seconds(60), why) == null) {
            throw new IllegalStateException("the ring did not form: " + why[0] + " (logs: " + config.out() + ")");
        }
        log("ring formed after " + (System.nanoTime() - start) / 1_000_000 + " ms");
        Random schedule = new Random(config.seed());
        List<Phase> phases = new ArrayList<>();
        Map<String, Checker.Final> finals = new LinkedHashMap<>();
        Long finalMs;
        Replicas.Outcome replicas = null;
        try (GodClient client = GodClient.builder().endpoints(cluster.addresses().toArray(String[]::new))
                .redundancy(3).attemptTimeout(ATTEMPT_TIMEOUT).deadline(TimeScale.seconds(3)).build()) {
            Workload workload = new Workload(client, history, config.seed(), config.threads());
            workload.start();
            try {
                Thread.sleep(config.calm().toMillis());
                List<Nemesis> order = new ArrayList<>(config.nemeses());
                java.util.Collections.shuffle(order, schedule);
                long until = config.duration() == null ? Long.MAX_VALUE : history.now() + config.duration().toMillis();
                for (int round = 0; config.duration() == null ? round < order.size() : history.now() < until; round++) {
                    Nemesis n = config.duration() == null ? order.get(round)
                            : config.nemeses().get(schedule.nextInt(config.nemeses().size()));
                    phases.add(round(n, schedule, history));
                }
            } finally {
                workload.close();
            }
            finalMs = awaitConverged(why);
            for (Op op : history.ops()) {
                if (op.kind() != Op.Kind.GET && !finals.containsKey(op.key())) {
                    finals.put(op.key(), finalRead(client, op.key()));
                }
            }
            if (finalMs != null) {
                replicas = Replicas.check(client, history.ops(), config.seed(), TimeScale.seconds(40),
                        config.tombstoneWindow() != null);
                log("replicas compared: " + replicas.keys() + " keys, " + replicas.copies() + " copies in "
                        + replicas.firstPassMs() + " ms; " + replicas.differedAtFirst() + " keys differed, "
                        + (replicas.agreedAfterMs() == null ? replicas.mismatches().size() + " still differ"
                        : "same data on all " + replicas.agreedAfterMs() + " ms later"));
            }
        }
        List<Op> ops = history.ops();
        List<Checker.Violation> violations = new ArrayList<>();
        List<String> known = new ArrayList<>();
        List<String> unavailable = new ArrayList<>();
        List<Checker.Violation> found = new ArrayList<>(Checker.check(ops, finals));
        // replicas holding different data after convergence are never excused (not by a skewed clock either), nor,
        // since anti-entropy compares stamps (issue 27), the same data under different stamps (Checker.STAMPS_DIFFER)
        List<Checker.Violation> mismatches = replicas == null ? List.of() : replicas.mismatches();
        List<Checker.Violation> beyondWindow = new ArrayList<>();
        if (config.faultsOutlastWindow()) { // beyond the promise: counted and reported, never failing
            beyondWindow.addAll(found);
            beyondWindow.addAll(mismatches);
            found.clear();
            mismatches = List.of();
        }
        violations.addAll(mismatches);
        for (Checker.Violation v : found) {
            String skewed = KnownIssues.beyondSkewBound(v, phases);
            String reason = KnownIssues.reason(v, phases, ATTEMPT_TIMEOUT.toMillis());
            if (v.kind().equals(Checker.ASYNC_LOST)) {
                known.add("a put without Sync: its copies are lost if the owner dies before they go out (docs/durability.md)"
                        + "\n    " + v.describe());
            } else if (skewed != null) {
                unavailable.add(skewed + "\n    " + v.describe());
            } else if (reason == null) {
                violations.add(v);
            } else {
                known.add(reason + "\n    " + v.describe());
            }
        }
        return new Result(config, phases, ops, finals, violations, known, unavailable, finalMs, finalMs == null ? why[0] : null,
                (System.nanoTime() - start) / 1_000_000, replicas, beyondWindow,
                config.tombstoneWindow() == null ? List.of() : windowNotes(phases));
    }

    private Phase round(Nemesis n, Random schedule, History history) throws Exception {
        long injected = history.now();
        String action = n.inject(cluster, schedule);
        log(n.name() + ": " + action);
        int smallestRing = watchRing(history.now() + config.faultTime().toMillis(), history);
        long healed = history.now();
        n.heal(cluster);
        if (n.healNote() != null) {
            action += "; heal: " + n.healNote();
            log(n.name() + ": " + n.healNote());
        }
        String[] why = new String[1];
        Long converged = awaitConverged(why);
        log(n.name() + " healed; " + (converged == null ? "NOT converged: " + why[0] : "converged after " + converged + " ms"));
        Thread.sleep(config.calm().toMillis());
        return new Phase(n.name(), action, injected, healed, smallestRing, converged, converged == null ? why[0] : null);
    }

    /**
     * Until {@code until} (ms): asks the nodes in turn for their ring and answers the smallest ring any of
     * them reported (the fault bit when it is below the ring size; cluster size when none noticed).
     */
    private int watchRing(long until, History history) throws InterruptedException {
        int smallest = cluster.size();
        for (int i = 0; history.now() < until; i = (i + 1) % cluster.size()) {
            com.fasterxml.jackson.databind.JsonNode s = cluster.status(i);
            if (s != null) {
                smallest = Math.min(smallest, s.path("ring").size());
                if (config.tombstoneWindow() != null) {
                    heldDuringFaults.merge(i, s.path("tombstoneCollectionHeld").asBoolean(), Boolean::logicalOr);
                }
            }
            Thread.sleep(Math.max(0, Math.min(250, until - history.now())));
        }
        return smallest;
    }

    /**
     * What the nodes say of tombstone collection and the stale-data quarantine (DESIGN §7) at the end: whether
     * collection was held while a member was away, how far each node collected, and whether any was quarantined.
     */
    private List<String> windowNotes(List<Phase> phases) {
        List<String> out = new ArrayList<>();
        for (Phase p : phases) {
            out.add(p.action() + " from " + startWall.plusMillis(p.injectedAt()) + " to " + startWall.plusMillis(p.healedAt()));
        }
        heldDuringFaults.forEach((i, held) -> out.add("node " + i + (held ? " held" : " never held")
                + " tombstone collection during the faults (/admin/status tombstoneCollectionHeld)"));
        for (int i = 0; i < cluster.size(); i++) {
            com.fasterxml.jackson.databind.JsonNode s = cluster.status(i);
            out.add("node " + i + (s == null ? ": no status" : ": state " + s.path("state").asText()
                    + ", quarantinedAt " + s.path("quarantinedAt").asText("never") + ", lastAliveAt "
                    + s.path("lastAliveAt").asText() + ", collectedUpTo " + s.path("collectedUpTo").asText()));
            out.addAll(cluster.node(i).logLines("QUARANTINED"));
        }
        return out;
    }

    private Long awaitConverged(String[] why) throws InterruptedException {
        Duration d = cluster.awaitConverged(TimeScale.seconds(40), why);
        return d == null ? null : d.toMillis();
    }

    private static Checker.Final finalRead(GodClient client, String key) {
        try {
            return Workload.read(client, key);
        } catch (GodException e) {
            return new Checker.Final(true, false, e.getMessage());
        }
    }

    static void deleteTree(Path p) throws java.io.IOException {
        if (Files.exists(p)) {
            try (var walk = Files.walk(p)) {
                walk.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }

    private static void log(String line) {
        System.out.println("[chaos] " + line);
    }

    private synchronized void teardown() {
        if (cluster != null) {
            cluster.close();
        }
        if (net != null) {
            net.close();
        }
    }

    @Override
    public void close() {
        teardown();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException | IllegalArgumentException e) {
            // shutting down already, or never registered
        }
    }
}

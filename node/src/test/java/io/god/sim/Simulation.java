package io.god.sim;

import io.god.api.JsonRpc;
import io.god.node.GodNode;
import io.god.node.NodeRuntime;
import io.god.node.NodeSettings;
import io.god.persist.SimulatedDisk;
import io.god.time.NanoClock;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * One deterministic run: real {@link GodNode}s (ring, cluster, tree and persistence classes, started
 * through the one bootstrap) on one thread, over the {@link SimNetwork}, each on its own
 * {@link SimulatedDisk} and (possibly skewed) clock, all driven by one {@link SimLoop} and one seeded
 * {@link Random}. The run: start a ring, apply a workload of client calls mixed with the enabled
 * faults, heal everything, let the ring quiesce, then check the {@link Invariants}.
 */
final class Simulation {

    enum Fault { JITTER, LOSS, DUPLICATE, PARTITION, CRASH, WIPE, KILL, TORN, SKEW, JOIN }

    record Config(long seed, int nodes, int joiners, int redundancy, int operations, long workloadMillis,
                  int quiesceSyncs, int faultEvents, Set<Fault> faults) {

        static Config standard(long seed, Set<Fault> faults) {
            return new Config(seed, 5, faults.contains(Fault.JOIN) ? 2 : 0, 3, 150, 20_000, 12, 2,
                    faults.isEmpty() ? EnumSet.noneOf(Fault.class) : EnumSet.copyOf(faults));
        }

        Config withNodes(int n, int joining) {
            return new Config(seed, n, joining, redundancy, operations, workloadMillis, quiesceSyncs, faultEvents, faults);
        }

        Config withOperations(int ops, long millis) {
            return new Config(seed, nodes, joiners, redundancy, ops, millis, quiesceSyncs, faultEvents, faults);
        }

        Config withFaultEvents(int n) {
            return new Config(seed, nodes, joiners, redundancy, operations, workloadMillis, quiesceSyncs, n, faults);
        }
    }

    static final long MS = 1_000_000L;
    static final long RING_INTERVAL = 100 * MS;
    static final long SYNC_INTERVAL = 500 * MS;

    /** One node slot: its address, disk and, while up, its running node. */
    final class SimNode {
        final int index;
        final String address;
        SimulatedDisk disk;
        GodNode node;
        JsonRpc rpc;
        long skew;
        boolean killed;

        SimNode(int index) {
            this.index = index;
            this.address = "10.0." + (index / 250) + "." + (index % 250 + 1) + ":7000";
            this.disk = new SimulatedDisk(random.nextLong(), config.faults().contains(Fault.TORN));
        }

        boolean up() {
            return node != null && !node.closed();
        }

        void start() {
            NanoClock clock = () -> loop.now() + skew;
            NodeRuntime runtime = new NodeRuntime(clock,
                    name -> new SimExecutor(loop, name.startsWith("god-sync-") ? SimLoop.Kind.START : SimLoop.Kind.QUICK),
                    name -> new SimExecutor(loop, SimLoop.Kind.SERVE),
                    random::nextLong, disk.process(),
                    (settings, handlers) -> network.transport(settings.advertise()), loop.awaiter(), null);
            node = GodNode.start(settings(this), runtime);
            rpc = new JsonRpc(node);
            trace.note("start " + address + (skew == 0 ? "" : " skew " + skew / MS + " ms"));
        }

        /** Power loss: unsynced data may go (torn), the process stops without a clean shutdown. */
        void crash() {
            disk.crash();
            try {
                node.close();
            } catch (RuntimeException e) {
                // the crashed disk refuses the clean shutdown's writes, as a dead process would
            }
            trace.note("crash " + address);
        }
    }

    final Config config;
    final Random random;
    final Trace trace = new Trace();
    final SimLoop loop = new SimLoop(trace);
    final SimNetwork network;
    final List<SimNode> nodes = new ArrayList<>();
    final Workload workload;
    final Invariants invariants;
    private final String seeds;
    int lostReplicas;
    long quiescedAfterNanos = -1;

    Simulation(Config config) {
        this.config = config;
        this.random = new Random(config.seed());
        trace.clock(loop);
        network = new SimNetwork(loop, new Random(random.nextLong()));
        List<String> initial = new ArrayList<>();
        for (int i = 0; i < config.nodes() + config.joiners(); i++) {
            SimNode n = new SimNode(i);
            if (config.faults().contains(Fault.SKEW)) {
                n.skew = (random.nextInt(201) - 100) * MS;
            }
            nodes.add(n);
            if (i < Math.min(3, config.nodes())) {
                initial.add(n.address);
            }
        }
        seeds = String.join(",", initial);
        workload = new Workload(this);
        invariants = new Invariants(this);
        trace.note("run seed " + config.seed() + " " + config);
    }

    NodeSettings settings(SimNode n) {
        Map<String, String> m = new HashMap<>();
        m.put(NodeSettings.ADVERTISE, n.address);
        m.put(NodeSettings.NODE_PORT, "7000");
        m.put(NodeSettings.SEEDS, seeds);
        m.put(NodeSettings.DATA_DIR, "/sim/" + n.index);
        m.put(NodeSettings.REDUNDANCY, String.valueOf(config.redundancy()));
        m.put(NodeSettings.RING_INTERVAL, RING_INTERVAL / MS + "ms");
        m.put(NodeSettings.RING_FAILURES, "3");
        m.put(NodeSettings.RPC_TIMEOUT, "300ms");
        m.put(NodeSettings.RPC_ATTEMPTS, "3");
        m.put(NodeSettings.SYNC_INTERVAL, SYNC_INTERVAL / MS + "ms");
        m.put(NodeSettings.GC_INTERVAL, "1s");
        m.put(NodeSettings.TOMBSTONE_WINDOW, "1h");
        m.put(NodeSettings.FSYNC, "always");
        return NodeSettings.of(m);
    }

    List<SimNode> up() {
        return nodes.stream().filter(SimNode::up).toList();
    }

    /** Runs the whole scenario; throws {@link InvariantViolation} (with seed and trace) on failure. */
    Result run() {
        return run(start -> {
            network.faults(faultsOfRun());
            scheduleFaults(start);
            workload.schedule(start, config.workloadMillis() * MS);
        });
    }

    /**
     * Runs a scenario whose workload phase {@code schedule} sets up (given the phase's start time):
     * the random one, or a regression test's script.
     */
    Result run(java.util.function.LongConsumer schedule) {
        try {
            for (int i = 0; i < config.nodes(); i++) {
                SimNode n = nodes.get(i);
                loop.at(i * 50 * MS, SimLoop.Kind.QUICK, n::start);
            }
            long start = loop.now() + 2_000 * MS;
            loop.runUntil(start);
            schedule.accept(start);
            long end = start + config.workloadMillis() * MS;
            settled = Math.max(settled, (config.nodes() - 1) * 50 * MS + SimLoop.EPOCH);
            loop.at(settled - loop.now(), SimLoop.Kind.QUICK, this::pollConvergence);
            while (loop.now() < end) {
                loop.runUntil(Math.min(end, loop.now() + SYNC_INTERVAL));
                invariants.checkTimestamps();
                noteRing();
            }
            quiesce(end + 5_000 * MS);
            if (convergedAt < 0) {
                convergedAt = loop.now(); // the quiesce phase converged it (and kept it quiet)
            }
            invariants.checkAll();
            trace.note("ok messages " + network.messages() + " events " + loop.executed());
            return new Result(config.seed(), trace.hash(), network.messages(), loop.executed(),
                    quiescedAfterNanos, lostReplicas, loop.now() - SimLoop.EPOCH, steadyRing, steadyAll,
                    Math.max(0, convergedAt - settled));
        } catch (RuntimeException | AssertionError e) {
            throw new InvariantViolation("simulation seed " + config.seed() + " failed: " + e.getMessage()
                    + "\nreplay: -Dgod.sim.seed=" + config.seed() + " -Dgod.sim.faults="
                    + String.join(",", config.faults().stream().map(Enum::name).toList())
                    + "\ntrace hash " + trace.hash() + ", last lines:\n" + trace.tail());
        } finally {
            for (SimNode n : nodes) {
                if (n.up()) {
                    n.node.close();
                }
            }
        }
    }

    /**
     * @param simulatedNanos simulated time of the whole run
     * @param steadyRing membership messages (join, ping, gossip, leave; requests and replies) per live
     *                   node per ring interval after the ring converged (the quiet phase)
     * @param steadyAll all messages per live node per ring interval in the quiet phase
     * @param convergedNanos from the last fault's end (a heal, a restart, the last join) until every
     *                       live node had the same view of exactly the live members
     */
    record Result(long seed, String traceHash, long messages, long events, long quiescedAfterNanos, int lostReplicas,
                  long simulatedNanos, double steadyRing, double steadyAll, long convergedNanos) {
    }

    /** When the last scheduled fault ends (heal, restart) or the last node starts (absolute sim time). */
    private long settled = SimLoop.EPOCH;
    private long convergedAt = -1;

    static long ringMessages(long[] byOp) {
        return byOp[io.god.wire.Ops.JOIN] + byOp[io.god.wire.Ops.PING] + byOp[io.god.wire.Ops.GOSSIP]
                + byOp[io.god.wire.Ops.LEAVE];
    }

    private double steadyRing;
    private double steadyAll;

    private SimNetwork.Faults faultsOfRun() {
        Set<Fault> f = config.faults();
        long min = 200_000;
        long max = f.contains(Fault.JITTER) ? 40 * MS : min;
        return new SimNetwork.Faults(min, max, f.contains(Fault.LOSS) ? 0.02 : 0,
                f.contains(Fault.DUPLICATE) ? 0.05 : 0);
    }

    /** Faults at random times of the workload phase; every down node is back before it ends. */
    private void scheduleFaults(long start) {
        long span = config.workloadMillis() * MS;
        Set<Fault> f = config.faults();
        int maxLost = config.redundancy() - 1;
        for (int j = 0; j < config.joiners(); j++) {
            SimNode n = nodes.get(config.nodes() + j);
            long at = start - loop.now() + (long) (random.nextDouble() * span * 0.7);
            settled = Math.max(settled, loop.now() + at);
            loop.at(at, SimLoop.Kind.QUICK, n::start);
        }
        for (Fault kind : List.of(Fault.CRASH, Fault.WIPE, Fault.KILL, Fault.PARTITION)) {
            if (!f.contains(kind)) {
                continue;
            }
            for (int i = 0; i < config.faultEvents(); i++) {
                long at = start - loop.now() + (long) (random.nextDouble() * span * 0.7);
                long downFor = (1_000 + random.nextInt(2_000)) * MS;
                if (kind != Fault.KILL) {
                    settled = Math.max(settled, loop.now() + at + downFor);
                }
                loop.at(at, SimLoop.Kind.QUICK, () -> inject(kind, downFor, maxLost));
            }
        }
    }

    private void inject(Fault kind, long downFor, int maxLost) {
        List<SimNode> up = up();
        if (up.size() <= config.redundancy()) {
            return;
        }
        SimNode victim = up.get(random.nextInt(up.size()));
        switch (kind) {
            case CRASH -> {
                victim.crash();
                loop.at(downFor, SimLoop.Kind.QUICK, victim::start);
            }
            case WIPE -> {
                if (lostReplicas >= maxLost) {
                    return;
                }
                lostReplicas++;
                victim.crash();
                victim.disk = new SimulatedDisk(random.nextLong(), config.faults().contains(Fault.TORN));
                trace.note("wipe " + victim.address);
                loop.at(downFor, SimLoop.Kind.QUICK, victim::start);
            }
            case KILL -> {
                if (lostReplicas >= maxLost) {
                    return;
                }
                lostReplicas++;
                victim.crash();
                victim.killed = true;
                trace.note("kill " + victim.address);
            }
            case PARTITION -> {
                Set<String> side = new LinkedHashSet<>();
                List<String> all = nodes.stream().map(n -> n.address).toList();
                int size = 1 + random.nextInt(Math.max(1, all.size() / 2));
                while (side.size() < size) {
                    side.add(all.get(random.nextInt(all.size())));
                }
                Set<String> rest = new LinkedHashSet<>(all);
                rest.removeAll(side);
                network.partition(side, rest);
                trace.note("partition " + side);
                loop.at(downFor, SimLoop.Kind.QUICK, () -> {
                    network.heal();
                    trace.note("heal");
                });
            }
            default -> throw new IllegalArgumentException(kind.toString());
        }
    }

    /**
     * From the last join or fault's end, every ring interval until the views agree (an event, as
     * nested waits may run the world far ahead of the outer loop): when did the ring converge?
     */
    private void pollConvergence() {
        if (convergedAt >= 0 || loop.now() > settled + 600_000 * MS) {
            return;
        }
        if (DEBUG_RING) {
            debugRing();
        }
        boolean allBack = nodes.stream().allMatch(n -> n.up() || n.killed); // a restart at this very time
        if (allBack && invariants.ringConverged()) {
            convergedAt = loop.now();
            trace.note("ring converged " + (convergedAt - settled) / MS + " ms after the last fault healed");
        } else {
            loop.at(RING_INTERVAL, SimLoop.Kind.QUICK, this::pollConvergence);
        }
    }

    /** Prints the simulated time, live nodes and messages every {@code everyNanos} (long runs; before run()). */
    void progress(long everyNanos) {
        long wall = System.nanoTime();
        Runnable[] report = new Runnable[1];
        report[0] = () -> {
            System.out.printf("  t=%d s: %d nodes up, %d messages, %d s wall%n", (loop.now() - SimLoop.EPOCH) / 1_000_000_000,
                    up().size(), network.messages(), (System.nanoTime() - wall) / 1_000_000_000);
            loop.at(everyNanos, SimLoop.Kind.QUICK, report[0]);
        };
        loop.at(everyNanos, SimLoop.Kind.QUICK, report[0]);
    }

    /** {@code -Dgod.sim.debugring=true}: print how the views differ while polling convergence. */
    private static final boolean DEBUG_RING = Boolean.getBoolean("god.sim.debugring");

    private void debugRing() {
        Set<String> upSet = new java.util.TreeSet<>();
        up().forEach(n -> upSet.add(n.address));
        Map<String, Integer> hashes = new HashMap<>();
        StringBuilder sb = new StringBuilder();
        int inactive = 0;
        for (SimNode n : up()) {
            if (n.node.state() != io.god.node.GodNode.State.ACTIVE) {
                inactive++;
                continue;
            }
            var r = n.node.membership().ring();
            hashes.merge(r.hash(), 1, Integer::sum);
            Set<String> seen = new java.util.TreeSet<>();
            r.members().forEach(m -> seen.add(m.address()));
            if (!seen.equals(upSet) && sb.length() < 600) {
                Set<String> extra = new java.util.TreeSet<>(seen);
                extra.removeAll(upSet);
                Set<String> missing = new java.util.TreeSet<>(upSet);
                missing.removeAll(seen);
                sb.append(" | ").append(n.address).append(" +").append(extra).append(" -").append(missing)
                        .append(" down=").append(n.node.membership().down().size());
            }
        }
        System.out.println("DEBUG t=" + (loop.now() - settled) / MS + " inactive=" + inactive + " hashes="
                + hashes.values() + sb);
    }

    private String lastRing = "";

    /** Traces each new ring (as the first live node sees it): joins, failures, migrations. */
    private void noteRing() {
        List<SimNode> up = up();
        if (up.isEmpty()) {
            return;
        }
        var ring = up.get(0).node.membership().ring();
        if (!ring.hash().equals(lastRing)) {
            lastRing = ring.hash();
            StringBuilder sb = new StringBuilder("ring of " + up.get(0).address + ":");
            ring.members().forEach(m -> sb.append(' ').append(m.address()).append('@').append(m.hex(), 0, 6));
            trace.note(sb.toString());
        }
    }

    /** Heals the network, waits for the ring to converge, then runs quiesceSyncs sync intervals. */
    private void quiesce(long deadline) {
        network.heal();
        network.faults(SimNetwork.Faults.NONE);
        trace.note("quiesce");
        long from = loop.now();
        while (!invariants.ringConverged() && loop.now() < deadline + 20_000 * MS) {
            loop.runUntil(loop.now() + RING_INTERVAL);
        }
        quiescedAfterNanos = loop.now() - from;
        trace.note("ring converged after " + quiescedAfterNanos / MS + " ms");
        if (DEBUG_RING) {
            System.out.println("DEBUG quiesce: converged after " + quiescedAfterNanos / MS + " ms");
        }
        // migrations may still move positions: quiet means quiesceSyncs sync intervals without a ring change
        long[] before0 = network.messagesByOp();
        long all0 = network.messages();
        long t0 = loop.now();
        int quiet = 0;
        long limit = loop.now() + 120_000 * MS;
        while (quiet < config.quiesceSyncs()) {
            String before = lastRing;
            loop.runUntil(loop.now() + SYNC_INTERVAL);
            noteRing();
            quiet = before.equals(lastRing) ? quiet + 1 : 0;
            if (loop.now() > limit) {
                throw new InvariantViolation("the ring kept changing for 120 s after the faults healed");
            }
        }
        double nodeTicks = (double) up().size() * (loop.now() - t0) / RING_INTERVAL;
        steadyRing = (ringMessages(network.messagesByOp()) - ringMessages(before0)) / nodeTicks;
        steadyAll = (network.messages() - all0) / nodeTicks;
    }
}

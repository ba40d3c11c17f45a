package io.god.chaos;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;

/**
 * One kind of fault: {@link #inject} starts it on nodes drawn from the campaign's seeded Random and
 * says what it did; {@link #heal} undoes it. The schedule (which fault, which nodes) depends only on the seed.
 */
interface Nemesis {

    String name();

    String inject(Cluster c, Random r) throws Exception;

    void heal(Cluster c) throws Exception;

    /** What the last heal found beyond undoing the fault (e.g. a node that had exited), or null. */
    default String healNote() {
        return null;
    }

    /** Every implemented nemesis by name, in a fixed order. */
    static List<Nemesis> all() {
        return List.of(new IsolateOne(), new RandomHalves(), new Bridge(), new OneWay(), new Kill(), new Pause(),
                new Loss(), new Skew(false), new Skew(true), new DiskFull());
    }

    /** Every node of {@code a} and every node of {@code b} stop exchanging packets (both directions). */
    static void cutApart(Cluster c, List<Integer> a, List<Integer> b) {
        for (int i : a) {
            c.net().cut(i, b);
        }
        for (int j : b) {
            c.net().cut(j, a);
        }
    }

    /** Nemeses run only when named ({@code god.chaos.nemeses}): not in {@link #all()}, so not in the CI campaign. */
    static List<Nemesis> optIn() {
        return List.of(new FsyncFail());
    }

    static Nemesis named(String name) {
        List<Nemesis> known = new ArrayList<>(all());
        known.addAll(optIn());
        return known.stream().filter(n -> n.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no nemesis named " + name + "; known: "
                        + known.stream().map(Nemesis::name).toList()));
    }

    /** One node loses contact with every other node (clients still reach it). */
    final class IsolateOne implements Nemesis {
        @Override
        public String name() {
            return "isolate-one";
        }

        @Override
        public String inject(Cluster c, Random r) {
            int victim = r.nextInt(c.size());
            List<Integer> others = IntStream.range(0, c.size()).boxed().toList();
            c.net().cut(victim, others);
            for (int j : others) {
                c.net().cut(j, List.of(victim));
            }
            return "isolated node " + victim;
        }

        @Override
        public void heal(Cluster c) {
            c.net().heal();
        }
    }

    /** The nodes split into two random non-empty halves that cannot reach each other. */
    final class RandomHalves implements Nemesis {
        @Override
        public String name() {
            return "random-halves";
        }

        @Override
        public String inject(Cluster c, Random r) {
            List<Integer> order = new ArrayList<>(IntStream.range(0, c.size()).boxed().toList());
            Collections.shuffle(order, r);
            int cut = c.size() / 2; // the smaller half first: {order[0..cut)} | {order[cut..)}
            List<Integer> a = order.subList(0, Math.max(1, cut));
            List<Integer> b = order.subList(Math.max(1, cut), order.size());
            cutApart(c, a, b);
            return "partition " + a + " from " + b;
        }

        @Override
        public void heal(Cluster c) {
            c.net().heal();
        }
    }

    /** kill -9 of one node; the heal restarts it on the same data directory. */
    final class Kill implements Nemesis {
        private int victim = -1;

        @Override
        public String name() {
            return "kill";
        }

        @Override
        public String inject(Cluster c, Random r) throws InterruptedException {
            victim = r.nextInt(c.size());
            c.node(victim).kill();
            return "kill -9 node " + victim;
        }

        @Override
        public void heal(Cluster c) throws Exception {
            if (victim >= 0) {
                c.start(victim);
                victim = -1;
            }
        }
    }

    /** SIGSTOP of one node (a long GC pause, a frozen VM); the heal sends SIGCONT. */
    final class Pause implements Nemesis {
        private int victim = -1;

        @Override
        public String name() {
            return "pause";
        }

        @Override
        public String inject(Cluster c, Random r) {
            victim = r.nextInt(c.size());
            c.node(victim).pause();
            return "SIGSTOP node " + victim;
        }

        @Override
        public void heal(Cluster c) {
            if (victim >= 0) {
                c.node(victim).resume();
                victim = -1;
            }
        }
    }

    /** Random packet loss (iptables statistic match, both directions) on a random node. */
    final class Loss implements Nemesis {
        static final double SHARE = 0.3;

        @Override
        public String name() {
            return "loss";
        }

        @Override
        public String inject(Cluster c, Random r) {
            int victim = r.nextInt(c.size());
            c.net().lossy(victim, SHARE);
            return "node " + victim + " drops " + (int) (SHARE * 100) + " % of its packets";
        }

        @Override
        public void heal(Cluster c) {
            c.net().heal();
        }
    }

    /**
     * A majority "bridge" (Jepsen's): two halves that cannot reach each other, and one node that reaches
     * both — reachability that is not transitive (with 3 nodes: a—b—c, a and c cut apart).
     */
    final class Bridge implements Nemesis {
        @Override
        public String name() {
            return "bridge";
        }

        @Override
        public String inject(Cluster c, Random r) {
            List<Integer> order = new ArrayList<>(IntStream.range(0, c.size()).boxed().toList());
            Collections.shuffle(order, r);
            int bridge = order.get(0);
            List<Integer> rest = order.subList(1, order.size());
            List<Integer> a = rest.subList(0, rest.size() / 2);
            List<Integer> b = rest.subList(rest.size() / 2, rest.size());
            cutApart(c, a, b);
            return "bridge node " + bridge + " between " + a + " and " + b;
        }

        @Override
        public void heal(Cluster c) {
            c.net().heal();
        }
    }

    /** One node's packets to the others are dropped; theirs to it still arrive (an asymmetric link). */
    final class OneWay implements Nemesis {
        @Override
        public String name() {
            return "one-way";
        }

        @Override
        public String inject(Cluster c, Random r) {
            int victim = r.nextInt(c.size());
            List<Integer> others = IntStream.range(0, c.size()).filter(i -> i != victim).boxed().toList();
            c.net().cutOneWay(victim, others);
            return "node " + victim + " cannot send to " + others;
        }

        @Override
        public void heal(Cluster c) {
            c.net().heal();
        }
    }

    /**
     * One node restarted with its wall clock off (libfaketime): by 1–30 s, within the nodes' skew bound
     * ({@code god.time.max-skew}, which the time network absorbs), or — {@code skew-beyond} — by the bound
     * plus 1–30 s, where the node's stamps stay off by the excess: its writes are then treated as those of
     * an unavailable node, not as violations ({@link KnownIssues#beyondSkewBound}). Sign and size are seeded.
     * The heal restarts it on the real clock. Both restarts are a kill -9.
     */
    final class Skew implements Nemesis {
        static final String BEYOND = "skew-beyond";
        private final boolean beyond;
        private int victim = -1;

        Skew(boolean beyond) {
            this.beyond = beyond;
        }

        @Override
        public String name() {
            return beyond ? BEYOND : "skew";
        }

        @Override
        public String inject(Cluster c, Random r) throws Exception {
            victim = r.nextInt(c.size());
            int seconds = (1 + r.nextInt(30)) + (beyond ? NodeProcess.MAX_SKEW_SECONDS : 0);
            int offset = r.nextBoolean() ? seconds : -seconds;
            restart(c, victim, offset);
            return "node " + victim + " restarted with its clock " + (offset > 0 ? "+" : "") + offset + " s (bound "
                    + NodeProcess.MAX_SKEW_SECONDS + " s)";
        }

        @Override
        public void heal(Cluster c) throws Exception {
            if (victim >= 0) {
                restart(c, victim, 0);
                victim = -1;
            }
        }

        private static void restart(Cluster c, int i, int offsetSeconds) throws Exception {
            c.node(i).kill();
            c.node(i).clockOffset(offsetSeconds);
            c.start(i);
        }
    }

    /**
     * One node's data directory (its own small tmpfs, {@link Disks}) filled to the last byte: its writes hit
     * ENOSPC. The heal deletes the filler; a node that exited meanwhile is restarted and the heal says so.
     */
    final class DiskFull implements Nemesis {
        private int victim = -1;
        private String note;

        @Override
        public String name() {
            return "disk-full";
        }

        @Override
        public String inject(Cluster c, Random r) throws Exception {
            victim = r.nextInt(c.size());
            long bytes = Disks.fill(c.node(victim).dataDir());
            return "filled node " + victim + "'s " + Disks.SIZE_MIB + " MiB disk (" + bytes / 1024 + " KiB filler)";
        }

        @Override
        public void heal(Cluster c) throws Exception {
            note = null;
            if (victim >= 0) {
                Disks.free(c.node(victim).dataDir());
                Integer exit = c.node(victim).exitCode();
                if (exit != null) {
                    note = "node " + victim + " had exited (code " + exit + ") on the full disk; restarted";
                    c.start(victim);
                }
                victim = -1;
            }
        }

        @Override
        public String healNote() {
            return note;
        }
    }

    /**
     * Every fsync of one node fails (EIO), through the node's disk seam: the nodes run with the testing-only
     * {@code god.testing.fail-fsync} when this nemesis is in the run, and the fault creates the trigger file
     * {@code fail-fsync} in the victim's data directory. The node must refuse the writes whose fsync failed and
     * every later one, and report liveness DOWN (never retry the fsync: PostgreSQL's fsyncgate); the heal notes
     * what {@code /q/health/live} said, deletes the trigger and restarts the node on its data directory (kill -9
     * and start, as Kubernetes does on a failed liveness probe): it recovers from its log, the ring repairs the
     * rest. Opt-in ({@link #optIn()}): a testing-only node setting, so not in the CI campaign.
     */
    final class FsyncFail implements Nemesis {
        static final String NAME = "fsync-fail";
        /** The node setting (NodeSettings.TESTING_FAIL_FSYNC) and its trigger file (NodeSettings.FAIL_FSYNC_TRIGGER). */
        static final String SETTING = "-Dgod.testing.fail-fsync=true";
        static final String TRIGGER = "fail-fsync";
        private int victim = -1;
        private String note;

        @Override
        public String name() {
            return NAME;
        }

        @Override
        public String inject(Cluster c, Random r) throws Exception {
            victim = r.nextInt(c.size());
            java.nio.file.Files.writeString(c.node(victim).dataDir().resolve(TRIGGER), "chaos fsync-fail\n");
            return "every fsync of node " + victim + " fails";
        }

        @Override
        public void heal(Cluster c) throws Exception {
            note = null;
            if (victim >= 0) {
                // paths in the node's data directory shortened to their names: the report stays readable
                note = "node " + victim + " liveness " + c.liveness(victim).replace(c.node(victim).dataDir() + "/", "")
                        .replace("java.io.IOException: ", "") + "; restarted";
                java.nio.file.Files.deleteIfExists(c.node(victim).dataDir().resolve(TRIGGER));
                c.node(victim).kill();
                c.start(victim);
                victim = -1;
            }
        }

        @Override
        public String healNote() {
            return note;
        }
    }
}

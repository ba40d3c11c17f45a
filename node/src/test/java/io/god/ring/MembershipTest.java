package io.god.ring;

import static org.assertj.core.api.Assertions.assertThat;

import io.god.cluster.MembershipLink;
import io.god.time.Scheduler;
import io.god.transport.InMemoryNetwork;
import io.god.transport.Transport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The membership state machine alone, single-threaded on simulated time: ticks are called by hand,
 * messages go through the in-memory network with a direct executor, timeouts fire on a manual clock.
 */
class MembershipTest {

    /** Manual time: tasks run when {@link #advance} passes their due time. */
    static final class ManualScheduler implements Scheduler {
        record Task(long due, long seq, Runnable run) {
        }

        long now;
        long seq;
        final PriorityQueue<Task> tasks = new PriorityQueue<>((a, b) -> a.due != b.due ? Long.compare(a.due, b.due)
                : Long.compare(a.seq, b.seq));

        @Override
        public Cancellable schedule(long delayNanos, Runnable task) {
            Task t = new Task(now + delayNanos, seq++, task);
            tasks.add(t);
            return () -> tasks.remove(t);
        }

        void advance(Duration d) {
            long until = now + d.toNanos();
            while (!tasks.isEmpty() && tasks.peek().due <= until) {
                Task t = tasks.poll();
                now = t.due;
                t.run.run();
            }
            now = until;
        }
    }

    final ManualScheduler time = new ManualScheduler();
    final InMemoryNetwork net = new InMemoryNetwork(time, Runnable::run, 5);
    final List<Membership> nodes = new ArrayList<>();
    final List<Transport> transports = new ArrayList<>();
    /** Each node's wiring to its transport: membership itself does no I/O. */
    final java.util.Map<Membership, MembershipLink> links = new java.util.IdentityHashMap<>();

    Membership node(int i, List<String> seeds) {
        return node(i, seeds, 0);
    }

    /** A node with replication factor {@code n} (0: sends none and accepts any, as the previous version). */
    Membership node(int i, List<String> seeds, int n) {
        Transport t = net.transport("n" + i + ":1");
        Membership m = new Membership(new Membership.Config("n" + i + ":1", seeds, null, i, Duration.ofMillis(100), 3,
                1000, Membership.Config.NEIGHBOURS, Membership.Config.FANOUT, Membership.Config.PROBES, n),
                new Random(i), null, p -> { });
        links.put(m, new MembershipLink(m, t));
        t.serve(m::handle);
        nodes.add(m);
        transports.add(t);
        return m;
    }

    final Set<Membership> dead = new HashSet<>();

    void round() {
        for (Membership m : nodes) {
            if (!dead.contains(m)) {
                links.get(m).tick();
            }
        }
        time.advance(Duration.ofMillis(20));
    }

    static boolean converged(List<Membership> group) {
        Set<String> hashes = new HashSet<>();
        for (Membership m : group) {
            if (m.state() != Membership.State.ACTIVE || m.ring().size() != group.size()) {
                return false;
            }
            hashes.add(m.ring().hash());
        }
        return hashes.size() == 1;
    }

    int roundsUntil(java.util.function.BooleanSupplier done, int max) {
        for (int r = 1; r <= max; r++) {
            round();
            if (done.getAsBoolean()) {
                return r;
            }
        }
        throw new AssertionError("not reached in " + max + " rounds: " + nodes.stream().map(Membership::ring).toList());
    }

    /**
     * N travels with JOIN: a ring refuses a joiner with another N, and that joiner founds no ring of its own even
     * when it is the first seed; a joiner of the previous version (no N sent) and one with the same N are taken.
     */
    @Test
    void aJoinerWithAnotherRedundancyIsRefusedAndFoundsNoRing() {
        List<String> seeds = List.of("n0:1", "n1:1");
        node(0, seeds, 3);
        node(1, seeds, 3);
        roundsUntil(() -> converged(nodes), 20);

        // its own first seed, so it would found a ring if nobody answered: it must not beside a ring that refused it
        Membership other = node(9, List.of("n9:1", "n0:1"), 2);
        for (int r = 0; r < 30; r++) {
            round();
        }
        assertThat(other.state()).as("refused, and no ring of its own").isEqualTo(Membership.State.JOINING);
        assertThat(nodes.get(0).ring().size()).as("the ring did not take it").isEqualTo(2);

        Membership old = node(3, List.of("n0:1", "n3:1"), 0); // the previous version sends no N
        roundsUntil(() -> old.state() == Membership.State.ACTIVE && nodes.get(0).ring().size() == 3, 20);
        Membership same = node(4, List.of("n0:1", "n4:1"), 3);
        roundsUntil(() -> same.state() == Membership.State.ACTIVE && nodes.get(0).ring().size() == 4, 20);
        assertThat(other.state()).isEqualTo(Membership.State.JOINING);
    }

    @Test
    void tenNodesStartedTogetherConvergeDeterministicallyAndDetectAFailure() {
        List<String> seeds = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            seeds.add("n" + i + ":1");
        }
        for (int i = 0; i < 10; i++) {
            node(i, seeds);
        }
        int rounds = roundsUntil(() -> converged(nodes), 20);
        assertThat(rounds).isLessThanOrEqualTo(5);
        Set<String> positions = new HashSet<>();
        nodes.forEach(m -> positions.add(m.self().hex()));
        assertThat(positions).hasSize(10);

        // a node disappears: after 3 failed pings every other node removed it
        transports.get(4).close();
        dead.add(nodes.get(4));
        List<Membership> rest = new ArrayList<>(nodes);
        rest.remove(4);
        int detect = roundsUntil(() -> converged(rest), 20);
        assertThat(detect).isBetween(3, 6);
        assertThat(rest.get(0).down()).containsExactly("n4:1");

        // it comes back (same address, same position): the probes re-admit it
        transports.get(4).serve(nodes.get(4)::handle);
        dead.clear();
        roundsUntil(() -> converged(nodes), 20);
    }

    @Test
    void partitionedHalvesSplitAndHeal() {
        for (int i = 0; i < 6; i++) {
            node(i, List.of("n0:1"));
        }
        roundsUntil(() -> converged(nodes), 20);
        List<String> a = List.of("n0:1", "n1:1", "n2:1");
        List<String> b = List.of("n3:1", "n4:1", "n5:1");
        net.partition(a, b);
        roundsUntil(() -> converged(nodes.subList(0, 3)) && converged(nodes.subList(3, 6)), 40);
        net.heal();
        roundsUntil(() -> converged(nodes), 40);
    }

    @Test
    void withoutAReachableMemberOnlyTheFirstSeedFounds() {
        Membership second = node(1, List.of("n0:1", "n1:1"));
        for (int r = 0; r < 5; r++) {
            round();
        }
        assertThat(second.state()).isEqualTo(Membership.State.JOINING);
        node(0, List.of("n0:1", "n1:1"));
        roundsUntil(() -> converged(nodes), 10);
    }
}

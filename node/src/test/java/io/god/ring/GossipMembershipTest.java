package io.god.ring;

import static org.assertj.core.api.Assertions.assertThat;

import io.god.cluster.MembershipLink;
import io.god.transport.InMemoryNetwork;
import io.god.transport.Transport;
import io.god.wire.Ops;
import io.god.wire.WireReader;
import io.god.wire.WireWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * The scalable membership on rings larger than its all-to-all threshold (2·3 + 2 + 1 = 9 members):
 * the bounded pick set, death notices spreading to members that never pinged the dead node,
 * refutation by a member that was declared dead and by a restarted node, leaves that gossip cannot
 * undo, and a per-member message rate that does not grow with the ring. Single-threaded: ticks by
 * hand, the in-memory network with a direct executor, timeouts on a manual clock.
 */
class GossipMembershipTest {

    final MembershipTest.ManualScheduler time = new MembershipTest.ManualScheduler();
    final InMemoryNetwork net = new InMemoryNetwork(time, Runnable::run, 5);
    final List<Membership> nodes = new ArrayList<>();
    final List<Transport> transports = new ArrayList<>();
    /** Each node's wiring to its transport: membership itself does no I/O. */
    final Map<Membership, MembershipLink> links = new java.util.IdentityHashMap<>();
    final Set<Membership> stopped = new HashSet<>();
    /** Pings sent, per callee address. */
    final Map<String, Integer> pingsTo = new HashMap<>();
    /** Who pinged a callee, per callee address. */
    final Map<String, Set<String>> pingers = new HashMap<>();
    long pings;

    static String addr(int i) {
        return "n" + i + ":1";
    }

    /** A transport that counts the pings its node sends. */
    Transport counting(Transport t) {
        return new io.god.transport.WrappedTransport(t) {
            @Override
            public CompletableFuture<byte[]> call(String to, int op, byte[] payload, Duration deadline) {
                if (op == Ops.PING) {
                    pings++;
                    pingsTo.merge(to, 1, Integer::sum);
                    pingers.computeIfAbsent(to, k -> new HashSet<>()).add(t.address());
                }
                return t.call(to, op, payload, deadline);
            }
        };
    }

    Membership node(int i, long incarnation) {
        Transport t = counting(net.transport(addr(i)));
        if (transports.size() > i) {
            transports.set(i, t);
        } else {
            transports.add(t);
        }
        Membership m = new Membership(new Membership.Config(addr(i), List.of(addr(0)), null, incarnation,
                Duration.ofMillis(100), 3, 1000), new Random(i), null, p -> { });
        links.put(m, new MembershipLink(m, t));
        t.serve(m::handle);
        return m;
    }

    void ring(int n) {
        for (int i = 0; i < n; i++) {
            nodes.add(node(i, i));
        }
        int rounds = roundsUntil(() -> converged(nodes), 100);
        assertThat(rounds).as("a join storm of %d nodes converges", n).isLessThan(60);
    }

    void round() {
        for (Membership m : nodes) {
            if (!stopped.contains(m)) {
                links.get(m).tick();
            }
        }
        time.advance(Duration.ofMillis(20));
    }

    static boolean converged(List<Membership> group) {
        return MembershipTest.converged(group);
    }

    int roundsUntil(BooleanSupplier done, int max) {
        for (int r = 1; r <= max; r++) {
            round();
            if (done.getAsBoolean()) {
                return r;
            }
        }
        throw new AssertionError("not reached in " + max + " rounds");
    }

    List<Membership> without(int i) {
        List<Membership> rest = new ArrayList<>(nodes);
        rest.remove(i);
        return rest;
    }

    @Test
    void eachMemberPingsItsNeighboursAndAFewRandomMembers() {
        List<Member> members = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            byte[] p = new byte[Positions.SIZE];
            p[0] = (byte) (i * 5);
            members.add(new Member(p, addr(i), 1));
        }
        View ring = new View();
        members.forEach(ring::put);
        View small = new View();
        members.subList(0, 9).forEach(small::put);
        Member self = members.get(10);
        List<String> picked = PingTargets.pick(ring, self, 3, 2, new Random(1));
        assertThat(picked).hasSize(8).doesNotContain(self.address())
                .contains(addr(7), addr(8), addr(9), addr(11), addr(12), addr(13));
        assertThat(PingTargets.pick(ring, members.get(0), 3, 2, new Random(1)))
                .as("wraps around").contains(addr(47), addr(48), addr(49), addr(1), addr(2), addr(3));
        assertThat(PingTargets.pick(small, members.get(4), 3, 2, new Random(1)))
                .as("a ring of 2k + fanout + 1 pings all-to-all").hasSize(8);
        Set<String> random = new HashSet<>();
        for (int seed = 0; seed < 20; seed++) {
            random.addAll(PingTargets.pick(ring, self, 3, 2, new Random(seed)));
        }
        assertThat(random.size()).as("the random part varies").isGreaterThan(20);
    }

    /** A crash: the node stops ticking and its endpoint refuses connections. */
    void crash(int i) {
        stopped.add(nodes.get(i));
        transports.get(i).close();
    }

    @Test
    void aDeathNoticeReachesMembersThatNeverPingedTheDeadNode() {
        ring(40);
        String gone = addr(17);
        pingers.clear();
        crash(17);
        int rounds = roundsUntil(() -> converged(without(17)), 30);
        assertThat(rounds).isLessThanOrEqualTo(12);
        Set<String> neverPinged = new HashSet<>();
        for (Membership m : without(17)) {
            assertThat(m.down()).contains(gone);
            if (!pingers.getOrDefault(gone, Set.of()).contains(m.self().address())) {
                neverPinged.add(m.self().address());
            }
        }
        assertThat(neverPinged).as("members that learnt it from a notice only").hasSizeGreaterThan(10);
    }

    @Test
    void aMemberCutOffRefutesItsDeathNoticeWhenThePartitionHeals() {
        ring(30);
        long before = nodes.get(5).self().incarnation();
        List<String> rest = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            if (i != 5) {
                rest.add(addr(i));
            }
        }
        net.partition(List.of(addr(5)), rest);
        roundsUntil(() -> converged(without(5)), 30);
        assertThat(nodes.get(0).down()).contains(addr(5));
        net.heal();
        roundsUntil(() -> converged(nodes), 40);
        assertThat(nodes.get(5).self().incarnation()).as("it outbid the notice").isGreaterThan(before);
        for (Membership m : nodes) {
            assertThat(m.ring().byAddress(addr(5)).incarnation()).isEqualTo(nodes.get(5).self().incarnation());
        }
    }

    @Test
    void aRestartedNodeOverridesTheNoticeWithItsNewIncarnation() {
        ring(30);
        crash(6);
        roundsUntil(() -> converged(without(6)), 30);
        Membership restarted = node(6, 1_000);
        nodes.set(6, restarted);
        roundsUntil(() -> converged(nodes), 40);
        for (Membership m : nodes) {
            assertThat(m.ring().byAddress(addr(6)).incarnation()).isGreaterThanOrEqualTo(1_000);
            assertThat(m.down()).doesNotContain(addr(6));
        }
    }

    @Test
    void aMemberWithRecentDirectContactKeepsItAndTellsItToRefute() {
        ring(20);
        Membership a = nodes.get(0);
        Member b = nodes.get(1).self();
        long before = b.incarnation();
        // b pings a, and a notice about b's current entry (from some other member) rides along
        WireWriter w = new WireWriter();
        MemberCodec.writeMember(w, b);
        w.string(a.ring().hash());
        Rumors.write(w, List.of(new Rumors.Rumor(true, b)));
        byte[] reply = a.handle(Ops.PING, w.toBytes()).join();
        assertThat(a.ring().byAddress(b.address())).as("direct contact wins").isNotNull();
        WireReader r = new WireReader(reply);
        Member from = MemberCodec.readMember(r);
        r.string();
        assertThat(r.bool()).as("same hash: no members list").isFalse();
        List<Rumors.Rumor> told = Rumors.read(r, 64);
        assertThat(told).as("a tells b about the notice").contains(new Rumors.Rumor(true, b));
        // b hears of it (a's next ping carries the same): it refutes with a higher incarnation
        WireWriter next = new WireWriter();
        MemberCodec.writeMember(next, from);
        next.string("");
        Rumors.write(next, told);
        nodes.get(1).handle(Ops.PING, next.toBytes()).join();
        assertThat(nodes.get(1).self().incarnation()).as("b refuted").isGreaterThan(before);
        for (int round = 0; round < 10; round++) {
            round();
            for (Membership m : nodes) {
                assertThat(m.ring().byAddress(b.address())).as("nobody dropped b").isNotNull();
            }
        }
        roundsUntil(() -> converged(nodes), 20);
        assertThat(a.ring().byAddress(b.address()).incarnation()).isGreaterThan(before);
    }

    @Test
    void aMemberThatLeftIsNotReAddedByGossipOnlyByANewIncarnation() {
        ring(20);
        Member left = nodes.get(3).self();
        stopped.add(nodes.get(3));
        links.get(nodes.get(3)).leave();
        roundsUntil(() -> converged(without(3)), 10);
        Membership a = nodes.get(0);
        // a members list and an "alive" rumor that still carry the old entry
        WireWriter list = new WireWriter();
        MemberCodec.writeMembers(list, List.of(left));
        MemberCodec.writeMembers(list, List.of());
        a.handle(Ops.GOSSIP, list.toBytes()).join();
        Member other = nodes.get(4).self();
        WireWriter ping = new WireWriter();
        MemberCodec.writeMember(ping, other);
        ping.string("");
        Rumors.write(ping, List.of(new Rumors.Rumor(false, left)));
        a.handle(Ops.PING, ping.toBytes()).join();
        for (int r = 0; r < 10; r++) {
            round();
        }
        assertThat(a.ring().byAddress(left.address())).isNull();
        assertThat(converged(without(3))).isTrue();
        // the node restarts (a new process: a higher incarnation) and pings a: it is back
        WireWriter back = new WireWriter();
        MemberCodec.writeMember(back, new Member(left.position(), left.address(), left.incarnation() + 100));
        back.string("");
        Rumors.write(back, List.of());
        a.handle(Ops.PING, back.toBytes()).join();
        assertThat(a.ring().byAddress(left.address())).isNotNull();
    }

    /** The index of the member at distance {@code steps} from member i in its own ring order. */
    int around(int i, int steps) {
        List<Member> order = nodes.get(i).ring().members();
        int at = order.indexOf(nodes.get(i).ring().byAddress(addr(i)));
        String a = order.get(Math.floorMod(at + steps, order.size())).address();
        return Integer.parseInt(a.substring(1, a.indexOf(':')));
    }

    @Test
    void aChangeFarAwayLeavesTheNeighbourhoodStableAChangeNextDoorDoesNot() {
        ring(30);
        roundsUntil(() -> nodes.get(0).neighbourhoodStableTicks() >= 5, 40);
        int far = around(0, 15);
        crash(far);
        roundsUntil(() -> converged(without(far)), 30);
        Membership a = nodes.get(0);
        assertThat(a.ring().byAddress(addr(far))).as("the far member left a's view").isNull();
        assertThat(a.stableTicks()).as("the whole view changed").isLessThan(20);
        assertThat(a.neighbourhoodStableTicks()).as("its neighbourhood did not")
                .isGreaterThan(a.stableTicks() + 2);
        long beforeNear = a.neighbourhoodStableTicks();
        int near = around(0, 1);
        crash(near);
        List<Membership> live = new ArrayList<>(nodes);
        live.remove(nodes.get(far));
        live.remove(nodes.get(near));
        roundsUntil(() -> converged(live), 30);
        assertThat(a.ring().byAddress(addr(near))).isNull();
        assertThat(a.neighbourhoodStableTicks()).as("its successor went: the neighbourhood changed")
                .isLessThan(beforeNear).isLessThanOrEqualTo(a.stableTicks());
    }

    /** Pings per member per round over 20 rounds of a converged ring of n members. */
    static double pingRate(int n) {
        GossipMembershipTest t = new GossipMembershipTest();
        t.ring(n);
        t.pings = 0;
        for (int r = 0; r < 20; r++) {
            t.round();
        }
        assertThat(converged(t.nodes)).isTrue();
        return t.pings / (20.0 * n);
    }

    @Test
    void pingsPerMemberDoNotGrowWithTheRing() {
        double small = pingRate(9);
        double medium = pingRate(30);
        double large = pingRate(90);
        assertThat(small).as("all-to-all below the threshold").isEqualTo(8.0);
        assertThat(medium).isLessThanOrEqualTo(8.0);
        assertThat(large).as("2·3 neighbours + 2 random, not n − 1 = 89").isLessThanOrEqualTo(8.0);
    }
}

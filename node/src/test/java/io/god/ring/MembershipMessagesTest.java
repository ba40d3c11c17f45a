package io.god.ring;

import static org.assertj.core.api.Assertions.assertThat;

import io.god.wire.Ops;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/**
 * Membership is messages in, messages out (DESIGN §4): two state machines driven by hand, without any
 * network — each {@link Outbound} is handed to the other node's {@link Membership#handle} or reported as
 * unanswered, as the node's wiring (io.god.cluster.MembershipLink) does with the transport.
 */
class MembershipMessagesTest {

    final Membership a = node("a:1", 1);
    final Membership b = node("b:1", 2);

    static Membership node(String address, long incarnation) {
        return new Membership(new Membership.Config(address, List.of("a:1", "b:1"), null, incarnation,
                Duration.ofMillis(100), 3, 1000), new Random(incarnation), null, p -> { });
    }

    /** Hands {@code m} to {@code to} and its reply (or refusal) back to {@code from}; returns the follow-ups. */
    static List<Outbound> deliver(Membership from, Outbound m, Membership to) {
        CompletableFuture<byte[]> reply = to.handle(m.op(), m.payload());
        try {
            return from.answered(m, reply.join());
        } catch (CompletionException e) {
            return from.unanswered(m, new Outbound.NoAnswer(true, e.getCause().getMessage()));
        }
    }

    static Outbound only(List<Outbound> out, Outbound.Kind kind, String to) {
        assertThat(out).hasSize(1);
        assertThat(out.get(0).kind()).isEqualTo(kind);
        assertThat(out.get(0).to()).isEqualTo(to);
        return out.get(0);
    }

    /** Joins both: the first seed founds the ring when nobody answers, the second joins through it. */
    void joinBoth() {
        Outbound aAsks = only(a.tick(), Outbound.Kind.JOIN, "b:1");
        Outbound bAsks = only(b.tick(), Outbound.Kind.JOIN, "a:1");
        assertThat(deliver(b, bAsks, a)).isEmpty(); // a is no member yet: it refuses
        assertThat(b.state()).as("only the first seed founds a ring").isEqualTo(Membership.State.JOINING);
        assertThat(a.tick()).as("one join attempt at a time").isEmpty();
        deliver(a, aAsks, b);
        assertThat(a.state()).isEqualTo(Membership.State.ACTIVE);

        deliver(b, only(b.tick(), Outbound.Kind.JOIN, "a:1"), a);
        assertThat(b.state()).isEqualTo(Membership.State.ACTIVE);
        assertThat(b.ring().size()).isEqualTo(2);
        deliver(b, only(b.tick(), Outbound.Kind.PING, "a:1"), a); // a learns of b from b's ping
        assertThat(a.ring().hash()).isEqualTo(b.ring().hash());
    }

    @Test
    void aRingFormsFromMessagesAlone() {
        joinBoth();
        assertThat(a.ring().size()).isEqualTo(2);
        assertThat(a.ring().byAddress("b:1")).isNotNull();
    }

    @Test
    void aPingWithoutAnAnswerCountsAsAFailureAndThreeRemoveTheMember() {
        joinBoth();
        for (int i = 1; i <= 3; i++) {
            Outbound ping = only(a.tick(), Outbound.Kind.PING, "b:1");
            assertThat(a.tick()).as("no second ping while one is in flight").isEmpty();
            assertThat(a.unanswered(ping, new Outbound.NoAnswer(false, "deadline passed"))).isEmpty();
            assertThat(a.ring().size()).isEqualTo(i < 3 ? 2 : 1);
        }
        assertThat(a.down()).containsExactly("b:1");
        assertThat(a.takeDeclaredDead()).as("alone in its view").isTrue();
    }

    @Test
    void aLeaveIsMessagesToEveryMemberAndTheyDropTheNode() {
        joinBoth();
        Membership.Leaving leaving = b.leave();
        assertThat(leaving.members()).extracting(Member::address).containsExactly("a:1");
        Outbound tell = only(leaving.messages(), Outbound.Kind.LEAVE, "a:1");
        assertThat(tell.op()).isEqualTo(Ops.LEAVE);
        assertThat(b.tick()).as("a node that left sends nothing").isEmpty();
        deliver(b, tell, a);
        assertThat(a.ring().size()).isEqualTo(1);
        assertThat(a.expected().size()).as("a drained member is not expected").isEqualTo(1);
    }

    @Test
    void removingAnAbsentMemberTellsTheView() {
        Membership c = node("c:1", 3);
        joinBoth();
        java.util.Map<String, Membership> nodes = java.util.Map.of("a:1", a, "b:1", b, "c:1", c);
        for (int r = 0; r < 3; r++) { // c joins through a and b, and pings both (a small ring: everyone)
            for (Outbound m : c.tick()) {
                deliver(c, m, nodes.get(m.to()));
            }
        }
        assertThat(a.ring().size()).isEqualTo(3);
        for (int i = 0; i < 3; i++) { // c stops answering a
            for (Outbound ping : a.tick()) {
                if (ping.to().equals("c:1")) {
                    a.unanswered(ping, new Outbound.NoAnswer(false, "unreachable"));
                } else {
                    deliver(a, ping, b);
                }
            }
        }
        assertThat(a.absent()).extracting(Member::address).containsExactly("c:1");
        Membership.Removal removal = a.remove("c:1");
        assertThat(removal.member().address()).isEqualTo("c:1");
        Outbound tell = only(removal.messages(), Outbound.Kind.REMOVE, "b:1");
        assertThat(a.unanswered(tell, new Outbound.NoAnswer(false, "unreachable"))).as("logged, nothing more")
                .isEmpty();
        assertThat(a.absent()).isEmpty();
        assertThat(a.remove("c:1").member()).as("idempotent").isNull();
    }
}

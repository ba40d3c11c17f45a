package io.god.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Which replicas a read asks when the client's view marks some as catching up or absent. */
class ReadReplicasTest {

    static final List<GodClient.Member> SET = List.of(new GodClient.Member(new byte[] {1}, "a:1"),
            new GodClient.Member(new byte[] {2}, "b:1"), new GodClient.Member(new byte[] {3}, "c:1"));

    static List<String> asked(Set<String> catchingUp) {
        return asked(SET, catchingUp);
    }

    static List<String> asked(List<GodClient.Member> ring, Set<String> catchingUp) {
        return RingView.readable(SET, ring, catchingUp).stream().map(GodClient.Member::address).toList();
    }

    @Test
    void membersCatchingUpAreLeftOutOnlyWhileAReadQuorumRemains() {
        assertThat(asked(Set.of())).containsExactly("a:1", "b:1", "c:1");
        assertThat(asked(Set.of("b:1"))).as("2 of 3 still a read quorum").containsExactly("a:1", "c:1");
        // a member back from a partition lists the other two as catching up: its lone answer must not stand for
        // the set (it may miss writes the two acknowledged while it was cut off)
        assertThat(asked(Set.of("a:1", "b:1"))).containsExactly("a:1", "b:1", "c:1");
        assertThat(asked(Set.of("a:1", "b:1", "c:1"))).containsExactly("a:1", "b:1", "c:1");
    }

    @Test
    void absentReplicasAreAskedWhenTheRingHoldsLessThanAReadQuorumOfTheSet() {
        // the view of a node in a minority partition: it lists b and c as absent; a alone may lack writes the
        // majority acknowledged (chaos, seed 4864082276640774237), so the client asks b and c itself
        assertThat(asked(SET.subList(0, 1), Set.of())).containsExactly("a:1", "b:1", "c:1");
        assertThat(asked(SET.subList(0, 2), Set.of())).as("a and b are a read quorum").containsExactly("a:1", "b:1");
        assertThat(asked(SET.subList(0, 2), Set.of("b:1"))).containsExactly("a:1", "b:1", "c:1");
    }

    @Test
    void aReadQuorumSharesAReplicaWithEveryQuorumWrite() {
        for (int n = 1; n <= 7; n++) {
            int w = n / 2 + 1;
            assertThat(RingView.readQuorum(n) + w).as("n=" + n).isGreaterThan(n);
            assertThat(RingView.readQuorum(n)).as("n=" + n + ": no more than needed").isEqualTo(n - w + 1);
        }
    }

    /**
     * A rolling restart (RealNodesIT under load): the view came from a member that had just restarted and listed a
     * third replica as absent though it was up, while a replica of the view was stopping. Two of three replicas in
     * the view make a read quorum, so the first attempt asks them, gets one answer and fails short of the quorum; a
     * retry that asked the same two again failed the same way until the deadline. The retry asks the whole set.
     */
    @Test
    void aRetryAfterAnAttemptShortOfAQuorumAsksTheAbsentReplicasToo() {
        ArrayNode nodes = new ObjectMapper().createArrayNode();
        for (GodClient.Member m : SET) {
            var n = nodes.addObject().put("Pos", m.position()).put("Addr", m.address());
            if (m.address().equals("c:1")) {
                n.put("State", RingView.ABSENT);
            }
        }
        Duration attempt = Duration.ofSeconds(5);
        try (Connections connections = new Connections(null, null, 1, attempt);
                RingView view = new RingView(List.of("a:1"), false, 3, attempt, new NodeCalls(connections))) {
            view.adopt(RingView.parseMembers(nodes), nodes);
            NodeCalls calls = new NodeCalls(connections);
            BinaryCommands commands = new BinaryCommands(connections, calls);
            Routing routing = new Routing(false, attempt, Duration.ofSeconds(30), 3, Duration.ofMillis(1), connections,
                    calls, commands, view);
            List<String> asked = Collections.synchronizedList(new ArrayList<>());
            ReplicaReads.AtNode<String> call = (address, budget) -> {
                asked.add(address);
                if (address.equals("b:1")) { // stopping: its connection closes
                    return () -> {
                        throw new GodUnavailableException(address + ": connection closed by the node", null);
                    };
                }
                return () -> "v@" + address;
            };

            List<String> answers = new ReplicaReads(routing, view, calls, commands)
                    .fromReplicas("Get", new byte[] {0}, call, null);

            assertThat(answers).containsExactlyInAnyOrder("v@a:1", "v@c:1");
            assertThat(asked).as("first the view's two replicas, then the whole set")
                    .containsExactly("a:1", "b:1", "a:1", "b:1", "c:1");
        }
    }
}

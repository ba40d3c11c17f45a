package io.god.client;

import static org.assertj.core.api.Assertions.assertThat;

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
}

package io.god.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Which replicas a read asks when the client's view marks some as catching up. */
class ReadReplicasTest {

    static final List<GodClient.Member> SET = List.of(new GodClient.Member(new byte[] {1}, "a:1"),
            new GodClient.Member(new byte[] {2}, "b:1"), new GodClient.Member(new byte[] {3}, "c:1"));

    static List<String> asked(Set<String> catchingUp) {
        return RingView.readable(SET, catchingUp).stream().map(GodClient.Member::address).toList();
    }

    @Test
    void membersCatchingUpAreLeftOutOnlyWhileAMajorityRemains() {
        assertThat(asked(Set.of())).containsExactly("a:1", "b:1", "c:1");
        assertThat(asked(Set.of("b:1"))).as("2 of 3 still a majority").containsExactly("a:1", "c:1");
        // a member back from a partition lists the other two as catching up: its lone answer must not stand for
        // the set (it may miss writes the two acknowledged while it was cut off)
        assertThat(asked(Set.of("a:1", "b:1"))).containsExactly("a:1", "b:1", "c:1");
        assertThat(asked(Set.of("a:1", "b:1", "c:1"))).containsExactly("a:1", "b:1", "c:1");
    }
}

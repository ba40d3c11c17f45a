package io.god.operator.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.god.operator.model.GodClusterStatus;
import io.god.operator.model.Member;
import io.god.operator.reconcile.Plan.Event;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each piece of news is told once, when it first shows in the status. */
class StatusNewsTest {

    static Member member(int ordinal, String state, String quarantinedAt) {
        Member m = new Member(ordinal, "demo-" + ordinal);
        m.setState(state);
        m.setLastAliveAt("2026-11-20T08:00:00Z");
        m.setQuarantinedAt(quarantinedAt);
        return m;
    }

    static GodClusterStatus status(String redundancy, Member... members) {
        GodClusterStatus s = new GodClusterStatus();
        s.setMembers(List.of(members));
        s.setConditions(new Conditions(List.of(), "2026-11-21T10:00:00Z", 1L)
                .set(Conditions.FULL_REDUNDANCY, redundancy, "r", "spec.replicas 1 is below spec.redundancy 3").build());
        return s;
    }

    @Test
    void aNewQuarantineIsAWarningOnceAndAnotherOneAgain() {
        GodClusterStatus before = status("True", member(0, "ACTIVE", null), member(1, "ACTIVE", null));
        GodClusterStatus after = status("True", member(0, "ACTIVE", null),
                member(1, "CATCHING_UP", "2026-11-21T09:59:00Z"));
        assertThat(StatusNews.quarantined(before, after)).extracting(Member::getPod).containsExactly("demo-1");
        List<Event> events = StatusNews.events(before, after);
        assertThat(events).singleElement().satisfies(e -> {
            assertThat(e.type()).isEqualTo("Warning");
            assertThat(e.reason()).isEqualTo("MemberQuarantined");
            assertThat(e.message()).contains("demo-1", "2026-11-21T09:59:00Z", "2026-11-20T08:00:00Z");
        });
        assertThat(StatusNews.events(after, after)).as("told once").isEmpty();
        GodClusterStatus again = status("True", member(0, "ACTIVE", null),
                member(1, "CATCHING_UP", "2026-11-22T00:00:00Z"));
        assertThat(StatusNews.quarantined(after, again)).hasSize(1);
    }

    @Test
    void staleMembersAndReducedRedundancyAreWarnings() {
        GodClusterStatus before = status("True", member(0, "ACTIVE", null));
        GodClusterStatus after = status("False", member(0, "STALE", null));
        assertThat(StatusNews.events(before, after)).extracting(Event::reason)
                .containsExactly("MemberStale", "ReducedRedundancy");
        assertThat(StatusNews.events(null, after)).as("a new cluster's first status").extracting(Event::reason)
                .containsExactly("MemberStale", "ReducedRedundancy");
        assertThat(StatusNews.events(after, after)).isEmpty();
    }
}

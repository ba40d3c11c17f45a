package io.god.operator.reconcile;

import io.god.operator.model.GodClusterStatus;
import io.god.operator.model.Member;
import io.god.operator.reconcile.Plan.Event;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What changed between the last status and the next one that a user must hear about, as Warning events: a member
 * that quarantined its data (a new {@code quarantinedAt} from its node), a member that turned {@code STALE}, and a
 * ring with fewer members than copies asked for. Pure; each piece of news is told once, when it first shows.
 */
public final class StatusNews {

    public static final String MEMBER_QUARANTINED = "MemberQuarantined";
    public static final String MEMBER_STALE = "MemberStale";
    public static final String REDUCED_REDUNDANCY = "ReducedRedundancy";
    /** The node state (DESIGN §7) of a member that found its own data stale and holds the only copy. */
    public static final String STALE = "STALE";

    private StatusNews() {
    }

    /** The members whose node reports a quarantine the last status did not show. */
    public static List<Member> quarantined(GodClusterStatus before, GodClusterStatus after) {
        List<Member> news = new ArrayList<>();
        for (Member m : members(after)) {
            if (m.getQuarantinedAt() != null
                    && !Objects.equals(m.getQuarantinedAt(), previous(before, m).map(Member::getQuarantinedAt).orElse(null))) {
                news.add(m);
            }
        }
        return news;
    }

    public static List<Event> events(GodClusterStatus before, GodClusterStatus after) {
        List<Event> events = new ArrayList<>();
        for (Member m : quarantined(before, after)) {
            events.add(new Event(EventRecorder.WARNING, MEMBER_QUARANTINED, m.getPod() + " found its data stale"
                    + " (last alive " + Optional.ofNullable(m.getLastAliveAt()).orElse("unknown") + ") and moved it to"
                    + " quarantine at " + m.getQuarantinedAt() + "; it rejoined empty and the ring copies its ranges"
                    + " back to it"));
        }
        for (Member m : members(after)) {
            boolean wasStale = previous(before, m).map(p -> STALE.equals(p.getState())).orElse(false);
            if (STALE.equals(m.getState()) && !wasStale) {
                events.add(new Event(EventRecorder.WARNING, MEMBER_STALE, m.getPod() + " reports STALE: its data"
                        + " (last alive " + Optional.ofNullable(m.getLastAliveAt()).orElse("unknown") + ") is older"
                        + " than what the ring has collected, and it may hold the only copy; it stays out of the ring"
                        + " until someone decides to keep or quarantine its data"));
            }
        }
        Optional<io.fabric8.kubernetes.api.model.Condition> reduced = Conditions.find(after.getConditions(),
                Conditions.FULL_REDUNDANCY).filter(c -> Conditions.FALSE.equals(c.getStatus()));
        boolean wasReduced = before != null && Conditions.find(before.getConditions(), Conditions.FULL_REDUNDANCY)
                .filter(c -> Conditions.FALSE.equals(c.getStatus())).isPresent();
        if (reduced.isPresent() && !wasReduced) {
            events.add(new Event(EventRecorder.WARNING, REDUCED_REDUNDANCY, reduced.get().getMessage()));
        }
        return events;
    }

    private static List<Member> members(GodClusterStatus status) {
        return status == null || status.getMembers() == null ? List.of() : status.getMembers();
    }

    private static Optional<Member> previous(GodClusterStatus before, Member m) {
        return members(before).stream().filter(p -> Objects.equals(p.getOrdinal(), m.getOrdinal())).findFirst();
    }
}

package io.god.operator.reconcile;

import io.god.operator.model.Member;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * How long each member has gone without answering /admin/status, counted in reconcile passes and in time from what the
 * last status recorded ({@code members[].missedPolls}, {@code unansweredSince}). A member counts as no longer
 * answering only after both bounds ({@code god.operator.unanswered-polls}, {@code god.operator.unanswered-after}): a
 * pod restarting for a few seconds is not dead, and one missed pass after an operator restart is not a minute; a
 * replaced pod (another uid) starts its own count, so it does not inherit its predecessor's silence. Pure.
 */
public final class Silence {

    /** A member's silence: passes without an answer (0 when it answered) and since when. */
    public record Entry(int missedPolls, String since) {
    }

    /** The bounds after which a silent member counts as no longer answering. */
    public record Bounds(int polls, Duration after) {
        public static final Bounds DEFAULT = new Bounds(3, Duration.ofSeconds(30));
    }

    private Silence() {
    }

    /** As below, with nothing heard by this process beyond what the status recorded. */
    public static Map<Integer, Entry> update(List<Member> previous, Observation obs, Instant now) {
        return update(previous, obs, now, Map.of());
    }

    /**
     * This pass's count for every ordinal the StatefulSet includes or a pod exists at: reset when it answered, one
     * more (since the first miss) when it did not. {@code heard}: when this operator process last had an answer from
     * each pod (by uid). The recorded count only holds while the status writes of the passes that had answers landed;
     * one that was lost (a conflict, a timeout under load) would join two silences around an answer into one, and a
     * member that answers every other poll (crash-looping, overloaded) would count as dead and be removed. An answer
     * heard after the recorded {@code since} starts the count again.
     */
    public static Map<Integer, Entry> update(List<Member> previous, Observation obs, Instant now,
                                             Map<String, Instant> heard) {
        Map<Integer, Entry> out = new TreeMap<>();
        int count = Math.max(obs.statefulSetReplicas(), obs.highestOrdinal() + 1);
        for (int o = 0; o < count; o++) {
            int ordinal = o;
            if (obs.status(o).isPresent()) {
                out.put(o, new Entry(0, null));
                continue;
            }
            Optional<Member> before = Optional.ofNullable(previous).orElse(List.of()).stream()
                    .filter(m -> Objects.equals(m.getOrdinal(), ordinal)).findFirst();
            // a new pod at the ordinal (another uid) has not been silent yet: it starts its own count
            String uid = obs.pod(o).map(Observation.PodView::uid).orElse(null);
            boolean samePod = uid == null || before.map(Member::getPodUid).map(uid::equals).orElse(true);
            int missed = samePod ? before.map(Member::getMissedPolls).orElse(0) : 0;
            String since = samePod ? before.map(Member::getUnansweredSince).orElse(null) : null;
            Instant lastHeard = uid == null ? null : heard.get(uid);
            if (since != null && lastHeard != null && lastHeard.isAfter(Instant.parse(since))) {
                missed = 0; // it answered after the recorded silence began: that pass's status write was lost
                since = null;
            }
            out.put(o, new Entry(missed + 1, since == null ? now.toString() : since));
        }
        return out;
    }

    /** The ordinals silent for at least {@code bounds.polls()} passes and {@code bounds.after()}. */
    public static Set<Integer> unanswering(Map<Integer, Entry> silence, Instant now, Bounds bounds) {
        return silence.entrySet().stream()
                .filter(e -> e.getValue().missedPolls() >= bounds.polls() && e.getValue().since() != null
                        && !Instant.parse(e.getValue().since()).plus(bounds.after()).isAfter(now))
                .map(Map.Entry::getKey).collect(Collectors.toSet());
    }
}

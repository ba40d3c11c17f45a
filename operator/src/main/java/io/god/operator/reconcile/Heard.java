package io.god.operator.reconcile;

import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * When this operator process last had an /admin/status answer from each pod, by uid: what {@link Silence#update}
 * needs besides the status when a pass's status write was lost. Kept in memory only (after an operator restart the
 * status is all there is); an entry older than an hour is dropped, long after any silence it could break was decided.
 */
final class Heard {

    private static final Duration KEPT = Duration.ofHours(1);

    private final Map<String, Instant> byUid = new ConcurrentHashMap<>();

    /** Records this pass's answers. */
    void record(Observation obs, Instant now) {
        for (Observation.PodView p : obs.pods()) {
            if (p.uid() != null && obs.statuses().containsKey(p.name())) {
                byUid.put(p.uid(), now);
            }
        }
        byUid.values().removeIf(t -> t.plus(KEPT).isBefore(now));
    }

    /** A live read-only view. */
    Map<String, Instant> view() {
        return Collections.unmodifiableMap(byUid);
    }
}

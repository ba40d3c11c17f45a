package io.god.operator.reconcile;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** Status conditions (DESIGN §8); a condition keeps its lastTransitionTime while its status does not change. */
public final class Conditions {

    public static final String READY = "Ready";
    public static final String PROGRESSING = "Progressing";
    public static final String REPLICATED = "Replicated";
    public static final String DEGRADED = "Degraded";
    public static final String PAUSED = "ReconciliationPaused";
    /** False while spec.replicas is below spec.redundancy: accepted, but each entry has fewer copies than asked. */
    public static final String FULL_REDUNDANCY = "FullRedundancy";
    /** spec.monitoring.enabled only: True once the ServiceMonitor/PodMonitor exists, False when its CRD is not installed. */
    public static final String MONITORING = "Monitoring";
    public static final List<String> ORDER = List.of(READY, PROGRESSING, REPLICATED, DEGRADED, FULL_REDUNDANCY,
            MONITORING, PAUSED);

    public static final String TRUE = "True";
    public static final String FALSE = "False";
    public static final String UNKNOWN = "Unknown";

    private final List<Condition> previous;
    private final List<Condition> next = new ArrayList<>();
    private final String now;
    private final Long generation;

    public Conditions(List<Condition> previous, String now, Long generation) {
        this.previous = previous == null ? List.of() : previous;
        this.now = now;
        this.generation = generation;
    }

    public Conditions set(String type, String status, String reason, String message) {
        String since = find(previous, type).filter(c -> Objects.equals(c.getStatus(), status))
                .map(Condition::getLastTransitionTime).orElse(now);
        next.removeIf(c -> c.getType().equals(type));
        next.add(new ConditionBuilder().withType(type).withStatus(status).withReason(reason).withMessage(message)
                .withLastTransitionTime(since).withObservedGeneration(generation).build());
        return this;
    }

    /** Keeps a previous condition of this type unchanged when this pass does not decide it. */
    public Conditions keep(String type) {
        find(previous, type).ifPresent(c -> {
            next.removeIf(n -> n.getType().equals(type));
            next.add(c);
        });
        return this;
    }

    public List<Condition> build() {
        List<Condition> out = new ArrayList<>(next);
        out.sort((a, b) -> Integer.compare(rank(a.getType()), rank(b.getType())));
        return out;
    }

    private static int rank(String type) {
        int i = ORDER.indexOf(type);
        return i < 0 ? ORDER.size() : i;
    }

    public static Optional<Condition> find(List<Condition> conditions, String type) {
        return conditions == null ? Optional.empty()
                : conditions.stream().filter(c -> type.equals(c.getType())).findFirst();
    }

    public static boolean isTrue(List<Condition> conditions, String type) {
        return find(conditions, type).map(c -> TRUE.equals(c.getStatus())).orElse(false);
    }
}

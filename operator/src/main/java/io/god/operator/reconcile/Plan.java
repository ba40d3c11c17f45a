package io.god.operator.reconcile;

import io.god.operator.model.Operation;
import java.time.Instant;
import java.util.Map;
import java.util.Set;

/**
 * The planner's verdict for one reconcile: the action to take, the operation to record in the status afterwards
 * (null: none open), where the ring stands, why (the Progressing message), an event to record when the action is
 * taken, the ordinals whose lastSeenInRing to forget (wiped), and lastSeenInRing values to set (carried over a
 * hibernation).
 */
public record Plan(Action action, Operation operation, Progress progress, String message, Event event,
        Set<Integer> forget, Map<Integer, Instant> carry) {

    /** A Kubernetes Event to record on the GodCluster. */
    public record Event(String type, String reason, String message) {
    }

    public static Plan of(Action action, Operation operation, Progress progress, String message, Event event) {
        return new Plan(action, operation, progress, message, event, Set.of(), Map.of());
    }

    public static Plan waiting(Operation operation, Progress progress, String message) {
        return of(Action.NONE, operation, progress, message, null);
    }

    Plan forgetting(Set<Integer> ordinals) {
        if (ordinals.isEmpty()) {
            return this;
        }
        Set<Integer> all = new java.util.TreeSet<>(forget);
        all.addAll(ordinals);
        return new Plan(action, operation, progress, message, event, Set.copyOf(all), carry);
    }

    Plan carrying(Map<Integer, Instant> lastSeen) {
        return new Plan(action, operation, progress, message, event, forget, Map.copyOf(lastSeen));
    }

    @Override
    public String toString() {
        return action + " [" + progress + (operation == null ? "" : ", " + operation) + "] " + message;
    }
}

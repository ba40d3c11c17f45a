package io.god.operator.reconcile;

import io.god.operator.model.Operation;
import io.god.operator.model.Wait;

/**
 * The planner's verdict for one reconcile: the action to take, the operation to record in the status afterwards
 * (null: none open), where the ring stands, why (the Progressing message), and an event to record when the action is
 * taken, and an alert (the operation's deadline passed) to record once; with no operation open, {@code waiting} is the
 * wait it continues or begins (null when it does not wait), recorded in the status for the deadline.
 */
public record Plan(Action action, Operation operation, Progress progress, String message, Event event, Event alert,
        Wait waiting) {

    /** A Kubernetes Event to record on the GodCluster. */
    public record Event(String type, String reason, String message) {
    }

    public static Plan of(Action action, Operation operation, Progress progress, String message, Event event) {
        return new Plan(action, operation, progress, message, event, null, null);
    }

    /** This plan with a second event: news about the operation itself (its deadline passed), recorded once. */
    public Plan withAlert(Operation operation, Event alert) {
        return new Plan(action, operation, progress, message, event, alert, waiting);
    }

    /** This plan, a wait with no operation open, with the wait recorded (since when) and an alert (or none). */
    public Plan waitingSince(Wait waiting, Event alert) {
        return new Plan(action, operation, progress, message, event, alert, waiting);
    }

    /** The plan's message with this note appended. */
    public Plan noting(String note) {
        return new Plan(action, operation, progress, message + note, event, alert, waiting);
    }

    /** The operation, or the wait with none open, passed spec.operationTimeout (reported, never acted on). */
    public boolean deadlineExceeded() {
        return operation != null ? operation.getDeadlineExceededAt() != null
                : waiting != null && waiting.getDeadlineExceededAt() != null;
    }

    public static Plan waiting(Operation operation, Progress progress, String message) {
        return of(Action.NONE, operation, progress, message, null);
    }

    @Override
    public String toString() {
        return action + " [" + progress + (operation == null ? "" : ", " + operation) + "] " + message;
    }
}

package io.god.operator.reconcile;

import io.god.operator.admin.NodeStatus;
import io.god.operator.model.Operation;
import io.god.operator.model.Wait;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The deadline of an operation, counted from its last progress (DESIGN §8): a step change, or its member's state,
 * {@code heldEntries} or {@code rangesConfirmed} moving (for a scale-up: one more member Ready). Passing it only
 * reports — Progressing=False with reason ProgressDeadlineExceeded, Degraded=True, one Warning event with the member's
 * last error, a metric — and never cancels anything: the escapes are the user's (scale back, hibernate, a new image,
 * remove or replace the member). A wait with no operation open (a gate before a scale-down, a roll or a replace) is
 * counted the same way from when it began ({@link #applyToWait}). Pure.
 */
public final class Deadline {

    public static final String REASON = "ProgressDeadlineExceeded";

    private Deadline() {
    }

    /**
     * The plan with its operation's progress recorded ({@code progressAt}, {@code progressMark}, {@code lastError})
     * and, when the deadline is first passed, {@code deadlineExceededAt} and a Warning alert.
     */
    public static Plan apply(Plan plan, Operation before, Observation obs, Instant now, Duration timeout,
            String clusterName) {
        Operation op = plan.operation();
        if (op == null) {
            return plan;
        }
        boolean same = op.sameAs(before);
        Optional<NodeStatus> st = op.getOrdinal() == null ? Optional.empty() : obs.status(op.getOrdinal());
        // a member that did not answer this pass shows no progress, and answering again is none either (a crash loop)
        String mark = same && op.getOrdinal() != null && st.isEmpty() && Objects.equals(op.getStep(), before.getStep())
                ? before.getProgressMark() : mark(op, st, obs);
        Operation next = op.atStep(op.getStep());
        boolean moved = !same || !Objects.equals(mark, before.getProgressMark());
        next.setProgressMark(mark);
        next.setProgressAt(moved || before.getProgressAt() == null ? now.toString() : before.getProgressAt());
        String error = st.map(NodeStatus::leave).map(NodeStatus.LeaveProgress::lastError).orElse(null);
        next.setLastError(error != null ? error : same ? before.getLastError() : null);
        Instant since = Instant.parse(next.getProgressAt());
        if (since.plus(timeout).isAfter(now)) {
            next.setDeadlineExceededAt(null);
            return plan.withAlert(next, plan.alert());
        }
        boolean told = same && !moved && before.getDeadlineExceededAt() != null;
        next.setDeadlineExceededAt(told ? before.getDeadlineExceededAt() : now.toString());
        if (told) {
            return plan.withAlert(next, plan.alert());
        }
        return plan.withAlert(next, new Plan.Event(EventRecorder.WARNING, REASON, message(next, timeout, clusterName,
                plan.message())));
    }

    /**
     * A plan with no operation open: when it waits (nothing to do now, but not settled: a gate, a request, pods to
     * stop), the wait keeps the start the last status recorded for the same phase, and passing the deadline from there
     * is reported like an operation's, once. Anything else (settled, refused, an action taken) ends the wait.
     */
    public static Plan applyToWait(Plan plan, Wait before, Instant now, Duration timeout) {
        if (!(plan.action() instanceof Action.None) || plan.progress() == Progress.STEADY
                || plan.progress() == Progress.HIBERNATED || plan.progress() == Progress.SCALE_DOWN_REFUSED) {
            return plan.waitingSince(null, plan.alert());
        }
        String phase = plan.progress().phase();
        boolean same = before != null && phase.equals(before.getPhase()) && before.getSince() != null;
        Wait next = new Wait(phase, same ? before.getSince() : now.toString(), null);
        if (Instant.parse(next.getSince()).plus(timeout).isAfter(now)) {
            return plan.waitingSince(next, plan.alert());
        }
        boolean told = same && before.getDeadlineExceededAt() != null;
        next.setDeadlineExceededAt(told ? before.getDeadlineExceededAt() : now.toString());
        return plan.waitingSince(next, told ? plan.alert() : new Plan.Event(EventRecorder.WARNING, REASON,
                waitMessage(next, timeout, plan.message())));
    }

    /** The Progressing/Degraded message of a plan past its deadline (its operation's, or its wait's), or null. */
    public static String stalled(Plan plan, Duration timeout, String clusterName) {
        if (!plan.deadlineExceeded()) {
            return null;
        }
        return plan.operation() != null ? message(plan.operation(), timeout, clusterName, plan.message())
                : waitMessage(plan.waiting(), timeout, plan.message());
    }

    private static String waitMessage(Wait wait, Duration timeout, String planMessage) {
        return wait.getPhase() + " waited longer than " + timeout + " (since " + wait.getSince() + "): " + planMessage
                + ". Nothing is cancelled: make the ring healthy, scale back, hibernate, fix the image, or remove or"
                + " replace the member";
    }

    /** The Progressing/Degraded message of an operation past its deadline. */
    public static String message(Operation op, Duration timeout, String clusterName, String planMessage) {
        String member = op.getOrdinal() == null ? "" : " of " + clusterName + "-" + op.getOrdinal();
        return op.getType() + member + " (step " + op.getStep() + ") made no progress for " + timeout
                + " (since " + op.getProgressAt() + "): " + planMessage
                + (op.getLastError() == null ? "" : "; the member's last error: " + op.getLastError())
                + ". Nothing is cancelled: scale back, hibernate, fix the image, or remove or replace the member";
    }

    private static String mark(Operation op, Optional<NodeStatus> st, Observation obs) {
        StringBuilder m = new StringBuilder(String.valueOf(op.getStep()));
        m.append('|').append(st.map(NodeStatus::state).orElse("-"));
        st.ifPresent(s -> {
            m.append('|').append(s.heldEntries());
            if (s.leave() != null) {
                m.append('|').append(s.leave().rangesConfirmed());
            }
        });
        if (Operation.SCALE_UP.equals(op.getType())) {
            m.append("|ready=").append(obs.readyCount());
        }
        return m.toString();
    }
}

package io.god.operator.reconcile;

import io.god.operator.admin.NodeStatus;
import io.god.operator.model.Operation;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The deadline of an operation, counted from its last progress (DESIGN §8): a step change, or its member's state,
 * {@code heldEntries} or {@code rangesConfirmed} moving (for a scale-up: one more member Ready). Passing it only
 * reports — Progressing=False with reason ProgressDeadlineExceeded, Degraded=True, one Warning event with the member's
 * last error, a metric — and never cancels anything: the escapes are the user's (scale back, hibernate, a new image,
 * remove or replace the member). Pure.
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
        String mark = mark(op, st, obs);
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

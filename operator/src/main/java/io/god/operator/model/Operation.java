package io.god.operator.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.Objects;

/**
 * The multi-step operation in progress, kept in the status so that a restarted operator resumes it where it stopped.
 * Every step is idempotent: repeating it after a crash does no harm.
 */
// a status written by another operator version (e.g. the removed lastSeenInRing) must still read
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public class Operation {

    public static final String SCALE_UP = "ScaleUp";
    public static final String SCALE_DOWN = "ScaleDown";
    public static final String RESTART = "Restart";
    /** A dead member removed by a scale-down without a drain (it cannot drain); its PVC is kept. */
    public static final String REMOVE = "Remove";
    /** A member replaced on request: pod and PVC deleted, it rejoins empty. */
    public static final String REPLACE = "Replace";

    /** ScaleDown: the member at {@code ordinal} was asked to leave; waiting for LEFT. */
    public static final String STEP_LEAVING = "Leaving";
    /** ScaleDown: replicas were raised while the member was leaving; its leave was cancelled. */
    public static final String STEP_CANCELLING = "Cancelling";
    /** ScaleDown: the member is LEFT; the StatefulSet shrinks by one and its pod stops. */
    public static final String STEP_SHRINKING = "Shrinking";
    /** ScaleDown: the drained ordinal's PVC was deleted; waiting until it is gone. */
    public static final String STEP_DELETING_CLAIM = "DeletingClaim";
    /**
     * Remove: the live members are being told that the dead member is removed (told again each pass until every one
     * answered); then Shrinking: the StatefulSet shrinks past the dead member.
     */
    public static final String STEP_REMOVING = "Removing";
    /** Replace: the request was accepted (annotation cleared); its PVC is deleted next. */
    public static final String STEP_ACCEPTED = "Accepted";
    /** Replace: the PVC is being deleted; the pod is deleted next, then both must be gone. */
    public static final String STEP_DELETING_POD = "DeletingPod";
    /** Replace: a new pod on a new, empty PVC; waiting until it is Ready and ACTIVE. */
    public static final String STEP_REJOINING = "Rejoining";
    /** Restart: the pod was deleted; waiting for its successor to be ACTIVE and the ring replicated. */
    public static final String STEP_RESTARTING = "Restarting";

    @JsonPropertyDescription("ScaleUp, ScaleDown, Restart, Remove or Replace.")
    private String type;

    @JsonPropertyDescription("The replica count the operation leads to.")
    private Integer targetReplicas;

    @JsonPropertyDescription("The ordinal the current step works on, if any.")
    private Integer ordinal;

    @JsonPropertyDescription("The step in progress: Leaving, Cancelling, Shrinking, DeletingClaim, Restarting, Removing,"
            + " Accepted, DeletingPod or Rejoining.")
    private String step;

    @JsonPropertyDescription("ScaleDown: when (RFC 3339) the member at ordinal confirmed its drain (LEFT, leave phase"
            + " DONE, 0 entries held). Its PVC is deleted only when this is set.")
    private String drainConfirmedAt;

    @JsonPropertyDescription("When the operation started (RFC 3339).")
    private String startedAt;

    @JsonPropertyDescription("When (RFC 3339) the operation last made progress: a step change, or the member's state,"
            + " heldEntries or rangesConfirmed moving. spec.operationTimeout counts from here.")
    private String progressAt;

    @JsonPropertyDescription("What progress is measured on (step, member state, heldEntries, rangesConfirmed).")
    private String progressMark;

    @JsonPropertyDescription("When (RFC 3339) the operation passed spec.operationTimeout without progress; reported"
            + " (Progressing=False ProgressDeadlineExceeded, Degraded), never acted on.")
    private String deadlineExceededAt;

    @JsonPropertyDescription("The last error the member reported for this operation (its leave.lastError).")
    private String lastError;

    @JsonPropertyDescription("Replace: the UID of the pod being replaced.")
    private String replacedPodUid;

    public Operation() {
    }

    public Operation(String type, Integer targetReplicas, String startedAt) {
        this.type = type;
        this.targetReplicas = targetReplicas;
        this.startedAt = startedAt;
    }

    public Operation(String type, Integer targetReplicas, Integer ordinal, String step, String startedAt) {
        this(type, targetReplicas, startedAt);
        this.ordinal = ordinal;
        this.step = step;
    }

    /** This operation at another step, keeping everything else. */
    public Operation atStep(String step) {
        Operation next = new Operation(type, targetReplicas, ordinal, step, startedAt);
        next.drainConfirmedAt = drainConfirmedAt;
        next.replacedPodUid = replacedPodUid;
        next.progressAt = progressAt;
        next.progressMark = progressMark;
        next.deadlineExceededAt = deadlineExceededAt;
        next.lastError = lastError;
        return next;
    }

    /** This operation with the node's drain confirmation recorded at {@code when}. */
    public Operation drainConfirmed(String when) {
        Operation next = atStep(step);
        next.drainConfirmedAt = when;
        return next;
    }

    /** This operation replacing the pod with this UID. */
    public Operation replacing(String podUid) {
        Operation next = atStep(step);
        next.replacedPodUid = podUid;
        return next;
    }

    /** The same operation: type, ordinal and start (the step may differ). */
    public boolean sameAs(Operation other) {
        return other != null && Objects.equals(type, other.type) && Objects.equals(ordinal, other.ordinal)
                && Objects.equals(startedAt, other.startedAt);
    }

    public boolean is(String type, String step) {
        return Objects.equals(this.type, type) && Objects.equals(this.step, step);
    }

    public String getType() { return type; }
    public void setType(String type) { this.type = type; }
    public Integer getTargetReplicas() { return targetReplicas; }
    public void setTargetReplicas(Integer targetReplicas) { this.targetReplicas = targetReplicas; }
    public Integer getOrdinal() { return ordinal; }
    public void setOrdinal(Integer ordinal) { this.ordinal = ordinal; }
    public String getStep() { return step; }
    public void setStep(String step) { this.step = step; }
    public String getStartedAt() { return startedAt; }
    public void setStartedAt(String startedAt) { this.startedAt = startedAt; }
    public String getDrainConfirmedAt() { return drainConfirmedAt; }
    public void setDrainConfirmedAt(String drainConfirmedAt) { this.drainConfirmedAt = drainConfirmedAt; }
    public String getProgressAt() { return progressAt; }
    public void setProgressAt(String progressAt) { this.progressAt = progressAt; }
    public String getProgressMark() { return progressMark; }
    public void setProgressMark(String progressMark) { this.progressMark = progressMark; }
    public String getDeadlineExceededAt() { return deadlineExceededAt; }
    public void setDeadlineExceededAt(String deadlineExceededAt) { this.deadlineExceededAt = deadlineExceededAt; }
    public String getLastError() { return lastError; }
    public void setLastError(String lastError) { this.lastError = lastError; }
    public String getReplacedPodUid() { return replacedPodUid; }
    public void setReplacedPodUid(String replacedPodUid) { this.replacedPodUid = replacedPodUid; }

    @Override
    public boolean equals(Object o) {
        return o instanceof Operation op && Objects.equals(type, op.type)
                && Objects.equals(targetReplicas, op.targetReplicas) && Objects.equals(ordinal, op.ordinal)
                && Objects.equals(step, op.step) && Objects.equals(startedAt, op.startedAt)
                && Objects.equals(drainConfirmedAt, op.drainConfirmedAt) && Objects.equals(progressAt, op.progressAt)
                && Objects.equals(progressMark, op.progressMark)
                && Objects.equals(deadlineExceededAt, op.deadlineExceededAt)
                && Objects.equals(lastError, op.lastError) && Objects.equals(replacedPodUid, op.replacedPodUid);
    }

    @Override
    public String toString() {
        return type + (ordinal == null ? "" : "(" + ordinal + ")") + (step == null ? "" : " " + step)
                + (targetReplicas == null ? "" : " → " + targetReplicas);
    }

    @Override
    public int hashCode() {
        return Objects.hash(type, targetReplicas, ordinal);
    }
}

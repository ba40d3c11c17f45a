package io.god.operator.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.Objects;

/**
 * A wait with no operation open (a scale-down, a roll or a replace request waiting for the ring to be healthy, a
 * hibernation waiting for pods to stop): since when, so that spec.operationTimeout reports it as it does a stalled
 * operation. Reported only; nothing is cancelled.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public class Wait {

    @JsonPropertyDescription("What waits: the phase (ScalingDown, RollingRestart, Replacing, Hibernating, ...).")
    private String phase;

    @JsonPropertyDescription("When (RFC 3339) the wait began; spec.operationTimeout counts from here.")
    private String since;

    @JsonPropertyDescription("When (RFC 3339) the wait passed spec.operationTimeout; reported (Progressing=False"
            + " ProgressDeadlineExceeded, Degraded), never acted on.")
    private String deadlineExceededAt;

    public Wait() {
    }

    public Wait(String phase, String since, String deadlineExceededAt) {
        this.phase = phase;
        this.since = since;
        this.deadlineExceededAt = deadlineExceededAt;
    }

    public String getPhase() { return phase; }
    public void setPhase(String phase) { this.phase = phase; }
    public String getSince() { return since; }
    public void setSince(String since) { this.since = since; }
    public String getDeadlineExceededAt() { return deadlineExceededAt; }
    public void setDeadlineExceededAt(String deadlineExceededAt) { this.deadlineExceededAt = deadlineExceededAt; }

    @Override
    public boolean equals(Object o) {
        return o instanceof Wait w && Objects.equals(phase, w.phase) && Objects.equals(since, w.since)
                && Objects.equals(deadlineExceededAt, w.deadlineExceededAt);
    }

    @Override
    public int hashCode() {
        return Objects.hash(phase, since);
    }

    @Override
    public String toString() {
        return "waiting (" + phase + ") since " + since;
    }
}

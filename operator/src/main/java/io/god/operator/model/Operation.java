package io.god.operator.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.Objects;

/** A multi-step operation in progress (ScaleUp in part 1; ScaleDown, Restart, Wipe later). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class Operation {

    public static final String SCALE_UP = "ScaleUp";

    @JsonPropertyDescription("ScaleUp, ScaleDown, Restart or Wipe.")
    private String type;

    @JsonPropertyDescription("The replica count the operation leads to.")
    private Integer targetReplicas;

    @JsonPropertyDescription("The ordinal the current step works on, if any.")
    private Integer ordinal;

    @JsonPropertyDescription("When the operation started (RFC 3339).")
    private String startedAt;

    public Operation() {
    }

    public Operation(String type, Integer targetReplicas, String startedAt) {
        this.type = type;
        this.targetReplicas = targetReplicas;
        this.startedAt = startedAt;
    }

    public String getType() { return type; }
    public void setType(String type) { this.type = type; }
    public Integer getTargetReplicas() { return targetReplicas; }
    public void setTargetReplicas(Integer targetReplicas) { this.targetReplicas = targetReplicas; }
    public Integer getOrdinal() { return ordinal; }
    public void setOrdinal(Integer ordinal) { this.ordinal = ordinal; }
    public String getStartedAt() { return startedAt; }
    public void setStartedAt(String startedAt) { this.startedAt = startedAt; }

    @Override
    public boolean equals(Object o) {
        return o instanceof Operation op && Objects.equals(type, op.type)
                && Objects.equals(targetReplicas, op.targetReplicas) && Objects.equals(ordinal, op.ordinal)
                && Objects.equals(startedAt, op.startedAt);
    }

    @Override
    public int hashCode() {
        return Objects.hash(type, targetReplicas, ordinal);
    }
}

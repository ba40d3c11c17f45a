package io.god.operator.model;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Min;

/**
 * Timing of one of the node container's probes; unset fields keep the operator's defaults. The probed endpoint is
 * the node's and cannot change.
 */
public class ProbeSettings {

    @Min(0)
    @JsonPropertyDescription("Seconds after the container starts before the first probe.")
    private Integer initialDelaySeconds;

    @Min(1)
    @JsonPropertyDescription("Seconds between probes.")
    private Integer periodSeconds;

    @Min(1)
    @JsonPropertyDescription("Seconds a probe may take.")
    private Integer timeoutSeconds;

    @Min(1)
    @JsonPropertyDescription("Failed probes in a row before the probe fails.")
    private Integer failureThreshold;

    public Integer getInitialDelaySeconds() { return initialDelaySeconds; }
    public void setInitialDelaySeconds(Integer v) { this.initialDelaySeconds = v; }
    public Integer getPeriodSeconds() { return periodSeconds; }
    public void setPeriodSeconds(Integer v) { this.periodSeconds = v; }
    public Integer getTimeoutSeconds() { return timeoutSeconds; }
    public void setTimeoutSeconds(Integer v) { this.timeoutSeconds = v; }
    public Integer getFailureThreshold() { return failureThreshold; }
    public void setFailureThreshold(Integer v) { this.failureThreshold = v; }
}

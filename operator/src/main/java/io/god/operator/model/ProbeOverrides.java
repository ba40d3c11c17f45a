package io.god.operator.model;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** Timing of the node container's probes (spec.podTemplate.probes). */
public class ProbeOverrides {

    @JsonPropertyDescription("The startup probe (/q/health/live): by default every 5 s for up to 15 min, the time a"
            + " large member may take to replay its write-ahead log.")
    private ProbeSettings startup;

    @JsonPropertyDescription("The liveness probe (/q/health/live): by default every 5 s, 3 failures.")
    private ProbeSettings liveness;

    @JsonPropertyDescription("The readiness probe (/q/health/ready): by default every 5 s, 3 failures.")
    private ProbeSettings readiness;

    public ProbeSettings getStartup() { return startup; }
    public void setStartup(ProbeSettings startup) { this.startup = startup; }
    public ProbeSettings getLiveness() { return liveness; }
    public void setLiveness(ProbeSettings liveness) { this.liveness = liveness; }
    public ProbeSettings getReadiness() { return readiness; }
    public void setReadiness(ProbeSettings readiness) { this.readiness = readiness; }
}

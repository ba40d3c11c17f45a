package io.god.operator.model;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.kubernetes.api.model.SecretKeySelector;
import java.util.Map;

/** Prometheus Operator integration: a ServiceMonitor for the members' metrics (issue 37). */
public class MonitoringSpec {

    @Default("false")
    @JsonPropertyDescription("When true and the Prometheus Operator's ServiceMonitor CRD is installed, the operator"
            + " creates a ServiceMonitor <cluster>-metrics that scrapes every member's /q/metrics on port management."
            + " Without the CRD the Monitoring condition says so and nothing else changes.")
    private Boolean enabled;

    @JsonPropertyDescription("Extra labels on the ServiceMonitor, e.g. the label your Prometheus selects monitors by"
            + " (release: kube-prometheus-stack).")
    private Map<String, String> labels;

    @JsonPropertyDescription("Secret key holding the nodes' god.auth.token, sent as Authorization: Bearer when the"
            + " nodes run with authentication.")
    private SecretKeySelector bearerTokenSecret;

    public Boolean getEnabled() { return enabled; }
    public void setEnabled(Boolean enabled) { this.enabled = enabled; }
    public Map<String, String> getLabels() { return labels; }
    public void setLabels(Map<String, String> labels) { this.labels = labels; }
    public SecretKeySelector getBearerTokenSecret() { return bearerTokenSecret; }
    public void setBearerTokenSecret(SecretKeySelector bearerTokenSecret) { this.bearerTokenSecret = bearerTokenSecret; }
}

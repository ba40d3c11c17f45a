package io.god.operator.model;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.kubernetes.api.model.SecretKeySelector;
import java.util.Map;

/** Prometheus Operator integration: a ServiceMonitor or PodMonitor for the members' metrics (issue 37). */
public class MonitoringSpec {

    @Default("false")
    @JsonPropertyDescription("When true and the Prometheus Operator's CRD of spec.monitoring.kind is installed, the"
            + " operator creates that monitor, <cluster>-metrics, scraping every member's /q/metrics on port management."
            + " Without the CRD the Monitoring condition says so and nothing else changes.")
    private Boolean enabled;

    @Pattern("^(ServiceMonitor|PodMonitor)$")
    @Default("ServiceMonitor")
    @JsonPropertyDescription("ServiceMonitor (selects the metrics Service <cluster>-metrics) or PodMonitor (selects the"
            + " member pods directly). Changing it replaces the one monitor by the other.")
    private String kind;

    @JsonPropertyDescription("Extra labels on the monitor, e.g. the label your Prometheus selects monitors by"
            + " (release: kube-prometheus-stack).")
    private Map<String, String> labels;

    @JsonPropertyDescription("Secret key the monitor sends as Authorization: Bearer. Default: the metrics"
            + " credential, key token of spec.auth.metricsSecret (else <cluster>-metrics-token). The nodes accept the"
            + " metrics or the admin token on GET /q/metrics.")
    private SecretKeySelector bearerTokenSecret;

    public Boolean getEnabled() { return enabled; }
    public void setEnabled(Boolean enabled) { this.enabled = enabled; }
    public String getKind() { return kind; }
    public void setKind(String kind) { this.kind = kind; }
    public Map<String, String> getLabels() { return labels; }
    public void setLabels(Map<String, String> labels) { this.labels = labels; }
    public SecretKeySelector getBearerTokenSecret() { return bearerTokenSecret; }
    public void setBearerTokenSecret(SecretKeySelector bearerTokenSecret) { this.bearerTokenSecret = bearerTokenSecret; }
}

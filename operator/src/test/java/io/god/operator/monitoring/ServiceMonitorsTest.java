package io.god.operator.monitoring;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.SecretKeySelector;
import io.god.operator.model.AuthSpec;
import io.god.operator.model.GodCluster;
import io.god.operator.model.GodClusterSpec;
import io.god.operator.model.MonitoringSpec;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * What the monitor sends (issue 34): by default the metrics credential's Secret, named in spec.auth or generated,
 * as {@code authorization} on both kinds; spec.monitoring.bearerTokenSecret when set. Only a Secret reference, never a
 * value.
 */
class ServiceMonitorsTest {

    static GodCluster cluster(String kind, Consumer<GodClusterSpec> change) {
        GodCluster gc = new GodCluster();
        gc.getMetadata().setName("demo");
        gc.getMetadata().setNamespace("ns");
        gc.getMetadata().setUid("uid-1");
        GodClusterSpec spec = new GodClusterSpec();
        MonitoringSpec monitoring = new MonitoringSpec();
        monitoring.setEnabled(true);
        monitoring.setKind(kind);
        spec.setMonitoring(monitoring);
        change.accept(spec);
        gc.setSpec(spec);
        return gc;
    }

    static Object authorization(GodCluster gc) {
        String list = ServiceMonitors.POD_MONITOR.equals(ServiceMonitors.kind(gc)) ? "podMetricsEndpoints" : "endpoints";
        List<Map<String, Object>> endpoints = ServiceMonitors.desired(gc).get("spec", list);
        assertThat(endpoints).hasSize(1);
        return endpoints.get(0).get("authorization");
    }

    static Map<String, Object> bearer(String secret, String key) {
        return Map.of("type", "Bearer", "credentials", Map.of("name", secret, "key", key));
    }

    @Test
    void bothKindsSendTheGeneratedMetricsSecretByDefault() {
        assertThat(authorization(cluster("ServiceMonitor", s -> { }))).isEqualTo(bearer("demo-metrics-token", "token"));
        assertThat(authorization(cluster("PodMonitor", s -> { }))).isEqualTo(bearer("demo-metrics-token", "token"));
    }

    @Test
    void aNamedMetricsSecretOrAnExplicitBearerTokenSecretIsSentInstead() {
        Consumer<GodClusterSpec> named = s -> {
            AuthSpec auth = new AuthSpec();
            auth.setMetricsSecret("prometheus-token");
            s.setAuth(auth);
        };
        assertThat(authorization(cluster("ServiceMonitor", named))).isEqualTo(bearer("prometheus-token", "token"));
        Consumer<GodClusterSpec> explicit = named.andThen(s -> s.getMonitoring()
                .setBearerTokenSecret(new SecretKeySelector("current", "scrape-token", false)));
        assertThat(authorization(cluster("PodMonitor", explicit))).isEqualTo(bearer("scrape-token", "current"));
    }
}

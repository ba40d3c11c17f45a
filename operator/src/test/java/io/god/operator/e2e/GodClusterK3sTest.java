package io.god.operator.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.god.operator.model.GodCluster;
import io.god.operator.model.GodClusterSpec;
import io.god.operator.model.PodTemplateOverrides;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.testcontainers.junit.jupiter.Testcontainers;

/**
 * End to end against k3s: what the mock server cannot show — CRD admission (schema, defaults, CEL), the /scale
 * subresource, and the operator creating its objects on a real API server. Runs only where Docker is; elsewhere
 * JUnit reports it skipped.
 */
@Testcontainers(disabledWithoutDocker = true)
@QuarkusTest
@QuarkusTestResource(value = K3sTestResource.class, restrictToAnnotatedClass = true)
class GodClusterK3sTest {

    static final String NS = "e2e";
    static final Duration TIMEOUT = Duration.ofSeconds(90);

    @Inject
    KubernetesClient client;

    @Test
    void admissionDefaultsAndRejectsBadSpecs() {
        namespace();
        GodCluster created = client.resource(cluster("defaults", spec -> {
        })).create();
        assertThat(created.getSpec().getReplicas()).isEqualTo(3);
        assertThat(created.getSpec().getRedundancy()).isEqualTo(3);
        assertThat(created.getSpec().getTombstoneWindow()).isEqualTo("24h");
        assertThat(created.getSpec().getPaused()).isFalse();

        assertRejected(cluster("short-window", s -> s.setTombstoneWindow("30m")), "at least 1h");
        assertRejected(cluster("bad-window", s -> s.setTombstoneWindow("1d")), "tombstoneWindow");
        assertRejected(cluster("negative", s -> s.setReplicas(-1)), "replicas");
        assertRejected(cluster("no-redundancy", s -> s.setRedundancy(0)), "redundancy");
        assertRejected(cluster("selector-label", s -> {
            PodTemplateOverrides t = new PodTemplateOverrides();
            t.setLabels(Map.of("app.kubernetes.io/instance", "x"));
            s.setPodTemplate(t);
        }), "podTemplate.labels");
    }

    @Test
    void scaleSubresourceAndOwnedObjects() {
        namespace();
        client.resource(cluster("ring", s -> s.setReplicas(1))).create();
        await().atMost(TIMEOUT).untilAsserted(() -> {
            assertThat(client.apps().statefulSets().inNamespace(NS).withName("ring").get()).isNotNull();
            assertThat(client.services().inNamespace(NS).withName("ring").get()).isNotNull();
            assertThat(client.services().inNamespace(NS).withName("ring-peers").get()).isNotNull();
            assertThat(client.configMaps().inNamespace(NS).withName("ring-config").get()).isNotNull();
        });
        client.resources(GodCluster.class).inNamespace(NS).withName("ring").scale(2);
        assertThat(client.resources(GodCluster.class).inNamespace(NS).withName("ring").get().getSpec().getReplicas())
                .isEqualTo(2);
        await().atMost(TIMEOUT).untilAsserted(() -> {
            assertThat(client.apps().statefulSets().inNamespace(NS).withName("ring").get().getSpec().getReplicas())
                    .isEqualTo(2);
            assertThat(client.policy().v1().podDisruptionBudget().inNamespace(NS).withName("ring").get()).isNotNull();
            GodCluster gc = client.resources(GodCluster.class).inNamespace(NS).withName("ring").get();
            assertThat(gc.getStatus().getSelector()).isEqualTo("app.kubernetes.io/name=god,app.kubernetes.io/instance=ring");
        });
    }

    private void assertRejected(GodCluster gc, String messagePart) {
        assertThatThrownBy(() -> client.resource(gc).create()).isInstanceOf(KubernetesClientException.class)
                .hasMessageContaining(messagePart)
                .satisfies(e -> assertThat(((KubernetesClientException) e).getCode()).isEqualTo(422));
    }

    private void namespace() {
        if (client.namespaces().withName(NS).get() == null) {
            client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NS).endMetadata().build())
                    .create();
        }
    }

    private static GodCluster cluster(String name, Consumer<GodClusterSpec> spec) {
        GodCluster gc = new GodCluster();
        gc.getMetadata().setName(name);
        gc.getMetadata().setNamespace(NS);
        gc.setSpec(new GodClusterSpec());
        gc.getSpec().setImage("example.org/god-node:e2e");
        spec.accept(gc.getSpec());
        return gc;
    }
}

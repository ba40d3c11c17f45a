package io.god.operator.resources;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.god.operator.model.AuthSpec;
import io.god.operator.model.GodCluster;
import io.god.operator.model.GodClusterSpec;
import io.god.operator.model.Settings;
import io.god.operator.model.TlsSpec;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** How the members get their Secrets: volumes and file paths, never values; the Secrets' hash in the spec hash. */
class NodeSecretsTest {

    static GodCluster cluster(Consumer<GodClusterSpec> change) {
        GodCluster gc = new GodCluster();
        gc.getMetadata().setName("demo");
        gc.getMetadata().setNamespace("ns");
        gc.getMetadata().setUid("uid-1");
        GodClusterSpec spec = new GodClusterSpec();
        change.accept(spec);
        gc.setSpec(spec);
        return gc;
    }

    static DesiredObjects desired(GodCluster gc, String secretsHash) {
        return new DesiredObjects(gc, Settings.of(gc.getSpec(), "img:1"), new DesiredObjects.Secured(secretsHash, "ops"));
    }

    static Map<String, String> env(Container c) {
        return c.getEnv().stream().filter(e -> e.getValue() != null)
                .collect(Collectors.toMap(EnvVar::getName, EnvVar::getValue));
    }

    static Map<String, Volume> volumes(PodSpec pod) {
        return pod.getVolumes().stream().collect(Collectors.toMap(Volume::getName, v -> v));
    }

    @Test
    void everyCredentialIsAFileFromItsSecret() {
        PodSpec pod = desired(cluster(s -> { }), "h1").podTemplate().getSpec();
        Container node = pod.getContainers().get(0);
        assertThat(env(node)).containsEntry("GOD_AUTH_TOKEN_FILE", "/etc/god/auth/client/token")
                .containsEntry("GOD_AUTH_PEER_TOKEN_FILE", "/etc/god/auth/peer/token")
                .containsEntry("GOD_AUTH_ADMIN_TOKEN_FILE", "/etc/god/auth/admin/token")
                .containsEntry("GOD_AUTH_METRICS_TOKEN_FILE", "/etc/god/auth/metrics/token")
                .doesNotContainKeys("GOD_TLS_CERT_FILE", "GOD_AUTH_TOKEN");
        assertThat(node.getEnv()).as("no value from a Secret in the environment")
                .allSatisfy(e -> assertThat(e.getValueFrom() == null || e.getValueFrom().getSecretKeyRef() == null).isTrue());
        Map<String, Volume> volumes = volumes(pod);
        assertThat(volumes.get("auth-client").getSecret().getSecretName()).isEqualTo("demo-client-token");
        assertThat(volumes.get("auth-peer").getSecret().getSecretName()).isEqualTo("demo-peer-token");
        assertThat(volumes.get("auth-admin").getSecret().getSecretName()).isEqualTo("demo-admin-token");
        assertThat(volumes.get("auth-metrics").getSecret().getSecretName()).isEqualTo("demo-metrics-token");
        assertThat(volumes.get("auth-admin").getSecret().getItems()).singleElement()
                .satisfies(i -> assertThat(i.getKey() + "→" + i.getPath()).isEqualTo("token→token"));
        assertThat(volumes.get("auth-admin").getSecret().getDefaultMode()).isEqualTo(0440);
        assertThat(volumes).doesNotContainKey("tls");
        assertThat(node.getVolumeMounts()).filteredOn(m -> m.getMountPath().startsWith("/etc/god"))
                .extracting(m -> m.getName() + ":" + m.getMountPath() + ":" + m.getReadOnly())
                .containsExactly("auth-client:/etc/god/auth/client:true", "auth-peer:/etc/god/auth/peer:true",
                        "auth-admin:/etc/god/auth/admin:true", "auth-metrics:/etc/god/auth/metrics:true");
    }

    @Test
    void namedSecretsAreMountedInsteadOfGeneratedOnes() {
        PodSpec pod = desired(cluster(s -> {
            AuthSpec auth = new AuthSpec();
            auth.setClientSecret("app-token");
            auth.setAdminSecret("ops-token");
            s.setAuth(auth);
        }), "h1").podTemplate().getSpec();
        Map<String, Volume> volumes = volumes(pod);
        assertThat(volumes.get("auth-client").getSecret().getSecretName()).isEqualTo("app-token");
        assertThat(volumes.get("auth-peer").getSecret().getSecretName()).as("not named: generated")
                .isEqualTo("demo-peer-token");
        assertThat(volumes.get("auth-admin").getSecret().getSecretName()).isEqualTo("ops-token");
        assertThat(volumes.get("auth-metrics").getSecret().getSecretName()).as("not named: generated")
                .isEqualTo("demo-metrics-token");
        assertThat(NodeSecrets.credentials(cluster(s -> s.setAuth(new AuthSpec()))))
                .allSatisfy(r -> assertThat(r.generated()).isTrue());
    }

    @Test
    void tlsIsMountedAtEtcGodTlsWithTheNodeSettings() {
        PodSpec pod = desired(cluster(s -> {
            TlsSpec tls = new TlsSpec();
            tls.setSecretName("demo-tls");
            tls.setPeerSan("demo-peers.ns.svc");
            s.setTls(tls);
        }), "h1").podTemplate().getSpec();
        Container node = pod.getContainers().get(0);
        assertThat(env(node)).containsEntry("GOD_TLS_CERT_FILE", "/etc/god/tls/tls.crt")
                .containsEntry("GOD_TLS_KEY_FILE", "/etc/god/tls/tls.key")
                .containsEntry("GOD_TLS_CA_FILE", "/etc/god/tls/ca.crt")
                .containsEntry("GOD_TLS_PEER_SAN", "demo-peers.ns.svc");
        Volume tls = volumes(pod).get("tls");
        assertThat(tls.getSecret().getSecretName()).isEqualTo("demo-tls");
        assertThat(tls.getSecret().getItems()).extracting(i -> i.getKey())
                .containsExactly("tls.crt", "tls.key", "ca.crt");
        assertThat(node.getVolumeMounts()).anySatisfy(m -> {
            assertThat(m.getName()).isEqualTo("tls");
            assertThat(m.getMountPath()).isEqualTo("/etc/god/tls");
            assertThat(m.getReadOnly()).isTrue();
        });
        TlsSpec noSan = new TlsSpec();
        noSan.setSecretName("demo-tls");
        assertThat(env(desired(cluster(s -> s.setTls(noSan)), "h1").podTemplate().getSpec().getContainers().get(0)))
                .as("the node's default peer name").doesNotContainKey("GOD_TLS_PEER_SAN");
    }

    @Test
    void aChangedSecretChangesTheSpecHashAndNothingElseOfTheTemplate() {
        GodCluster gc = cluster(s -> { });
        var before = desired(gc, "aaaa").statefulSet(0);
        var after = desired(gc, "bbbb").statefulSet(0);
        assertThat(before.getSpec().getTemplate().getMetadata().getAnnotations())
                .containsEntry(DesiredObjects.SECRETS_HASH, "aaaa");
        assertThat(after.getMetadata().getAnnotations().get(DesiredObjects.SPEC_HASH)).as("rolls")
                .isNotEqualTo(before.getMetadata().getAnnotations().get(DesiredObjects.SPEC_HASH));
        assertThat(desired(gc, "aaaa").statefulSet(0).getMetadata().getAnnotations())
                .as("stable").isEqualTo(before.getMetadata().getAnnotations());
        after.getSpec().getTemplate().getMetadata().setAnnotations(before.getSpec().getTemplate().getMetadata()
                .getAnnotations());
        assertThat(Serialization.asJson(after.getSpec().getTemplate()))
                .isEqualTo(Serialization.asJson(before.getSpec().getTemplate()));
    }
}

package io.god.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeerBuilder;
import io.god.operator.fake.FakeNodeAdmin;
import io.god.operator.model.AuthSpec;
import io.god.operator.model.GodCluster;
import io.god.operator.model.GodClusterStatus;
import io.god.operator.model.NetworkPolicySpec;
import io.god.operator.model.TlsSpec;
import io.god.operator.reconcile.Conditions;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.KubernetesServer;
import io.quarkus.test.kubernetes.client.KubernetesTestServer;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Issue 34, a GodCluster secure by default, against the mock API server with the fake StatefulSet controller and
 * NodeAdmin: credentials from Secrets (generated when not named) mounted as files and never copied anywhere else, the
 * operator's /admin calls carrying the admin Secret's token, TLS, the roll when a Secret changes, and the
 * NetworkPolicy. The last test checks every API call the operator made against deploy/'s RBAC.
 */
@QuarkusTest
@WithKubernetesTestServer(crud = true)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class GodClusterSecurityTest extends ScenarioSupport {

    static final List<String> GENERATED = List.of("demo-client-token", "demo-peer-token", "demo-admin-token",
            "demo-metrics-token");

    @KubernetesTestServer
    KubernetesServer server;

    @Inject
    FakeNodeAdmin nodeAdmin;

    @BeforeAll
    void startFakes() {
        startFakes(server);
    }

    @AfterAll
    void stopFakes() {
        closeFakes();
    }

    @Test
    @Order(1)
    void generatedCredentialsAreRandomOwnedStableAndOnlyMounted() {
        String ns = "sec-gen";
        GodCluster gc = create(ns, "demo", spec -> spec.setReplicas(3));
        awaitPhase(ns, "demo", "Running");

        Map<String, String> tokens = GENERATED.stream().collect(Collectors.toMap(n -> n, n -> token(ns, n)));
        assertThat(tokens.values()).as("43 base64url characters: 32 random bytes")
                .allSatisfy(t -> assertThat(t).matches("[A-Za-z0-9_-]{43}")).doesNotHaveDuplicates();
        for (String name : GENERATED) {
            Secret secret = k8s.secrets().inNamespace(ns).withName(name).get();
            assertThat(secret.getMetadata().getOwnerReferences()).singleElement()
                    .satisfies(r -> assertThat(r.getUid()).isEqualTo(gc.getMetadata().getUid()));
            assertThat(secret.getMetadata().getLabels()).containsEntry("app.kubernetes.io/managed-by", "god-operator");
        }
        assertThat(eventReasons(ns)).contains("SecretGenerated");

        Container node = container(ns);
        assertThat(plainEnv(node)).containsEntry("GOD_AUTH_TOKEN_FILE", "/etc/god/auth/client/token")
                .containsEntry("GOD_AUTH_PEER_TOKEN_FILE", "/etc/god/auth/peer/token")
                .containsEntry("GOD_AUTH_ADMIN_TOKEN_FILE", "/etc/god/auth/admin/token")
                .containsEntry("GOD_AUTH_METRICS_TOKEN_FILE", "/etc/god/auth/metrics/token");
        assertThat(secretVolumes(ns)).containsEntry("auth-client", "demo-client-token")
                .containsEntry("auth-peer", "demo-peer-token").containsEntry("auth-admin", "demo-admin-token")
                .containsEntry("auth-metrics", "demo-metrics-token");
        assertNoTokenOutsideItsSecret(ns, tokens.values());

        assertThat(nodeAdmin.lastToken(ns, "demo-0")).as("the operator's /admin calls carry the admin Secret's token")
                .isEqualTo(tokens.get("demo-admin-token"));

        // more passes (a status call per pass and member): nothing is regenerated, nothing rolls
        String hash = specHash(ns);
        List<String> pods = podUids(ns);
        long calls = nodeAdmin.statusCalls(ns, "demo-0");
        await().atMost(TIMEOUT).until(() -> nodeAdmin.statusCalls(ns, "demo-0") >= calls + 3);
        assertThat(GENERATED.stream().collect(Collectors.toMap(n -> n, n -> token(ns, n)))).isEqualTo(tokens);
        assertThat(specHash(ns)).isEqualTo(hash);
        assertThat(podUids(ns)).isEqualTo(pods);
    }

    @Test
    @Order(2)
    void aChangedCredentialRollsEveryMemberAndTheOperatorSendsTheNewOne() {
        String ns = "sec-gen";
        String hash = specHash(ns);
        List<String> pods = podUids(ns);
        // step 1 of a rotation: the new token accepted (second line) while the old one is still sent
        String old = token(ns, "demo-admin-token");
        putToken(ns, "demo-admin-token", old + "\nnew-admin-token-0001\n");
        await().atMost(TIMEOUT).until(() -> !hash.equals(specHash(ns)));
        awaitRolled(ns, pods);
        assertThat(nodeAdmin.lastToken(ns, "demo-0")).isEqualTo(old);
        // step 2: the new token sent, the old one still accepted
        String rolled = specHash(ns);
        List<String> rolledPods = podUids(ns);
        putToken(ns, "demo-admin-token", "new-admin-token-0001\n" + old + "\n");
        await().atMost(TIMEOUT).until(() -> !rolled.equals(specHash(ns)));
        awaitRolled(ns, rolledPods);
        await().atMost(TIMEOUT).until(() -> "new-admin-token-0001".equals(nodeAdmin.lastToken(ns, "demo-0")));
        assertThat(eventReasons(ns)).doesNotContain("SecretUnavailable");
        assertThat(k8s.secrets().inNamespace(ns).withName("demo-admin-token").get().getMetadata().getOwnerReferences())
                .as("still the operator's, not replaced").hasSize(1);
    }

    @Test
    @Order(3)
    void namedSecretsAndTlsAreMountedAndAMissingOneBlocksUntilItExists() {
        String ns = "sec-named";
        create(ns, "demo", spec -> {
            spec.setReplicas(2);
            AuthSpec auth = new AuthSpec();
            auth.setClientSecret("app-token");
            auth.setPeerSecret("ring-token");
            auth.setAdminSecret("ring-token");
            spec.setAuth(auth);
            TlsSpec tls = new TlsSpec();
            tls.setSecretName("demo-tls");
            spec.setTls(tls);
        });
        k8s.resource(secret(ns, "app-token", Map.of("token", "app-token-value-1\n"))).create();
        GodClusterStatus blocked = awaitPhase(ns, "demo", "Blocked");
        assertCondition(blocked, Conditions.DEGRADED, "True", "SecretUnavailable");
        String message = Conditions.find(blocked.getConditions(), Conditions.DEGRADED).orElseThrow().getMessage();
        assertThat(message).contains("Secret ring-token (spec.auth.peerSecret) does not exist",
                "Secret ring-token (spec.auth.adminSecret)", "Secret demo-tls (spec.tls.secretName) does not exist");
        assertThat(k8s.apps().statefulSets().inNamespace(ns).withName("demo").get())
                .as("no member starts without its Secrets").isNull();
        assertThat(k8s.secrets().inNamespace(ns).list().getItems())
                .as("named Secrets are never generated (the metrics one is not named: made)")
                .extracting(s -> s.getMetadata().getName()).containsExactlyInAnyOrder("app-token", "demo-metrics-token");

        k8s.resource(secret(ns, "ring-token", Map.of("token", "short"))).create();
        k8s.resource(secret(ns, "demo-tls", Map.of("tls.crt", "CERT", "tls.key", "KEY"))).create();
        await().atMost(TIMEOUT).untilAsserted(() -> assertThat(degraded(ns))
                .contains("Secret ring-token (spec.auth.peerSecret) needs a key token whose first line is a token of at"
                        + " least 8 characters", "Secret demo-tls (spec.tls.secretName) lacks ca.crt")
                .doesNotContain("short", "CERT", "KEY"));

        putToken(ns, "ring-token", "ring-token-value-1\n");
        k8s.secrets().inNamespace(ns).withName("demo-tls").edit(s -> {
            s.getData().put("ca.crt", b64("CA"));
            return s;
        });
        awaitPhase(ns, "demo", "Running");
        assertThat(secretVolumes(ns)).containsEntry("auth-client", "app-token").containsEntry("auth-peer", "ring-token")
                .containsEntry("auth-admin", "ring-token").containsEntry("tls", "demo-tls");
        assertThat(plainEnv(container(ns))).containsEntry("GOD_TLS_CERT_FILE", "/etc/god/tls/tls.crt")
                .containsEntry("GOD_TLS_KEY_FILE", "/etc/god/tls/tls.key")
                .containsEntry("GOD_TLS_CA_FILE", "/etc/god/tls/ca.crt");
        assertThat(nodeAdmin.lastToken(ns, "demo-0")).isEqualTo("ring-token-value-1");
        assertNoTokenOutsideItsSecret(ns, List.of("app-token-value-1", "ring-token-value-1"));

        // a renewed certificate rolls the members
        String hash = specHash(ns);
        List<String> pods = podUids(ns);
        k8s.secrets().inNamespace(ns).withName("demo-tls").edit(s -> {
            s.getData().put("tls.crt", b64("CERT-2"));
            return s;
        });
        await().atMost(TIMEOUT).until(() -> !hash.equals(specHash(ns)));
        awaitRolled(ns, pods);
    }

    @Test
    @Order(4)
    void theNetworkPolicyFollowsTheSpecIsRepairedAndGoesWhenDisabled() {
        String ns = "sec-net";
        GodCluster gc = create(ns, "demo", spec -> spec.setReplicas(1));
        awaitPhase(ns, "demo", "Running");
        NetworkPolicy policy = policy(ns);
        assertThat(policy.getMetadata().getOwnerReferences()).singleElement()
                .satisfies(r -> assertThat(r.getUid()).isEqualTo(gc.getMetadata().getUid()));
        assertThat(policy.getSpec().getPodSelector().getMatchLabels()).containsOnly(
                Map.entry("app.kubernetes.io/name", "god"), Map.entry("app.kubernetes.io/instance", "demo"));
        assertThat(policy.getSpec().getIngress()).hasSize(3);
        assertThat(policy.getSpec().getIngress().get(1).getFrom()).singleElement().satisfies(f -> assertThat(
                f.getNamespaceSelector().getMatchLabels()).containsEntry("kubernetes.io/metadata.name", "god-system"));

        edit(ns, "demo", c -> {
            NetworkPolicySpec spec = new NetworkPolicySpec();
            spec.setClients(List.of(new NetworkPolicyPeerBuilder().withNewPodSelector().addToMatchLabels("role", "app")
                    .endPodSelector().build()));
            spec.setMonitoring(List.of(new NetworkPolicyPeerBuilder().withNewNamespaceSelector()
                    .addToMatchLabels("kubernetes.io/metadata.name", "monitoring").endNamespaceSelector().build()));
            c.getSpec().setNetworkPolicy(spec);
        });
        await().atMost(TIMEOUT).untilAsserted(() -> {
            var ingress = policy(ns).getSpec().getIngress();
            assertThat(ingress.get(1).getFrom()).hasSize(2);
            assertThat(ingress.get(2).getFrom()).singleElement()
                    .satisfies(f -> assertThat(f.getPodSelector().getMatchLabels()).containsEntry("role", "app"));
        });

        // someone opens the data ports to everyone: repaired
        k8s.network().v1().networkPolicies().inNamespace(ns).withName("demo").edit(p -> {
            p.getSpec().getIngress().get(2).setFrom(List.of());
            return p;
        });
        await().atMost(TIMEOUT).untilAsserted(() -> assertThat(policy(ns).getSpec().getIngress().get(2).getFrom())
                .singleElement().satisfies(f -> assertThat(f.getPodSelector().getMatchLabels())
                        .containsEntry("role", "app")));

        edit(ns, "demo", c -> c.getSpec().getNetworkPolicy().setEnabled(false));
        await().atMost(TIMEOUT).until(() -> k8s.network().v1().networkPolicies().inNamespace(ns).withName("demo")
                .get() == null);
    }

    @Test
    @Order(100)
    void rbacAllowsEveryCallTheOperatorMade() throws Exception {
        assertRbacAllowsEveryCall(server, "get /secrets", "create /secrets",
                "create networking.k8s.io/networkpolicies", "patch networking.k8s.io/networkpolicies",
                "delete networking.k8s.io/networkpolicies", "watch networking.k8s.io/networkpolicies");
    }

    /** Every pod made again from the current template. */
    private void awaitRolled(String ns, List<String> before) {
        await().atMost(TIMEOUT.multipliedBy(2)).until(() -> {
            String hash = specHash(ns);
            List<Pod> pods = k8s.pods().inNamespace(ns).list().getItems();
            return !pods.isEmpty() && pods.stream().allMatch(p -> hash.equals(p.getMetadata().getAnnotations()
                    .get("god.io/spec-hash")) && !before.contains(p.getMetadata().getUid()));
        });
        awaitPhase(ns, "demo", "Running");
    }

    private String degraded(String ns) {
        GodClusterStatus s = current(ns, "demo").getStatus();
        return s == null ? "" : Conditions.find(s.getConditions(), Conditions.DEGRADED).map(c -> c.getMessage()).orElse("");
    }

    private NetworkPolicy policy(String ns) {
        return k8s.network().v1().networkPolicies().inNamespace(ns).withName("demo").get();
    }

    private Container container(String ns) {
        StatefulSet sts = k8s.apps().statefulSets().inNamespace(ns).withName("demo").get();
        return sts.getSpec().getTemplate().getSpec().getContainers().get(0);
    }

    private static Map<String, String> plainEnv(Container c) {
        return c.getEnv().stream().filter(e -> e.getValue() != null)
                .collect(Collectors.toMap(EnvVar::getName, EnvVar::getValue));
    }

    /** volume name → Secret name, of the pod template. */
    private Map<String, String> secretVolumes(String ns) {
        return k8s.apps().statefulSets().inNamespace(ns).withName("demo").get().getSpec().getTemplate().getSpec()
                .getVolumes().stream().filter(v -> v.getSecret() != null)
                .collect(Collectors.toMap(v -> v.getName(), v -> v.getSecret().getSecretName()));
    }

    private void putToken(String ns, String name, String value) {
        k8s.secrets().inNamespace(ns).withName(name).edit(s -> {
            s.getData().put("token", b64(value));
            return s;
        });
    }

    private static Secret secret(String ns, String name, Map<String, String> values) {
        return new SecretBuilder().withNewMetadata().withName(name).withNamespace(ns).endMetadata()
                .withData(values.entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey, e -> b64(e.getValue()))))
                .build();
    }

    private static String b64(String s) {
        return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
    }
}

package io.god.operator.fake;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.god.operator.model.GodCluster;
import io.god.operator.model.Settings;
import io.god.operator.reconcile.SpecValidator;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** `kubectl apply -f deploy/` must work as is: one consistent set of objects, the namespace first. */
class DeployManifestsTest {

    @Test
    void appliesInOrderAndFitsTogether() throws IOException {
        try (Stream<Path> files = Files.list(Rbac.deployDir())) {
            List<String> names = files.map(f -> f.getFileName().toString()).sorted().toList();
            assertThat(names).doesNotContain("kustomization.yaml", "kustomization.yml");
            assertThat(names.stream().filter(n -> n.endsWith(".yaml")).findFirst()).hasValue("00-namespace.yaml");
        }
        List<HasMetadata> objects = Rbac.deployObjects();
        Namespace ns = one(objects, Namespace.class);
        ServiceAccount sa = one(objects, ServiceAccount.class);
        ClusterRoleBinding binding = one(objects, ClusterRoleBinding.class);
        Deployment deployment = one(objects, Deployment.class);
        String namespace = ns.getMetadata().getName();
        assertThat(sa.getMetadata().getNamespace()).isEqualTo(namespace);
        assertThat(deployment.getMetadata().getNamespace()).isEqualTo(namespace);
        assertThat(binding.getRoleRef().getName()).isEqualTo(Rbac.operatorRole().getMetadata().getName());
        assertThat(binding.getSubjects()).singleElement().satisfies(s -> {
            assertThat(s.getKind()).isEqualTo("ServiceAccount");
            assertThat(s.getName()).isEqualTo(sa.getMetadata().getName());
            assertThat(s.getNamespace()).isEqualTo(namespace);
        });
        var pod = deployment.getSpec().getTemplate().getSpec();
        assertThat(pod.getServiceAccountName()).isEqualTo(sa.getMetadata().getName());
        assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
        assertThat(pod.getContainers().get(0).getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
        assertThat(deployment.getSpec().getSelector().getMatchLabels())
                .isEqualTo(deployment.getSpec().getTemplate().getMetadata().getLabels());
    }

    /** Two replicas elect a leader: the Lease rights in the operator's namespace, its identity, a disruption budget. */
    @Test
    void twoReplicasElectALeader() throws IOException {
        List<HasMetadata> objects = Rbac.deployObjects();
        String namespace = one(objects, Namespace.class).getMetadata().getName();
        ServiceAccount sa = one(objects, ServiceAccount.class);
        Deployment deployment = one(objects, Deployment.class);
        Role role = one(objects, Role.class);
        RoleBinding binding = one(objects, RoleBinding.class);
        assertThat(role.getMetadata().getNamespace()).isEqualTo(namespace);
        assertThat(binding.getMetadata().getNamespace()).isEqualTo(namespace);
        assertThat(binding.getRoleRef().getKind()).isEqualTo("Role");
        assertThat(binding.getRoleRef().getName()).isEqualTo(role.getMetadata().getName());
        assertThat(binding.getSubjects()).singleElement().satisfies(s -> {
            assertThat(s.getName()).isEqualTo(sa.getMetadata().getName());
            assertThat(s.getNamespace()).isEqualTo(namespace);
        });
        // what the Java Operator SDK checks at start (SelfSubjectRulesReview) and fabric8 renews with (patch)
        assertThat(Rbac.rulesReview(namespace).getStatus().getResourceRules())
                .anySatisfy(r -> {
                    assertThat(r.getApiGroups()).contains("coordination.k8s.io");
                    assertThat(r.getResources()).contains("leases");
                    assertThat(r.getVerbs()).contains("get", "create", "update", "patch");
                });
        assertThat(deployment.getSpec().getReplicas()).isGreaterThanOrEqualTo(2);
        assertThat(deployment.getSpec().getStrategy().getType()).isEqualTo("RollingUpdate");
        Map<String, String> downward = new TreeMap<>();
        deployment.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv().stream()
                .filter(e -> e.getValueFrom() != null && e.getValueFrom().getFieldRef() != null)
                .forEach(e -> downward.put(e.getName(), e.getValueFrom().getFieldRef().getFieldPath()));
        assertThat(downward).containsEntry("POD_NAMESPACE", "metadata.namespace").containsEntry("POD_NAME", "metadata.name");
        PodDisruptionBudget pdb = one(objects, PodDisruptionBudget.class);
        assertThat(pdb.getMetadata().getNamespace()).isEqualTo(namespace);
        assertThat(pdb.getSpec().getSelector().getMatchLabels()).isEqualTo(deployment.getSpec().getSelector().getMatchLabels());
        assertThat(pdb.getSpec().getMinAvailable().getIntVal()).isBetween(1, deployment.getSpec().getReplicas() - 1);
    }

    @Test
    void examplesAreValidGodClusters() throws IOException {
        try (Stream<Path> files = Files.list(Rbac.deployDir().resolve("examples"))) {
            List<Path> examples = files.filter(f -> f.toString().endsWith(".yaml")).toList();
            assertThat(examples).isNotEmpty();
            for (Path example : examples) {
                try (InputStream in = Files.newInputStream(example)) {
                    GodCluster gc = Serialization.unmarshal(in, GodCluster.class);
                    assertThat(gc.getApiVersion()).isEqualTo("god.io/v1alpha1");
                    assertThat(SpecValidator.problems(gc.getSpec(), Settings.of(gc.getSpec(), "default:1")))
                            .as(example.toString()).isEmpty();
                }
            }
        }
    }

    /**
     * The cert-manager example makes the Secret the TLS example's GodCluster names, in cert-manager's layout with a
     * PKCS#8 key, for every name a client or a peer dials (the client Service, each pod of the headless Service).
     */
    @Test
    void theCertManagerExampleCoversTheTlsGodCluster() throws IOException {
        GodCluster gc;
        try (InputStream in = Files.newInputStream(Rbac.deployDir().resolve("examples/godcluster-tls.yaml"))) {
            gc = Serialization.unmarshal(in, GodCluster.class);
        }
        String name = gc.getMetadata().getName();
        String ns = gc.getMetadata().getNamespace();
        List<io.fabric8.kubernetes.api.model.GenericKubernetesResource> objects = java.util.Arrays.stream(Files
                .readString(Rbac.deployDir().resolve("examples/cert-manager/demo-tls.yaml")).split("(?m)^---$"))
                .map(doc -> Serialization.unmarshal(doc, io.fabric8.kubernetes.api.model.GenericKubernetesResource.class))
                .toList();
        var certificate = objects.stream().filter(o -> o.getKind().equals("Certificate"))
                .filter(o -> gc.getSpec().getTls().getSecretName().equals(o.get("spec", "secretName"))).findFirst()
                .orElseThrow(() -> new AssertionError("no Certificate makes Secret " + gc.getSpec().getTls().getSecretName()));
        assertThat(certificate.getMetadata().getNamespace()).isEqualTo(ns);
        assertThat((String) certificate.get("spec", "privateKey", "encoding")).isEqualTo("PKCS8");
        assertThat((List<String>) certificate.get("spec", "dnsNames")).contains(name + "." + ns + ".svc",
                "*." + name + "-peers." + ns + ".svc");
        assertThat((List<String>) certificate.get("spec", "usages")).contains("server auth", "client auth");
        String issuer = certificate.get("spec", "issuerRef", "name");
        assertThat(objects).as("its Issuer is in the example").anySatisfy(o -> {
            assertThat(o.getKind()).isEqualTo("Issuer");
            assertThat(o.getMetadata().getName()).isEqualTo(issuer);
            assertThat(o.getMetadata().getNamespace()).isEqualTo(ns);
        });
    }

    private static <T> T one(List<HasMetadata> objects, Class<T> type) {
        List<T> found = objects.stream().filter(type::isInstance).map(type::cast).toList();
        assertThat(found).as(type.getSimpleName() + " in deploy/").hasSize(1);
        return found.get(0);
    }

    /** deploy/monitoring/god-alerts.yaml is a PrometheusRule fabric8 reads, in the operator's namespace, every rule whole. */
    @Test
    void theAlertsAreAPrometheusRule() throws IOException {
        io.fabric8.kubernetes.api.model.GenericKubernetesResource rule;
        try (InputStream in = Files.newInputStream(Rbac.deployDir().resolve("monitoring/god-alerts.yaml"))) {
            rule = Serialization.unmarshal(in, io.fabric8.kubernetes.api.model.GenericKubernetesResource.class);
        }
        assertThat(rule.getApiVersion()).isEqualTo("monitoring.coreos.com/v1");
        assertThat(rule.getKind()).isEqualTo("PrometheusRule");
        assertThat(rule.getMetadata().getNamespace()).isEqualTo(one(Rbac.deployObjects(), Namespace.class).getMetadata().getName());
        List<Map<String, Object>> groups = rule.get("spec", "groups");
        assertThat(groups).isNotEmpty();
        for (Map<String, Object> group : groups) {
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> rules = (List<Map<String, Object>>) group.get("rules");
            assertThat(rules).as("group " + group.get("name")).isNotEmpty().allSatisfy(r -> {
                assertThat(r).containsKeys("alert", "expr", "labels", "annotations");
                assertThat(String.valueOf(r.getOrDefault("for", "0s"))).matches("\\d+[smh]");
            });
        }
    }
}

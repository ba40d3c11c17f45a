package io.god.operator.fake;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The namespace-scoped install (deploy/namespaced/, a kustomize directory) is deploy/ with the ClusterRole made a
 * Role of the operator's namespace and the operator told to watch only that namespace: its copies of deploy/'s
 * objects may not drift. Also: every link in deploy/README.md resolves.
 */
public class NamespacedInstallTest {

    static Path dir() {
        return Rbac.deployDir().resolve("namespaced");
    }

    static HasMetadata load(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return (HasMetadata) Serialization.unmarshal(in);
        }
    }

    /** The kustomization's resources, parsed as fabric8 models (kustomize itself is not needed to read them). */
    static List<HasMetadata> resources() throws IOException {
        List<HasMetadata> out = new ArrayList<>();
        boolean in = false;
        for (String line : Files.readAllLines(dir().resolve("kustomization.yaml"))) {
            if (line.startsWith("resources:")) {
                in = true;
            } else if (in && line.startsWith("  - ")) {
                out.add(load(dir().resolve(line.substring(4).trim())));
            } else if (in && !line.isBlank()) {
                in = false;
            }
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    static <T> T one(List<HasMetadata> objects, Class<T> type, String name) {
        return (T) objects.stream().filter(type::isInstance).filter(o -> o.getMetadata().getName().equals(name))
                .findFirst().orElseThrow(() -> new AssertionError("no " + type.getSimpleName() + " " + name));
    }

    @Test
    void theNamespacedVariantIsDeployWithARoleAndOneWatchedNamespace() throws Exception {
        List<HasMetadata> deploy = Rbac.deployObjects();
        List<HasMetadata> scoped = resources();
        assertThat(scoped).as("every resource of the kustomization parses").hasSize(8);
        assertThat(scoped).noneMatch(o -> o instanceof ClusterRole || o instanceof ClusterRoleBinding);

        for (HasMetadata copy : scoped) {
            if (copy instanceof Role || copy instanceof RoleBinding || copy instanceof Deployment) {
                continue;
            }
            HasMetadata original = deploy.stream().filter(o -> o.getKind().equals(copy.getKind())
                    && o.getMetadata().getName().equals(copy.getMetadata().getName())).findFirst().orElseThrow();
            assertThat(copy).as(copy.getKind() + " copied from deploy/").isEqualTo(original);
        }
        Role leases = one(scoped, Role.class, "god-operator-leader-election");
        assertThat(leases).isEqualTo(one(deploy, Role.class, "god-operator-leader-election"));

        Role role = one(scoped, Role.class, "god-operator");
        String namespace = role.getMetadata().getNamespace();
        assertThat(namespace).isEqualTo("god-system");
        List<PolicyRule> clusterWide = new ArrayList<>(Rbac.operatorRole().getRules());
        clusterWide.removeIf(r -> r.getApiGroups().contains("apiextensions.k8s.io")); // cluster-scoped: no Role grants it
        assertThat(role.getRules()).as("the ClusterRole's namespaced rules").isEqualTo(clusterWide);
        RoleBinding binding = one(scoped, RoleBinding.class, "god-operator");
        assertThat(binding.getRoleRef().getKind()).isEqualTo("Role");
        assertThat(binding.getRoleRef().getName()).isEqualTo("god-operator");
        assertThat(binding.getSubjects()).isEqualTo(one(deploy, ClusterRoleBinding.class, "god-operator").getSubjects());

        Deployment copy = one(scoped, Deployment.class, "god-operator");
        Deployment original = one(deploy, Deployment.class, "god-operator");
        List<EnvVar> env = new ArrayList<>(copy.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv());
        EnvVar watched = env.stream().filter(e -> e.getName().equals(WATCHED)).findFirst().orElseThrow();
        assertThat(watched.getValue()).as("its own namespace (downward API)").isEqualTo("$(POD_NAMESPACE)");
        assertThat(env.indexOf(watched)).as("after POD_NAMESPACE, which it expands")
                .isGreaterThan(env.indexOf(env.stream().filter(e -> e.getName().equals("POD_NAMESPACE")).findFirst()
                        .orElseThrow()));
        env.remove(watched);
        copy.getSpec().getTemplate().getSpec().getContainers().get(0).setEnv(env);
        assertThat(copy).as("otherwise deploy/'s Deployment").isEqualTo(original);
    }

    /** The environment variable that limits the operator to GodClusters of some namespaces (Quarkus Operator SDK). */
    public static final String WATCHED = "QUARKUS_OPERATOR_SDK_CONTROLLERS_GODCLUSTER_NAMESPACES";

    /** The value the namespace-scoped Deployment gives {@link #WATCHED}. */
    public static String watchedNamespaces() throws IOException {
        Deployment d = one(resources(), Deployment.class, "god-operator");
        return d.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv().stream()
                .filter(e -> e.getName().equals(WATCHED)).findFirst().orElseThrow().getValue();
    }

    /** Whether the namespace-scoped install's Roles allow the call (a self review is every user's right). */
    public static boolean allows(ApiCall call) throws IOException {
        if (call.group().equals("authorization.k8s.io") && call.resource().startsWith("selfsubject")) {
            return true;
        }
        return resources().stream().filter(Role.class::isInstance).map(Role.class::cast)
                .filter(r -> r.getMetadata().getNamespace().equals(call.namespace()))
                .flatMap(r -> r.getRules().stream()).anyMatch(rule -> Rbac.matches(rule, call));
    }

    /** `kubectl kustomize` renders it where kubectl exists; elsewhere the test says it did not run. */
    @Test
    void kustomizeRendersItWhereKubectlExists() throws Exception {
        Path kubectl = java.util.stream.Stream.of(System.getenv("PATH").split(java.io.File.pathSeparator))
                .map(p -> Path.of(p, "kubectl")).filter(Files::isExecutable).findFirst().orElse(null);
        if (kubectl == null) {
            System.out.println("NamespacedInstallTest: no kubectl on PATH, kustomize rendering not run"
                    + " (the resources were parsed as fabric8 models instead)");
            return;
        }
        Process p = new ProcessBuilder(kubectl.toString(), "kustomize", dir().toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).contains("kind: Role", WATCHED).doesNotContain("kind: ClusterRole");
        System.out.println("NamespacedInstallTest: rendered with " + kubectl);
    }

    @Test
    void everyLinkOfDeployReadmeResolves() throws IOException {
        Path readme = Rbac.deployDir().resolve("README.md");
        Matcher links = Pattern.compile("\\]\\(([^)#\\s]+)(#[^)]*)?\\)").matcher(Files.readString(readme));
        List<String> broken = new ArrayList<>();
        int count = 0;
        while (links.find()) {
            String target = links.group(1);
            if (target.startsWith("http")) {
                continue;
            }
            count++;
            if (!Files.exists(readme.getParent().resolve(target))) {
                broken.add(target);
            }
        }
        assertThat(count).as("links checked").isPositive();
        assertThat(broken).as("links of deploy/README.md that lead nowhere").isEmpty();
    }
}

package io.god.operator.fake;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.authorization.v1.ResourceRuleBuilder;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectRulesReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectRulesReviewSpecBuilder;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectRulesReviewStatusBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The ClusterRole and the Roles shipped in deploy/, and whether they allow a call. A SelfSubjectRulesReview (what the
 * Java Operator SDK asks at start when it elects a leader) is allowed to every authenticated user by Kubernetes'
 * built-in {@code system:basic-user} ClusterRole, so deploy/ need not grant it.
 */
public final class Rbac {

    private Rbac() {
    }

    public static Path deployDir() {
        return Path.of(System.getProperty("god.deploy.dir", "../deploy"));
    }

    /** Every object of the top-level YAML files in deploy/ (one object per file). */
    public static List<HasMetadata> deployObjects() throws IOException {
        try (Stream<Path> files = Files.list(deployDir())) {
            return files.filter(f -> f.toString().endsWith(".yaml")).sorted().map(f -> {
                try (InputStream in = Files.newInputStream(f)) {
                    return (HasMetadata) Serialization.unmarshal(in);
                } catch (IOException e) {
                    throw new IllegalStateException(f + ": " + e.getMessage(), e);
                }
            }).toList();
        }
    }

    public static ClusterRole operatorRole() throws IOException {
        return deployObjects().stream().filter(ClusterRole.class::isInstance).map(ClusterRole.class::cast)
                .findFirst().orElseThrow(() -> new IllegalStateException("no ClusterRole in " + deployDir()));
    }

    /** Whether deploy/ allows the call: its ClusterRole, a Role of the call's namespace, or a self review. */
    public static boolean allows(ApiCall call) throws IOException {
        return call.group().equals("authorization.k8s.io") && call.resource().startsWith("selfsubject")
                || rules(call.namespace()).stream().anyMatch(rule -> matches(rule, call));
    }

    /** {@link #rules} by namespace: deploy/ is read once per namespace (a scenario suite checks thousands of calls). */
    private static final java.util.Map<String, List<PolicyRule>> RULES = new java.util.concurrent.ConcurrentHashMap<>();

    /** The rules deploy/ grants in a namespace (empty: cluster-wide only): the ClusterRole's and its Roles'. */
    public static List<PolicyRule> rules(String namespace) throws IOException {
        List<PolicyRule> known = RULES.get(namespace);
        if (known == null) {
            known = List.copyOf(read(namespace));
            RULES.put(namespace, known);
        }
        return known;
    }

    private static List<PolicyRule> read(String namespace) throws IOException {
        List<PolicyRule> rules = new ArrayList<>(operatorRole().getRules());
        deployObjects().stream().filter(Role.class::isInstance).map(Role.class::cast)
                .filter(r -> r.getMetadata().getNamespace().equals(namespace)).forEach(r -> rules.addAll(r.getRules()));
        return rules;
    }

    /** What the API server would answer to a SelfSubjectRulesReview of the namespace for deploy/'s ServiceAccount. */
    public static SelfSubjectRulesReview rulesReview(String namespace) throws IOException {
        SelfSubjectRulesReview review = new SelfSubjectRulesReview();
        review.setSpec(new SelfSubjectRulesReviewSpecBuilder().withNamespace(namespace).build());
        review.setStatus(new SubjectRulesReviewStatusBuilder().withIncomplete(false)
                .withResourceRules(rules(namespace).stream().map(r -> new ResourceRuleBuilder()
                        .withApiGroups(r.getApiGroups()).withResources(r.getResources()).withVerbs(r.getVerbs())
                        .withResourceNames(r.getResourceNames()).build()).toList())
                .build());
        return review;
    }

    static boolean matches(PolicyRule rule, ApiCall call) {
        return contains(rule.getApiGroups(), call.group()) && contains(rule.getResources(), call.resource())
                && contains(rule.getVerbs(), call.verb())
                && (rule.getResourceNames() == null || rule.getResourceNames().isEmpty()
                        || rule.getResourceNames().stream().anyMatch(n -> call.name().equals(n)));
    }

    private static boolean contains(List<String> values, String value) {
        return values != null && (values.contains(value) || values.contains("*"));
    }
}

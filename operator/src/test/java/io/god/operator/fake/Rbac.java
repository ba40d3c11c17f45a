package io.god.operator.fake;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** The ClusterRole shipped in deploy/, and whether it allows a call. */
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

    public static boolean allows(ClusterRole role, ApiCall call) {
        return role.getRules().stream().anyMatch(rule -> matches(rule, call));
    }

    private static boolean matches(PolicyRule rule, ApiCall call) {
        return contains(rule.getApiGroups(), call.group()) && contains(rule.getResources(), call.resource())
                && contains(rule.getVerbs(), call.verb())
                && (rule.getResourceNames() == null || rule.getResourceNames().isEmpty()
                        || rule.getResourceNames().stream().anyMatch(n -> call.name().equals(n)));
    }

    private static boolean contains(List<String> values, String value) {
        return values != null && (values.contains(value) || values.contains("*"));
    }
}

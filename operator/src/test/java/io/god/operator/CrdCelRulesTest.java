package io.god.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cel.common.types.SimpleType;
import dev.cel.compiler.CelCompiler;
import dev.cel.compiler.CelCompilerFactory;
import dev.cel.runtime.CelRuntime;
import dev.cel.runtime.CelRuntimeFactory;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.api.model.apiextensions.v1.ValidationRule;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The committed CRD's CEL rules (x-kubernetes-validations) compiled and evaluated with a CEL implementation, on new
 * and old objects as the API server binds them ({@code self}, and {@code oldSelf} for a transition rule on an
 * update). A rule that does not compile, or that lets a forbidden edit through, fails here rather than on a cluster.
 */
class CrdCelRulesTest {

    static final CustomResourceDefinition CRD = load();
    /** With the standard macros (has(), all(), exists()...), as the API server compiles rules. */
    static final CelCompiler COMPILER = CelCompilerFactory.standardCelCompilerBuilder()
            .setStandardMacros(dev.cel.parser.CelStandardMacro.STANDARD_MACROS)
            .addVar("self", SimpleType.DYN).addVar("oldSelf", SimpleType.DYN).build();
    static final CelRuntime RUNTIME = CelRuntimeFactory.standardCelRuntimeBuilder().build();

    static CustomResourceDefinition load() {
        try {
            Path committed = Path.of(System.getProperty("god.crds.committed", "../crds/godclusters.god.io-v1.yml"));
            return Serialization.unmarshal(Files.readString(committed), CustomResourceDefinition.class);
        } catch (Exception e) {
            throw new IllegalStateException("reading the committed CRD", e);
        }
    }

    /** The rules at a schema path: "" is the root, "spec.redundancy" a field. */
    static List<ValidationRule> rules(String path) {
        JSONSchemaProps schema = CRD.getSpec().getVersions().get(0).getSchema().getOpenAPIV3Schema();
        if (!path.isEmpty()) {
            for (String part : path.split("\\.")) {
                schema = schema.getProperties().get(part);
                assertThat(schema).as("schema of " + path).isNotNull();
            }
        }
        return Optional.ofNullable(schema.getXKubernetesValidations()).orElse(List.of());
    }

    /** Whether every rule at the path admits the value (an update when old is non-null; a create otherwise). */
    static boolean admits(String path, Object value, Object old) throws Exception {
        List<ValidationRule> rules = rules(path);
        assertThat(rules).as("CEL rules at " + path).isNotEmpty();
        for (ValidationRule rule : rules) {
            boolean transition = rule.getRule().contains("oldSelf");
            if (transition && old == null) {
                continue; // the API server skips transition rules on create
            }
            Map<String, Object> vars = new HashMap<>();
            vars.put("self", value);
            if (transition) {
                vars.put("oldSelf", old);
            }
            CelRuntime.Program program = RUNTIME.createProgram(COMPILER.compile(rule.getRule()).getAst());
            if (!Boolean.TRUE.equals(program.eval(vars))) {
                return false;
            }
        }
        return true;
    }

    @Test
    void redundancyIsFixedAfterCreation() throws Exception {
        assertThat(admits("spec.redundancy", 3L, null)).as("any N at creation").isTrue();
        assertThat(admits("spec.redundancy", 3L, 3L)).as("unchanged").isTrue();
        assertThat(admits("spec.redundancy", 1L, 3L)).as("3 → 1").isFalse();
        assertThat(admits("spec.redundancy", 5L, 3L)).as("3 → 5").isFalse();
        assertThat(rules("spec.redundancy").get(0).getMessage()).contains("fixed after creation");
    }

    @Test
    void aNameEndingInPeersIsRefused() throws Exception {
        assertThat(admits("", Map.of("metadata", Map.of("name", "demo")), null)).isTrue();
        assertThat(admits("", Map.of("metadata", Map.of("name", "peers")), null)).as("only the suffix").isTrue();
        assertThat(admits("", Map.of("metadata", Map.of("name", "demo-peers")), null)).isFalse();
    }

    @Test
    void storageIsImmutableAndTheTombstoneWindowAtLeastAnHour() throws Exception {
        assertThat(admits("spec.storage.size", "10Gi", "10Gi")).isTrue();
        assertThat(admits("spec.storage.size", "20Gi", "10Gi")).isFalse();
        assertThat(admits("spec.storage.storageClassName", "fast", "slow")).isFalse();
        assertThat(admits("spec.tombstoneWindow", "24h", null)).isTrue();
        assertThat(admits("spec.tombstoneWindow", "90m", null)).isTrue();
        assertThat(admits("spec.tombstoneWindow", "59m", null)).isFalse();
    }

    @Test
    void podTemplateLabelsCannotTakeTheSelectorsKeys() throws Exception {
        assertThat(admits("spec.podTemplate.labels", Map.of("team", "a"), null)).isTrue();
        assertThat(admits("spec.podTemplate.labels", Map.of("app.kubernetes.io/instance", "x"), null)).isFalse();
    }

    @Test
    void tlsIsAddedOrRemovedOnlyWhileHibernated() throws Exception {
        Map<String, Object> plain = Map.of("replicas", 3L);
        Map<String, Object> tls = Map.of("replicas", 3L, "tls", Map.of("secretName", "demo-tls"));
        assertThat(admits("spec", tls, null)).as("TLS from the start").isTrue();
        assertThat(admits("spec", tls, tls)).as("unchanged").isTrue();
        assertThat(admits("spec", Map.of("replicas", 5L, "tls", Map.of("secretName", "other")), tls))
                .as("another Secret, a scale: TLS stays on").isTrue();
        assertThat(admits("spec", tls, plain)).as("TLS added to a running ring").isFalse();
        assertThat(admits("spec", plain, tls)).as("TLS removed from a running ring").isFalse();
        assertThat(admits("spec", Map.of("replicas", 0L, "tls", Map.of("secretName", "t")), Map.of("replicas", 0L)))
                .as("added while hibernated").isTrue();
        assertThat(admits("spec", Map.of("replicas", 0L), Map.of("replicas", 3L, "tls", Map.of("secretName", "t"))))
                .as("removed in the same edit that hibernates").isFalse();
        assertThat(rules("spec").get(0).getMessage()).contains("hibernated");
    }
}

package io.god.operator.resources;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.AffinityBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraintBuilder;
import io.god.operator.model.GodCluster;
import io.god.operator.model.GodClusterSpec;
import io.god.operator.model.PodTemplateOverrides;
import io.god.operator.model.ProbeOverrides;
import io.god.operator.model.ProbeSettings;
import io.god.operator.model.Settings;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** What goes into the spec hash decides which changes restart members (operator part 2 rolls on it). */
class DesiredObjectsTest {

    static String hash(Consumer<GodClusterSpec> change) {
        GodCluster gc = new GodCluster();
        gc.getMetadata().setName("demo");
        gc.getMetadata().setNamespace("ns");
        gc.getMetadata().setUid("uid-1");
        GodClusterSpec spec = new GodClusterSpec();
        spec.setReplicas(3);
        change.accept(spec);
        gc.setSpec(spec);
        return new DesiredObjects(gc, Settings.of(spec, "img:1")).statefulSet(0).getMetadata().getAnnotations()
                .get(DesiredObjects.SPEC_HASH);
    }

    @Test
    void restartRelevantChangesChangeTheHash() {
        String base = hash(s -> {
        });
        assertThat(hash(s -> {
        })).as("stable").isEqualTo(base);
        assertThat(hash(s -> s.setRestartNonce("1"))).isNotEqualTo(base);
        assertThat(hash(s -> s.setImage("img:2"))).isNotEqualTo(base);
        assertThat(hash(s -> s.setRedundancy(2))).isNotEqualTo(base);
        assertThat(hash(s -> s.setTombstoneWindow("48h"))).isNotEqualTo(base);
    }

    @Test
    void scalingAndServiceTypeDoNotRestartMembers() {
        String base = hash(s -> {
        });
        assertThat(hash(s -> s.setReplicas(7))).isEqualTo(base);
        assertThat(hash(s -> s.setPaused(false))).isEqualTo(base);
    }

    @Test
    void aUserAntiAffinityReplacesTheDefaultSpread() {
        GodCluster gc = new GodCluster();
        gc.getMetadata().setName("demo");
        gc.getMetadata().setNamespace("ns");
        GodClusterSpec spec = new GodClusterSpec();
        PodTemplateOverrides t = new PodTemplateOverrides();
        t.setAffinity(new AffinityBuilder().withNewPodAntiAffinity().addNewRequiredDuringSchedulingIgnoredDuringExecution()
                .withTopologyKey("topology.kubernetes.io/zone").endRequiredDuringSchedulingIgnoredDuringExecution()
                .endPodAntiAffinity().build());
        spec.setPodTemplate(t);
        gc.setSpec(spec);
        var anti = new DesiredObjects(gc, Settings.of(spec, "img")).podTemplate().getSpec().getAffinity().getPodAntiAffinity();
        assertThat(anti.getRequiredDuringSchedulingIgnoredDuringExecution()).hasSize(1);
        assertThat(anti.getPreferredDuringSchedulingIgnoredDuringExecution()).isEmpty();
    }

    static io.fabric8.kubernetes.api.model.PodSpec pod(Consumer<GodClusterSpec> change) {
        GodCluster gc = new GodCluster();
        gc.getMetadata().setName("demo");
        gc.getMetadata().setNamespace("ns");
        GodClusterSpec spec = new GodClusterSpec();
        change.accept(spec);
        gc.setSpec(spec);
        return new DesiredObjects(gc, Settings.of(spec, "img:1")).podTemplate().getSpec();
    }

    @Test
    void productionPodDefaults() {
        var pod = pod(s -> {
        });
        var node = pod.getContainers().get(0);
        assertThat(node.getResources().getRequests()).containsEntry("cpu", new Quantity("500m"))
                .containsEntry("memory", new Quantity("1Gi"));
        assertThat(node.getResources().getLimits()).as("memory limit = request").containsOnlyKeys("memory")
                .containsEntry("memory", new Quantity("1Gi"));
        assertThat(node.getEnv()).anySatisfy(e -> {
            assertThat(e.getName()).isEqualTo("JAVA_OPTS_APPEND");
            assertThat(e.getValue()).contains("-XX:+ExitOnOutOfMemoryError", "-XX:MaxRAMPercentage=70",
                    "-XX:InitialRAMPercentage=70",
                    "-XX:+UseTransparentHugePages");
        });
        var startup = node.getStartupProbe();
        assertThat(startup.getPeriodSeconds() * startup.getFailureThreshold()).as("startup budget, s")
                .isGreaterThanOrEqualTo(15 * 60);
        assertThat(pod.getSecurityContext().getFsGroupChangePolicy()).isEqualTo("OnRootMismatch");
        assertThat(pod.getTopologySpreadConstraints()).isNullOrEmpty();
    }

    @Test
    void resourcesProbesAndSpreadFollowTheSpec() {
        var pod = pod(s -> {
            s.setResources(new ResourceRequirementsBuilder().addToRequests("memory", new Quantity("4Gi"))
                    .addToRequests("cpu", new Quantity("2")).build());
            PodTemplateOverrides t = new PodTemplateOverrides();
            t.setTopologySpreadConstraints(List.of(new TopologySpreadConstraintBuilder().withMaxSkew(1)
                    .withTopologyKey("topology.kubernetes.io/zone").withWhenUnsatisfiable("DoNotSchedule").build()));
            t.setProbes(new ProbeOverrides());
            t.getProbes().setStartup(new ProbeSettings());
            t.getProbes().getStartup().setFailureThreshold(720);
            t.getProbes().setReadiness(new ProbeSettings());
            t.getProbes().getReadiness().setPeriodSeconds(10);
            s.setPodTemplate(t);
        });
        var node = pod.getContainers().get(0);
        assertThat(node.getResources().getRequests()).containsEntry("cpu", new Quantity("2"));
        assertThat(node.getResources().getLimits()).as("limit = the user's memory request")
                .containsEntry("memory", new Quantity("4Gi")).doesNotContainKey("cpu");
        assertThat(node.getStartupProbe().getFailureThreshold()).isEqualTo(720);
        assertThat(node.getStartupProbe().getPeriodSeconds()).as("default kept").isEqualTo(5);
        assertThat(node.getReadinessProbe().getPeriodSeconds()).isEqualTo(10);
        assertThat(node.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/q/health/ready");
        assertThat(node.getLivenessProbe().getFailureThreshold()).isEqualTo(3);
        assertThat(pod.getTopologySpreadConstraints()).singleElement()
                .satisfies(c -> assertThat(c.getTopologyKey()).isEqualTo("topology.kubernetes.io/zone"));

        var limited = pod(s -> s.setResources(new ResourceRequirementsBuilder()
                .addToRequests("memory", new Quantity("2Gi")).addToLimits("memory", new Quantity("3Gi")).build()));
        assertThat(limited.getContainers().get(0).getResources().getLimits()).as("a user limit is kept")
                .containsEntry("memory", new Quantity("3Gi"));
    }
}

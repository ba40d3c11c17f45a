package io.god.operator.resources;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.AffinityBuilder;
import io.god.operator.model.GodCluster;
import io.god.operator.model.GodClusterSpec;
import io.god.operator.model.PodTemplateOverrides;
import io.god.operator.model.Settings;
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
}

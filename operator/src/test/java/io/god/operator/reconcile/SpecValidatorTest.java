package io.god.operator.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.god.operator.model.GodClusterSpec;
import io.god.operator.model.PersistenceSpec;
import io.god.operator.model.PodTemplateOverrides;
import io.god.operator.model.ServiceSettings;
import io.god.operator.model.Settings;
import io.god.operator.model.StorageSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SpecValidatorTest {

    static List<String> problems(GodClusterSpec spec, String defaultImage) {
        return SpecValidator.problems(spec, Settings.of(spec, defaultImage));
    }

    @Test
    void anEmptySpecIsValidWithADefaultImage() {
        assertThat(problems(new GodClusterSpec(), "img:1")).isEmpty();
        assertThat(problems(new GodClusterSpec(), "")).singleElement().asString().contains("spec.image");
    }

    @Test
    void reportsEveryProblemNamingItsField() {
        GodClusterSpec spec = new GodClusterSpec();
        spec.setReplicas(-1);
        spec.setRedundancy(0);
        spec.setTombstoneWindow("59m");
        StorageSpec storage = new StorageSpec();
        storage.setSize("0");
        spec.setStorage(storage);
        PersistenceSpec persistence = new PersistenceSpec();
        persistence.setFsync("sometimes");
        persistence.setSnapshotThreshold(0L);
        spec.setPersistence(persistence);
        ServiceSettings service = new ServiceSettings();
        service.setType("ExternalName");
        spec.setService(service);
        PodTemplateOverrides template = new PodTemplateOverrides();
        template.setLabels(Map.of("app.kubernetes.io/instance", "x", "team", "a"));
        spec.setPodTemplate(template);

        assertThat(problems(spec, "img:1")).hasSize(8).anySatisfy(p -> assertThat(p).startsWith("spec.replicas"))
                .anySatisfy(p -> assertThat(p).startsWith("spec.redundancy"))
                .anySatisfy(p -> assertThat(p).isEqualTo("spec.tombstoneWindow must be at least 1h, got 59m"))
                .anySatisfy(p -> assertThat(p).startsWith("spec.storage.size must be positive"))
                .anySatisfy(p -> assertThat(p).startsWith("spec.persistence.fsync"))
                .anySatisfy(p -> assertThat(p).startsWith("spec.persistence.snapshotThreshold"))
                .anySatisfy(p -> assertThat(p).startsWith("spec.service.type"))
                .anySatisfy(p -> assertThat(p).contains("app.kubernetes.io/instance"));
    }

    @Test
    void unparsableValuesAreProblemsNotExceptions() {
        GodClusterSpec spec = new GodClusterSpec();
        spec.setTombstoneWindow("one day");
        StorageSpec storage = new StorageSpec();
        storage.setSize("lots");
        spec.setStorage(storage);
        assertThat(problems(spec, "img:1")).containsExactlyInAnyOrder(
                "spec.tombstoneWindow: 'one day' is not a duration like 24h, 90m or 1h30m",
                "spec.storage.size: 'lots' is not a quantity like 10Gi");
    }

    @Test
    void boundaryValuesAreValid() {
        GodClusterSpec spec = new GodClusterSpec();
        spec.setReplicas(0);
        spec.setRedundancy(1);
        spec.setTombstoneWindow("1h");
        assertThat(problems(spec, "img:1")).isEmpty();
    }

    @Test
    void tlsNeedsItsSecretName() {
        GodClusterSpec spec = new GodClusterSpec();
        spec.setTls(new io.god.operator.model.TlsSpec());
        assertThat(problems(spec, "img:1")).singleElement().asString().contains("spec.tls.secretName is required");
        spec.getTls().setSecretName("demo-tls");
        assertThat(problems(spec, "img:1")).isEmpty();
    }
}

package io.god.operator.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.god.operator.admin.NodeStatus;
import io.god.operator.model.GodCluster;
import io.god.operator.model.GodClusterSpec;
import io.god.operator.model.Member;
import io.god.operator.model.Settings;
import io.god.operator.reconcile.Observation.PodView;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import io.fabric8.kubernetes.api.model.Condition;
import io.god.operator.model.Operation;
import org.junit.jupiter.api.Test;

/** The status verdicts without an API server; the scenario test covers them end to end. */
class StatusWriterTest {

    static final Instant T0 = Instant.parse("2026-11-21T10:00:00Z");

    static GodCluster cluster(int replicas) {
        GodCluster gc = new GodCluster();
        gc.getMetadata().setName("demo");
        gc.getMetadata().setNamespace("ns");
        gc.getMetadata().setGeneration(4L);
        gc.setSpec(new GodClusterSpec());
        gc.getSpec().setReplicas(replicas);
        return gc;
    }

    static final Plan STEADY = Plan.waiting(null, Progress.STEADY, "");

    static NodeStatus active(String hash) {
        return new NodeStatus("ACTIVE", "01", hash, 2, true, 1, 2, 3, null, null, null, null);
    }

    static Observation twoReadyMembers(String hash0, String hash1) {
        return new Observation(2,
                List.of(new PodView("demo-0", 0, true, "10.0.0.1", false), new PodView("demo-1", 1, true, "10.0.0.2", false)),
                Map.of("demo-0", active(hash0), "demo-1", active(hash1)), Map.of());
    }

    @Test
    void conditionsKeepTheirTransitionTimeWhileUnchanged() {
        GodCluster gc = cluster(2);
        Settings settings = Settings.of(gc.getSpec(), "img");
        gc.setStatus(new StatusWriter(gc, T0).observed(settings, twoReadyMembers("h", "h"), STEADY));
        assertThat(gc.getStatus().getPhase()).isEqualTo("Running");
        assertThat(gc.getStatus().getObservedGeneration()).isEqualTo(4L);

        Instant t1 = T0.plusSeconds(30);
        var next = new StatusWriter(gc, t1).observed(settings, twoReadyMembers("h", "h"), STEADY);
        assertThat(Conditions.find(next.getConditions(), Conditions.READY).get().getLastTransitionTime())
                .isEqualTo(T0.toString());
        assertThat(next.getMembers()).extracting(Member::getLastSeenInRing)
                .as("refreshed at most once a minute").containsOnly(T0.toString());

        gc.setStatus(next);
        Instant t2 = T0.plusSeconds(90);
        var split = new StatusWriter(gc, t2).observed(settings, twoReadyMembers("h", "other"), STEADY);
        assertThat(split.getRingHash()).isNull();
        assertThat(Conditions.find(split.getConditions(), Conditions.READY).get())
                .satisfies(c -> {
                    assertThat(c.getStatus()).isEqualTo("False");
                    assertThat(c.getReason()).isEqualTo("RingNotConverged");
                    assertThat(c.getLastTransitionTime()).isEqualTo(t2.toString());
                });
        assertThat(split.getMembers()).extracting(Member::getLastSeenInRing).containsOnly(t2.toString());
        assertThat(split.getConditions()).extracting(c -> c.getType())
                .containsExactly("Ready", "Progressing", "Replicated", "Degraded", "ReconciliationPaused");
    }

    @Test
    void recordsThePlansOperationAndItsLastSeenChanges() {
        GodCluster gc = cluster(3);
        Settings settings = Settings.of(gc.getSpec(), "img");
        Operation scaleUp = new Operation(Operation.SCALE_UP, 3, null, null, T0.toString());
        gc.setStatus(new StatusWriter(gc, T0).observed(settings, twoReadyMembers("h", "h"),
                Plan.waiting(scaleUp, Progress.SCALING_UP, "scaling up to 3 members")));
        assertThat(gc.getStatus().getOperation()).isEqualTo(scaleUp);
        assertThat(gc.getStatus().getPhase()).isEqualTo("ScalingUp");
        assertThat(Conditions.find(gc.getStatus().getConditions(), Conditions.PROGRESSING).get().getMessage())
                .isEqualTo("scaling up to 3 members");
        assertThat(gc.getStatus().getMembers()).hasSize(3);
        assertThat(gc.getStatus().getMembers().get(2).getState()).isEqualTo("Absent");

        var later = new StatusWriter(gc, T0.plusSeconds(5)).observed(settings, twoReadyMembers("h", "h"),
                Plan.waiting(null, Progress.STEADY, "").forgetting(Set.of(1)).carrying(Map.of(2, T0.minusSeconds(7))));
        assertThat(later.getOperation()).isNull();
        assertThat(later.getMembers()).extracting(Member::getLastSeenInRing)
                .as("0 kept (refreshed at most once a minute), 1 forgotten and seen again now, 2 carried")
                .containsExactly(T0.toString(), T0.plusSeconds(5).toString(), T0.minusSeconds(7).toString());
    }

    @Test
    void aRefusedScaleDownIsNotProgressing() {
        GodCluster gc = cluster(1);
        Settings settings = Settings.of(gc.getSpec(), "img");
        var refused = new StatusWriter(gc, T0).observed(settings, twoReadyMembers("h", "h"),
                Plan.waiting(null, Progress.SCALE_DOWN_REFUSED, "no room"));
        assertThat(refused.getPhase()).isEqualTo("ScaleDownRefused");
        assertThat(refused.getMembers()).as("the member above spec.replicas is still listed").hasSize(2);
        Condition progressing = Conditions.find(refused.getConditions(), Conditions.PROGRESSING).get();
        assertThat(progressing.getStatus()).isEqualTo("False");
        assertThat(progressing.getReason()).isEqualTo("ScaleDownRefused");
        assertThat(progressing.getMessage()).isEqualTo("no room");
    }

    @Test
    void anInvalidSpecKeepsTheLastObservation() {
        GodCluster gc = cluster(2);
        Settings settings = Settings.of(gc.getSpec(), "img");
        gc.setStatus(new StatusWriter(gc, T0).observed(settings, twoReadyMembers("h", "h"), STEADY));
        var invalid = new StatusWriter(gc, T0.plusSeconds(1)).invalid(List.of("spec.redundancy must be >= 1, got 0"));
        assertThat(invalid.getPhase()).isEqualTo("Invalid");
        assertThat(invalid.getReadyReplicas()).isEqualTo(2);
        assertThat(invalid.getMembers()).hasSize(2);
        assertThat(Conditions.find(invalid.getConditions(), Conditions.DEGRADED).get().getMessage())
                .isEqualTo("spec.redundancy must be >= 1, got 0");
    }

    @Test
    void aFailedPassMarksDegradedAndKeepsThePhase() {
        GodCluster gc = cluster(2);
        Settings settings = Settings.of(gc.getSpec(), "img");
        gc.setStatus(new StatusWriter(gc, T0).observed(settings, twoReadyMembers("h", "h"), STEADY));
        var failed = new StatusWriter(gc, T0.plusSeconds(1)).failed(new IllegalStateException("api down"));
        assertThat(failed.getPhase()).isEqualTo("Running");
        assertThat(Conditions.find(failed.getConditions(), Conditions.DEGRADED).get()).satisfies(c -> {
            assertThat(c.getStatus()).isEqualTo("True");
            assertThat(c.getReason()).isEqualTo("ReconcileError");
            assertThat(c.getMessage()).isEqualTo("IllegalStateException: api down");
        });
        assertThat(Conditions.isTrue(failed.getConditions(), Conditions.READY)).as("kept from the last pass").isTrue();
    }
}

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
        assertThat(next).as("an unchanged ring is an unchanged status (no write)").isEqualTo(gc.getStatus());

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
        assertThat(split.getConditions()).extracting(c -> c.getType())
                .containsExactly("Ready", "Progressing", "Replicated", "Degraded", "FullRedundancy",
                        "ReconciliationPaused");
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

        var later = new StatusWriter(gc, T0.plusSeconds(5)).observed(settings, twoReadyMembers("h", "h"), STEADY);
        assertThat(later.getOperation()).isNull();
    }

    static NodeStatus reporting(String state, String lastAliveAt, String quarantinedAt) {
        return new NodeStatus(state, "01", "h", 2, true, 1, 2, 3, null, lastAliveAt, null, quarantinedAt);
    }

    /** The node's own facts, as it reports them; kept while it does not answer; any state string passes through. */
    @Test
    void membersShowWhatTheirNodesReport() {
        GodCluster gc = cluster(2);
        Settings settings = Settings.of(gc.getSpec(), "img");
        List<PodView> pods = List.of(new PodView("demo-0", 0, true, "10.0.0.1", false),
                new PodView("demo-1", 1, true, "10.0.0.2", false));
        gc.setStatus(new StatusWriter(gc, T0).observed(settings, new Observation(2, pods,
                Map.of("demo-0", reporting("ACTIVE", "2026-11-21T09:59:00Z", null),
                        "demo-1", reporting("CATCHING_UP", "2026-11-21T09:58:00Z", "2026-11-21T09:57:00Z")),
                Map.of()), STEADY));
        assertThat(gc.getStatus().getMembers()).extracting(Member::getState, Member::getLastAliveAt,
                Member::getQuarantinedAt).containsExactly(
                        org.assertj.core.groups.Tuple.tuple("ACTIVE", "2026-11-21T09:59:00Z", null),
                        org.assertj.core.groups.Tuple.tuple("CATCHING_UP", "2026-11-21T09:58:00Z",
                                "2026-11-21T09:57:00Z"));

        var silent = new StatusWriter(gc, T0.plusSeconds(5)).observed(settings, new Observation(2, pods,
                Map.of("demo-0", reporting("STALE", "2026-11-21T09:59:00Z", null)), Map.of("demo-1", "timeout")),
                STEADY);
        assertThat(silent.getMembers().get(0).getState()).isEqualTo("STALE");
        assertThat(silent.getMembers().get(1)).satisfies(m -> {
            assertThat(m.getState()).isEqualTo("Unreachable");
            assertThat(m.getLastAliveAt()).as("the last report is kept").isEqualTo("2026-11-21T09:58:00Z");
            assertThat(m.getQuarantinedAt()).isEqualTo("2026-11-21T09:57:00Z");
        });
    }

    /** A status written by an older operator (lastSeenInRing, a Wipe in progress) still reads. */
    @Test
    void anOlderOperatorsStatusStillReads() {
        GodCluster gc = io.fabric8.kubernetes.client.utils.Serialization.unmarshal("""
                {"apiVersion":"god.io/v1alpha1","kind":"GodCluster","metadata":{"name":"demo","namespace":"ns"},
                 "spec":{"replicas":3},
                 "status":{"phase":"Wiping","members":[{"ordinal":0,"pod":"demo-0","state":"ACTIVE",
                   "lastSeenInRing":"2026-11-20T10:00:00Z"}],
                   "operation":{"type":"Wipe","ordinal":1,"step":"DeletingClaim","startedAt":"2026-11-20T10:00:00Z"}}}
                """, GodCluster.class);
        assertThat(gc.getStatus().getMembers()).extracting(Member::getPod).containsExactly("demo-0");
        assertThat(gc.getStatus().getOperation().getType()).isEqualTo("Wipe");
    }

    @Test
    void fewerMembersThanRedundancyIsShownNotRefused() {
        GodCluster gc = cluster(2); // redundancy defaults to 3
        Settings settings = Settings.of(gc.getSpec(), "img");
        var status = new StatusWriter(gc, T0).observed(settings, twoReadyMembers("h", "h"), STEADY);
        assertThat(status.getPhase()).isEqualTo("Running");
        assertThat(Conditions.find(status.getConditions(), Conditions.FULL_REDUNDANCY).get()).satisfies(c -> {
            assertThat(c.getStatus()).isEqualTo("False");
            assertThat(c.getReason()).isEqualTo("ReplicasBelowRedundancy");
            assertThat(c.getMessage()).isEqualTo("spec.replicas 2 is below spec.redundancy 3: every entry has only 2 copies");
        });
        gc.getSpec().setRedundancy(2);
        var full = new StatusWriter(gc, T0).observed(Settings.of(gc.getSpec(), "img"), twoReadyMembers("h", "h"), STEADY);
        assertThat(Conditions.find(full.getConditions(), Conditions.FULL_REDUNDANCY).get().getStatus()).isEqualTo("True");
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

    static List<Observation.ClaimView> claims(int count) {
        return java.util.stream.IntStream.range(0, count)
                .mapToObj(i -> new Observation.ClaimView("data-demo-" + i, i, 1L << 30, false)).toList();
    }

    /**
     * keptClaims lists the claims of removed members only: above the StatefulSet's replicas while it runs; a
     * hibernated ring (StatefulSet at 0) keeps the list it had, not every claim of its sleeping members.
     */
    @Test
    void keptClaimsAreTheClaimsOfRemovedMembersOnly() {
        GodCluster gc = cluster(3);
        Settings settings = Settings.of(gc.getSpec(), "img");
        gc.setStatus(new StatusWriter(gc, T0).observed(settings,
                new Observation(3, null, List.of(), claims(4), Map.of(), Map.of()), STEADY));
        assertThat(gc.getStatus().getKeptClaims()).as("member 3 was removed").containsExactly("data-demo-3");

        gc.getSpec().setReplicas(0);
        Settings hibernated = Settings.of(gc.getSpec(), "img");
        Plan asleep = Plan.waiting(null, Progress.HIBERNATED, "");
        gc.setStatus(new StatusWriter(gc, T0.plusSeconds(5)).observed(hibernated,
                new Observation(0, null, List.of(), claims(4), Map.of(), Map.of()), asleep));
        assertThat(gc.getStatus().getKeptClaims()).as("the sleeping members' claims are not kept ones")
                .containsExactly("data-demo-3");

        List<Observation.ClaimView> deleted = List.of(claims(4).get(0), claims(4).get(1), claims(4).get(2));
        gc.setStatus(new StatusWriter(gc, T0.plusSeconds(10)).observed(hibernated,
                new Observation(0, null, List.of(), deleted, Map.of(), Map.of()), asleep));
        assertThat(gc.getStatus().getKeptClaims()).as("deleted by hand meanwhile").isNull();

        GodCluster fresh = cluster(0);
        var never = new StatusWriter(fresh, T0).observed(Settings.of(fresh.getSpec(), "img"),
                new Observation(0, null, List.of(), claims(3), Map.of(), Map.of()), asleep);
        assertThat(never.getKeptClaims()).as("a hibernated ring removed nobody").isNull();
    }
}

package io.god.operator.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.god.operator.admin.NodeStatus;
import io.god.operator.model.Operation;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Golden orders of the planner: which pod next, when to wait, when to refuse (no Kubernetes, no clock). */
class PlannerTest {

    @Test
    void scaleDownDrainsTheHighestOrdinalFirstOneAtATime() {
        PlannerWorld w = new PlannerWorld(5);
        w.desired = 3;
        assertThat(w.settle()).containsExactly(
                "leave 4", "replicas=4", "delete-claim 4",
                "leave 3", "replicas=3", "delete-claim 3");
        assertThat(w.pods).containsOnlyKeys(0, 1, 2);
        assertThat(w.claims).containsOnlyKeys(0, 1, 2);
        assertThat(w.lastSeen).as("removed ordinals are forgotten").containsOnlyKeys(0, 1, 2);
    }

    @Test
    void theDrainWaitsForLeftBeforeShrinking() {
        PlannerWorld w = new PlannerWorld(3);
        w.leaveTicks = 5;
        w.desired = 2;
        assertThat(w.step().action()).hasToString("leave 2");
        for (int i = 0; i < 4; i++) {
            Plan p = w.step();
            assertThat(p.action()).isInstanceOf(Action.None.class);
            assertThat(p.operation().getStep()).isEqualTo(Operation.STEP_LEAVING);
            assertThat(p.message()).contains("demo-2", "LEAVING", "1/4 ranges");
        }
        assertThat(w.step().action()).hasToString("replicas=2");
    }

    @Test
    void keepsTheClaimWhenAskedTo() {
        PlannerWorld w = new PlannerWorld(3);
        w.deleteClaims = false;
        w.desired = 2;
        assertThat(w.settle()).containsExactly("leave 2", "replicas=2");
        assertThat(w.claims).containsOnlyKeys(0, 1, 2);
        assertThat(w.lastSeen).as("a kept claim keeps its lastSeenInRing for the guard").containsKey(2);
    }

    @Test
    void scaleDownDoesNotStartWhileTheRingIsNotReplicated() {
        PlannerWorld w = new PlannerWorld(3);
        w.replicated = false;
        w.desired = 2;
        for (int i = 0; i < 3; i++) {
            Plan p = w.step();
            assertThat(p.action()).isInstanceOf(Action.None.class);
            assertThat(p.progress()).isEqualTo(Progress.SCALING_DOWN);
            assertThat(p.message()).contains("not replicated");
        }
        w.replicated = true;
        assertThat(w.settle()).containsExactly("leave 2", "replicas=2", "delete-claim 2");
    }

    @Test
    void refusesWhenTheRemainingVolumesCannotHoldTheData() {
        PlannerWorld w = new PlannerWorld(4);
        w.pods.values().forEach(p -> p.dataBytes = PlannerWorld.GIB / 2 + 1); // 2 GiB+4 held, N=3
        w.desired = 2; // after: total × 2/3 ≈ 1.33 GiB > 2 × 1 GiB? no: fits
        assertThat(w.plan().action()).hasToString("leave 3");
        w.pods.values().forEach(p -> p.dataBytes = PlannerWorld.GIB);
        Plan refused = w.plan(); // 4 GiB held × 2/3 = 2.67 GiB > 2 GiB of volumes
        assertThat(refused.action()).isInstanceOf(Action.None.class);
        assertThat(refused.progress()).isEqualTo(Progress.SCALE_DOWN_REFUSED);
        assertThat(refused.operation()).isNull();
        assertThat(refused.message()).contains("cannot hold", "2147483648");
        assertThat(refused.event().type()).isEqualTo(EventRecorder.WARNING);
        assertThat(w.settle()).as("nothing is removed").isEmpty();
        assertThat(w.stsReplicas).isEqualTo(4);
    }

    @Test
    void raisingReplicasMidDrainCancelsTheLeave() {
        PlannerWorld w = new PlannerWorld(4);
        w.leaveTicks = 50;
        w.desired = 3;
        w.step();
        w.step();
        assertThat(w.pods.get(3).state).isEqualTo(NodeStatus.LEAVING);
        w.desired = 4;
        assertThat(w.settle()).containsExactly("leave 3", "cancel-leave 3");
        assertThat(w.pods.get(3).state).isEqualTo(NodeStatus.ACTIVE);
        assertThat(w.stsReplicas).isEqualTo(4);
        assertThat(w.claims).containsKey(3);
    }

    @Test
    void aMemberThatAlreadyLeftIsRemovedAndComesBackEmpty() {
        PlannerWorld w = new PlannerWorld(3);
        w.leaveTicks = 1;
        w.desired = 2;
        w.step(); // leave 2 → LEFT after this tick
        w.desired = 3;
        assertThat(w.settle()).containsExactly("leave 2", "replicas=2", "delete-claim 2", "replicas=3");
        assertThat(w.pods.get(2).state).isEqualTo(NodeStatus.ACTIVE);
    }

    @Test
    void loweringReplicasFurtherMidDrainContinuesDown() {
        PlannerWorld w = new PlannerWorld(5);
        w.desired = 4;
        w.step();
        w.desired = 2;
        assertThat(w.settle()).containsExactly("leave 4", "replicas=4", "delete-claim 4", "leave 3", "replicas=3",
                "delete-claim 3", "leave 2", "replicas=2", "delete-claim 2");
    }

    @Test
    void aResumedPlannerContinuesTheRecordedStep() {
        PlannerWorld w = new PlannerWorld(3);
        w.leaveTicks = 3;
        w.desired = 2;
        w.step();
        // a new operator process: only the status (operation, lastSeen) and the world survive
        Operation recorded = w.operation;
        assertThat(recorded.getType()).isEqualTo(Operation.SCALE_DOWN);
        assertThat(recorded.getOrdinal()).isEqualTo(2);
        assertThat(recorded.getStep()).isEqualTo(Operation.STEP_LEAVING);
        assertThat(w.settle()).containsExactly("leave 2", "replicas=2", "delete-claim 2");
    }

    @Test
    void rollsHighestFirstOneAtATimeWaitingForEachToBeActive() {
        PlannerWorld w = new PlannerWorld(3);
        w.templateHash = "v2";
        assertThat(w.settle()).containsExactly("delete-pod 2", "delete-pod 1", "delete-pod 0");
        assertThat(w.pods.values()).allSatisfy(p -> assertThat(p.hash).isEqualTo("v2"));
    }

    @Test
    void anOutdatedUnreadyPodGoesFirstAndNothingElseWhileTheRingIsUnhealthy() {
        PlannerWorld w = new PlannerWorld(3);
        w.templateHash = "v2";
        w.pods.get(1).ready = false;
        Plan first = w.step();
        assertThat(first.action()).hasToString("delete-pod 1");
        assertThat(first.event().message()).contains("outdated and not serving");
        assertThat(w.settle()).containsExactly("delete-pod 1", "delete-pod 2", "delete-pod 0");
    }

    @Test
    void theNextRestartWaitsForTheRestartedPodToBeActiveAndTheRingReplicated() {
        PlannerWorld w = new PlannerWorld(3);
        w.templateHash = "v2";
        assertThat(w.step().action()).hasToString("delete-pod 2");
        w.pods.get(2).state = NodeStatus.JOINING;
        Plan p = w.step();
        assertThat(p.action()).isInstanceOf(Action.None.class);
        assertThat(p.message()).contains("demo-2", "ACTIVE", "JOINING");
        w.pods.get(2).state = NodeStatus.ACTIVE;
        w.replicated = false;
        assertThat(w.step().message()).contains("not replicated");
        assertThat(w.step().action()).isInstanceOf(Action.None.class);
        w.replicated = true;
        assertThat(w.step().action()).hasToString("delete-pod 1");
    }

    @Test
    void noRestartStartsWhileAnotherMemberIsUnhealthy() {
        PlannerWorld w = new PlannerWorld(3);
        w.templateHash = "v2";
        w.pods.get(0).hash = "v2"; // up to date, but not ready: the others must wait for it
        w.pods.get(0).ready = false;
        for (int i = 0; i < 3; i++) {
            Plan p = w.step();
            assertThat(p.action()).isInstanceOf(Action.None.class);
            assertThat(p.progress()).isEqualTo(Progress.ROLLING_RESTART);
            assertThat(p.message()).contains("demo-0 is not Ready");
        }
    }

    @Test
    void aMemberAbsentLongerThanTheWindowIsWipedBeforeItRunsAgain() {
        PlannerWorld w = new PlannerWorld(3);
        w.pods.get(1).ready = false; // Pending/failing
        w.now = w.now.plus(Duration.ofHours(25));
        Plan wipe = w.step();
        assertThat(wipe.action()).hasToString("delete-claim 1");
        assertThat(wipe.progress()).isEqualTo(Progress.WIPING);
        assertThat(wipe.event().reason()).isEqualTo("WipingStaleMember");
        assertThat(wipe.operation().getType()).isEqualTo(Operation.WIPE);
        assertThat(w.step().action()).as("then the pod that holds the claim").hasToString("delete-pod 1");
        assertThat(w.settle()).containsExactly("delete-claim 1", "delete-pod 1");
        assertThat(w.pods.get(1).ready).as("a new pod on a new, empty claim").isTrue();
        assertThat(w.lastSeen.get(1)).isNotNull();
    }

    @Test
    void withinTheWindowNothingIsWiped() {
        PlannerWorld w = new PlannerWorld(3);
        w.pods.get(1).ready = false;
        w.now = w.now.plus(Duration.ofHours(23));
        assertThat(w.step().action()).isInstanceOf(Action.None.class);
        assertThat(w.actions).isEmpty();
    }

    @Test
    void scaleUpOfAStaleOrdinalWipesItsKeptClaimFirst() {
        PlannerWorld w = new PlannerWorld(3);
        w.deleteClaims = false;
        w.desired = 2;
        assertThat(w.settle()).containsExactly("leave 2", "replicas=2");
        w.now = w.now.plus(Duration.ofDays(3));
        w.step(); // the others are seen three days later
        w.desired = 3;
        assertThat(w.settle()).containsExactly("leave 2", "replicas=2", "delete-claim 2", "replicas=3");
    }

    @Test
    void aHibernatedRingIsNeverStale() {
        PlannerWorld w = new PlannerWorld(3);
        w.desired = 0;
        assertThat(w.settle()).containsExactly("replicas=0");
        w.now = w.now.plus(Duration.ofDays(10));
        w.desired = 3;
        java.time.Instant wakeAt = w.now;
        Plan waking = w.step();
        assertThat(waking.action()).isInstanceOf(Action.None.class);
        assertThat(waking.carry()).as("recorded before any pod starts: lastSeen moved to now")
                .containsOnlyKeys(0, 1, 2).allSatisfy((o, t) -> assertThat(t).isEqualTo(wakeAt));
        // members come back one by one: the first seen must not make the others look stale
        w.leaveTicks = 0;
        assertThat(w.settle()).containsExactly("replicas=0", "replicas=3");
        assertThat(w.claims).containsOnlyKeys(0, 1, 2);
    }

    @Test
    void hibernationDoesNotCountTowardsTheWindow() {
        PlannerWorld w = new PlannerWorld(3);
        w.failing.add(2);
        w.pods.get(2).ready = false;
        w.now = w.now.plus(Duration.ofHours(20));
        w.step();
        w.desired = 0;
        w.settle();
        w.now = w.now.plus(Duration.ofDays(5));
        w.desired = 3;
        Plan waking = w.step();
        assertThat(Duration.between(waking.carry().get(2), waking.carry().get(0)))
                .as("the 20 h gap is carried over the hibernation").isBetween(Duration.ofHours(20), Duration.ofHours(21));
        for (int i = 0; i < 5; i++) {
            assertThat(w.step().progress()).as("demo-2 keeps failing").isEqualTo(Progress.SCALING_UP);
        }
        assertThat(w.actions).containsExactly("replicas=0", "replicas=3");
        w.now = w.now.plus(Duration.ofHours(3));
        assertThat(w.step().action()).as("20 h + 3 h awake").isInstanceOf(Action.None.class);
        w.now = w.now.plus(Duration.ofHours(2));
        assertThat(w.step().action()).as("20 h + 5 h awake").hasToString("delete-claim 2");
    }

    @Test
    void hibernationMidDrainCancelsTheLeaveFirst() {
        PlannerWorld w = new PlannerWorld(3);
        w.leaveTicks = 50;
        w.desired = 2;
        w.step();
        w.desired = 0;
        assertThat(w.settle()).containsExactly("leave 2", "cancel-leave 2", "replicas=0");
        assertThat(w.claims).containsOnlyKeys(0, 1, 2);
    }

    @Test
    void twoCrashLoopingOutdatedPodsAreBothRestartedWithoutWaitingForEachOther() {
        PlannerWorld w = new PlannerWorld(3);
        w.pods.get(0).ready = false;
        w.pods.get(2).ready = false;
        w.templateHash = "v2"; // the fix for what made them crash
        assertThat(w.settle()).containsExactly("delete-pod 0", "delete-pod 2", "delete-pod 1");
    }

    @Test
    void aBadTemplateStopsTheRollAtTheFirstPod() {
        PlannerWorld w = new PlannerWorld(3);
        w.templateHash = "v2";
        w.failing.add(2);
        for (int i = 0; i < 10; i++) {
            w.step();
        }
        assertThat(w.actions).as("never touch another pod while the restarted one is unhealthy")
                .containsExactly("delete-pod 2");
        assertThat(w.last.message()).contains("waiting for the restarted demo-2");
    }
}

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

    /** A Ready pod whose /admin/status times out is unknown, not unhealthy: the roll waits for it (issue 26). */
    @Test
    void aReadyPodWhoseAdminTimesOutIsNotRestartedAheadOfTheGate() {
        PlannerWorld w = new PlannerWorld(3);
        w.templateHash = "v2";
        w.pods.get(1).answers = false;
        for (int i = 0; i < 10; i++) {
            Plan p = w.step();
            assertThat(p.action()).as("step " + i).isInstanceOf(Action.None.class);
            assertThat(p.message()).contains("demo-1 does not answer /admin/status");
        }
        w.pods.get(1).answers = true;
        assertThat(w.settle()).containsExactly("delete-pod 2", "delete-pod 1", "delete-pod 0");
    }

    /** A Ready pod that answers with a state other than ACTIVE is known not to serve: it goes first. */
    @Test
    void aReadyPodThatAnswersJoiningGoesFirst() {
        PlannerWorld w = new PlannerWorld(3);
        w.templateHash = "v2";
        w.pods.get(0).state = NodeStatus.JOINING;
        assertThat(w.step().action()).hasToString("delete-pod 0");
    }

    // ---- a member LEAVING or LEFT with no operation recorded (issue 26) ------------------------------------------

    @Test
    void aLeavingHighestMemberWithNoOperationIsDrainedToTheEnd() {
        PlannerWorld w = new PlannerWorld(3);
        w.desired = 2;
        PlannerWorld.PodState p = w.pods.get(2);
        p.state = NodeStatus.LEAVING;
        p.leaveTicks = 3;
        p.ready = false;
        p.answersUnready = true;
        Plan first = w.step();
        assertThat(first.operation()).satisfies(op -> {
            assertThat(op.getType()).isEqualTo(Operation.SCALE_DOWN);
            assertThat(op.getOrdinal()).isEqualTo(2);
        });
        assertThat(first.alert().reason()).isEqualTo("DrainAdopted");
        assertThat(w.settle()).containsExactly("replicas=2", "delete-claim 2");
        assertThat(w.deletedClaims).containsExactly(2);
    }

    @Test
    void aLeavingHighestMemberThatIsStillWantedIsCancelled() {
        PlannerWorld w = new PlannerWorld(3);
        w.pods.get(2).state = NodeStatus.LEAVING;
        w.pods.get(2).leaveTicks = 100;
        assertThat(w.settle()).containsExactly("cancel-leave 2");
        assertThat(w.pods.get(2).state).isEqualTo(NodeStatus.ACTIVE);
    }

    @Test
    void aLeavingMemberThatIsNotTheHighestIsAskedToCancel() {
        PlannerWorld w = new PlannerWorld(3);
        w.desired = 2; // even while scaling down: only the highest member may leave
        w.pods.get(1).state = NodeStatus.LEAVING;
        w.pods.get(1).leaveTicks = 100;
        Plan first = w.step();
        assertThat(first.action()).hasToString("cancel-leave 1");
        assertThat(first.event().reason()).isEqualTo("StrayLeaveCancelled");
        assertThat(w.pods.get(1).state).isEqualTo(NodeStatus.ACTIVE);
        assertThat(w.settle()).containsExactly("cancel-leave 1", "leave 2", "replicas=2", "delete-claim 2");
    }

    @Test
    void aLeftMemberThatIsNotTheHighestIsRestartedAndKeepsItsClaim() {
        PlannerWorld w = new PlannerWorld(3);
        w.pods.get(0).state = NodeStatus.LEFT;
        Plan first = w.step();
        assertThat(first.action()).hasToString("delete-pod 0");
        assertThat(first.operation().getType()).isEqualTo(Operation.RESTART);
        assertThat(w.settle()).containsExactly("delete-pod 0");
        assertThat(w.deletedClaims).isEmpty();
        assertThat(w.pods.get(0).state).isEqualTo(NodeStatus.ACTIVE);
    }

    // ---- no volume is ever deleted for staleness (DESIGN §8, revised) ---------------------------------------------

    /** The operator away (stopped, paused, spec invalid) for longer than the window: its next pass sees only now. */
    @Test
    void afterAnOperatorAbsenceLongerThanTheWindowARestartingMemberKeepsItsVolume() {
        PlannerWorld w = new PlannerWorld(3);
        w.pods.get(1).ready = false; // restarting when the operator comes back
        w.now = w.now.plus(Duration.ofHours(25));
        for (int i = 0; i < 20; i++) {
            Plan p = w.step();
            assertThat(p.action()).isInstanceOf(Action.None.class);
            assertThat(p.operation()).isNull();
        }
        w.pods.get(1).ready = true;
        assertThat(w.settle()).isEmpty();
        assertThat(w.deletedClaims).isEmpty();
        assertThat(w.deletedPods).isEmpty();
    }

    @Test
    void aWholeRingStoppedLongerThanTheWindowComesBackAtDifferentSpeedsOnItsVolumes() {
        PlannerWorld w = new PlannerWorld(3);
        w.pods.values().forEach(p -> p.ready = false); // the whole ring stopped (a weekend)
        for (int i = 0; i < 5; i++) {
            w.step();
        }
        w.now = w.now.plus(Duration.ofDays(3));
        w.pods.get(0).ready = true; // the first back
        for (int i = 0; i < 10; i++) {
            w.step();
            w.now = w.now.plus(Duration.ofHours(3)); // 30 h before the next one comes back
        }
        w.pods.get(2).ready = true;
        for (int i = 0; i < 10; i++) {
            w.step();
            w.now = w.now.plus(Duration.ofHours(3));
        }
        w.pods.get(1).ready = true; // the last one, 60 h after the first
        assertThat(w.settle()).isEmpty();
        assertThat(w.deletedClaims).isEmpty();
        assertThat(w.deletedPods).isEmpty();
        assertThat(w.claims).containsOnlyKeys(0, 1, 2).doesNotContainValue(true);
    }

    @Test
    void aSingleMemberDownLongerThanTheWindowKeepsTheOnlyCopy() {
        PlannerWorld w = new PlannerWorld(1);
        w.pods.get(0).ready = false;
        for (int i = 0; i < 10; i++) {
            w.now = w.now.plus(Duration.ofHours(12));
            assertThat(w.step().action()).isInstanceOf(Action.None.class);
        }
        w.pods.get(0).ready = true;
        assertThat(w.settle()).isEmpty();
        assertThat(w.deletedClaims).isEmpty();
    }

    @Test
    void aHibernatedRingWakesUpOnItsVolumes() {
        PlannerWorld w = new PlannerWorld(3);
        w.desired = 0;
        assertThat(w.settle()).containsExactly("replicas=0");
        w.now = w.now.plus(Duration.ofDays(10));
        w.desired = 3;
        assertThat(w.settle()).containsExactly("replicas=0", "replicas=3");
        assertThat(w.claims).containsOnlyKeys(0, 1, 2);
        assertThat(w.deletedClaims).isEmpty();
    }

    @Test
    void aKeptClaimComesBackWithItsDataHoweverLongAfter() {
        PlannerWorld w = new PlannerWorld(3);
        w.deleteClaims = false;
        w.desired = 2;
        assertThat(w.settle()).containsExactly("leave 2", "replicas=2");
        w.now = w.now.plus(Duration.ofDays(30));
        w.desired = 3;
        assertThat(w.settle()).containsExactly("leave 2", "replicas=2", "replicas=3");
        assertThat(w.deletedClaims).isEmpty();
    }

    /** A node that is shutting down reports LEFT too, with its data: only LEFT + leave DONE + 0 held is a drain. */
    @Test
    void leftWithoutAConfirmedDrainIsNotRemoved() {
        PlannerWorld w = new PlannerWorld(3);
        w.leaveTicks = 50;
        w.desired = 2;
        assertThat(w.step().action()).hasToString("leave 2");
        w.pods.get(2).state = NodeStatus.LEFT;
        w.pods.get(2).shuttingDown = true;
        for (int i = 0; i < 5; i++) {
            Plan p = w.step();
            assertThat(p.action()).isInstanceOf(Action.None.class);
            assertThat(p.message()).contains("draining demo-2: it reports LEFT but has not confirmed the drain",
                    "leave phase none", "3 entries held");
        }
        w.pods.get(2).terminating = true; // it restarts, and comes back ACTIVE with its data
        w.tick();
        w.leaveTicks = 2;
        assertThat(w.settle()).containsExactly("leave 2", "leave 2", "replicas=2", "delete-claim 2");
    }

    @Test
    void aStatefulSetShrunkBeforeTheDrainWasConfirmedKeepsTheClaim() {
        PlannerWorld w = new PlannerWorld(3);
        w.leaveTicks = 50;
        w.desired = 2;
        assertThat(w.step().action()).hasToString("leave 2");
        w.stsReplicas = 2; // someone scaled the StatefulSet by hand mid-drain
        w.tick();
        Plan kept = w.step();
        assertThat(kept.action()).isInstanceOf(Action.None.class);
        assertThat(kept.operation()).isNull();
        assertThat(kept.event().type()).isEqualTo(EventRecorder.WARNING);
        assertThat(kept.event().reason()).isEqualTo("ClaimKept");
        assertThat(kept.event().message()).contains("demo-2", "data-demo-2", "kept");
        assertThat(w.settle()).containsExactly("leave 2");
        assertThat(w.claims).containsKey(2);
    }

    @Test
    void anOperationRecordedWithoutADrainConfirmationNeverDeletesTheClaim() {
        PlannerWorld w = new PlannerWorld(3);
        w.stsReplicas = 2;
        w.tick(); // demo-2 stopped; its claim stays
        w.operation = new Operation(Operation.SCALE_DOWN, 2, 2, Operation.STEP_DELETING_CLAIM, w.now.toString());
        Plan p = w.step();
        assertThat(p.action()).isInstanceOf(Action.None.class);
        assertThat(p.event().reason()).isEqualTo("ClaimKept");
        // an older operator's Wipe operation is not continued either
        w.operation = new Operation("Wipe", null, 1, Operation.STEP_DELETING_CLAIM, w.now.toString());
        w.desired = 2;
        assertThat(w.settle()).isEmpty();
        assertThat(w.claims).containsOnlyKeys(0, 1, 2).doesNotContainValue(true);
    }

    /**
     * Whatever happens — members failing, crashing, shutting down, the clock jumping days, replicas up and down, the
     * StatefulSet edited by hand, rolls — the world throws if a claim is deleted without a confirmed drain.
     */
    @Test
    void noSequenceOfEventsDeletesAClaimWithoutAConfirmedDrain() {
        java.util.Random random = new java.util.Random(20);
        PlannerWorld w = new PlannerWorld(3);
        for (int i = 0; i < 4000; i++) {
            double r = random.nextDouble();
            if (r < 0.02) {
                w.desired = random.nextInt(6);
            } else if (r < 0.04) {
                w.now = w.now.plus(Duration.ofHours(random.nextInt(72)));
            } else if (r < 0.06) {
                int o = random.nextInt(6);
                if (!w.failing.remove(o)) {
                    w.failing.add(o);
                }
                if (w.pods.containsKey(o)) {
                    w.pods.get(o).ready = !w.failing.contains(o);
                }
            } else if (r < 0.07 && !w.pods.isEmpty()) {
                w.pods.get(w.pods.keySet().stream().toList().get(random.nextInt(w.pods.size()))).terminating = true;
            } else if (r < 0.08 && !w.pods.isEmpty()) {
                PlannerWorld.PodState p = w.pods.get(w.pods.keySet().stream().toList().get(random.nextInt(w.pods.size())));
                p.state = NodeStatus.LEFT;
                p.shuttingDown = true;
            } else if (r < 0.09) {
                w.replicated = !w.replicated;
            } else if (r < 0.095) {
                w.templateHash = "v" + i;
            } else if (r < 0.10) {
                w.stsReplicas = Math.max(0, w.stsReplicas + (random.nextBoolean() ? 1 : -1));
            } else if (r < 0.105) {
                w.deleteClaims = !w.deleteClaims;
            } else if (r < 0.11) {
                w.leaveTicks = random.nextInt(6);
            } else if (r < 0.13) { // things get better again
                w.failing.clear();
                w.pods.values().forEach(p -> p.ready = true);
                w.replicated = true;
            }
            w.step();
        }
        assertThat(w.deletedClaims).as("drained claims were deleted: the rule was exercised").hasSizeGreaterThan(3);
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

package io.god.operator.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.god.operator.admin.NodeStatus;
import io.god.operator.model.Operation;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * No dead ends (issue 25), driven through the planner with an injected clock and counted passes: an operation's
 * deadline reports and never cancels; a spec change pre-empts an operation whose member no longer answers; a dead
 * member is removed only under the conditions that keep a copy of everything; a replace request is used exactly once.
 */
class PlannerEscapesTest {

    /** A 4-member ring draining demo-3 (toward 3), whose member dies mid-drain; a minute per pass. */
    static PlannerWorld drainWhoseMemberDies() {
        PlannerWorld w = new PlannerWorld(4);
        w.leaveTicks = Integer.MAX_VALUE;
        w.leaveError = "range 7 not confirmed by demo-0: timeout";
        w.desired = 3;
        assertThat(w.step().action()).hasToString("leave 3");
        w.step();
        w.stepTime = Duration.ofMinutes(1);
        w.step(); // the member reports its last error while LEAVING
        w.pods.get(3).ready = false; // it dies: no answer from now on (still in the others' ring view)
        return w;
    }

    @Test
    void aDrainWhoseMemberDiesPassesItsDeadlineOnceAndIsNeverCancelledByIt() {
        PlannerWorld w = drainWhoseMemberDies();
        int passes = 0;
        while (!w.step().deadlineExceeded()) {
            assertThat(++passes).as("passes until the deadline (a minute each)").isLessThanOrEqualTo(31);
            assertThat(w.last.operation().getType()).isEqualTo(Operation.SCALE_DOWN);
        }
        assertThat(passes).isGreaterThanOrEqualTo(29);
        Plan stalled = w.last;
        assertThat(stalled.alert().type()).isEqualTo(EventRecorder.WARNING);
        assertThat(stalled.alert().reason()).isEqualTo(Deadline.REASON);
        assertThat(stalled.alert().message()).contains("ScaleDown of demo-3", "PT30M",
                "range 7 not confirmed by demo-0: timeout", "Nothing is cancelled");
        for (int i = 0; i < 100; i++) {
            Plan p = w.step();
            assertThat(p.deadlineExceeded()).isTrue();
            assertThat(p.operation().getType()).as("only reports").isEqualTo(Operation.SCALE_DOWN);
            assertThat(p.operation().getStep()).isEqualTo(Operation.STEP_LEAVING);
        }
        assertThat(w.eventReasons().stream().filter(Deadline.REASON::equals)).as("one event").hasSize(1);
        assertThat(w.actions).containsExactly("leave 3");
        assertThat(w.last.message()).contains("demo-3", "does not answer", "still has demo-3 in its ring view");
    }

    @Test
    void aSlowDrainThatKeepsMovingNeverPassesItsDeadline() {
        PlannerWorld w = new PlannerWorld(4);
        w.leaveTicks = Integer.MAX_VALUE;
        w.desired = 3;
        w.stepTime = Duration.ofMinutes(1);
        for (int i = 0; i < 120; i++) { // two hours, one more range confirmed every 20 minutes
            if (i % 20 == 19) {
                w.rangesConfirmed++;
            }
            assertThat(w.step().deadlineExceeded()).as("pass " + i).isFalse();
        }
        for (int i = 0; i < 29; i++) {
            assertThat(w.step().deadlineExceeded()).isFalse();
        }
        w.step();
        w.step();
        assertThat(w.last.deadlineExceeded()).as("30 minutes without a range confirmed").isTrue();
        assertThat(w.eventReasons().stream().filter(Deadline.REASON::equals)).hasSize(1);
        w.rangesConfirmed++;
        assertThat(w.step().deadlineExceeded()).as("progress clears it").isFalse();
        assertThat(w.actions).containsExactly("leave 3");
    }

    @Test
    void aRollGateThatNeverOpensPassesTheDeadlineOnceAndOnlyReportsIt() {
        PlannerWorld w = new PlannerWorld(3);
        w.stepTime = Duration.ofMinutes(1);
        w.pods.get(1).answers = false; // Ready, but its admin port is broken: the roll must not restart it blindly
        w.templateHash = "v2";
        int passes = 0;
        while (!w.step().deadlineExceeded()) {
            assertThat(++passes).as("passes until the deadline (a minute each)").isLessThanOrEqualTo(31);
            assertThat(w.last.operation()).isNull();
            assertThat(w.last.message()).contains("waiting before the next restart", "demo-1 does not answer");
        }
        assertThat(passes).isGreaterThanOrEqualTo(29);
        assertThat(w.last.alert().reason()).isEqualTo(Deadline.REASON);
        assertThat(w.last.alert().message()).contains("RollingRestart waited longer than PT30M",
                "demo-1 does not answer", "Nothing is cancelled");
        assertThat(Deadline.stalled(w.last, w.operationTimeout, "demo")).isEqualTo(w.last.alert().message());
        for (int i = 0; i < 100; i++) {
            assertThat(w.step().deadlineExceeded()).as("only reports").isTrue();
        }
        assertThat(w.eventReasons().stream().filter(Deadline.REASON::equals)).as("one event").hasSize(1);
        assertThat(w.actions).isEmpty();
        w.pods.get(1).answers = true;
        assertThat(w.settle()).containsExactly("delete-pod 2", "delete-pod 1", "delete-pod 0");
        assertThat(w.waiting).isNull();
        assertThat(w.last.deadlineExceeded()).isFalse();
    }

    @Test
    void aScaleDownGateCountsFromWhenItsWaitBeganAndANewWaitStartsOver() {
        PlannerWorld w = new PlannerWorld(3);
        w.stepTime = Duration.ofMinutes(1);
        w.replicated = false;
        w.desired = 2;
        for (int i = 0; i < 20; i++) {
            assertThat(w.step().message()).contains("scale-down to 2 waits", "not replicated");
        }
        String since = w.waiting.getSince();
        assertThat(w.waiting.getPhase()).isEqualTo("ScalingDown");
        w.desired = 3;
        w.templateHash = "v2"; // another wait: the roll's gate, counted afresh
        assertThat(w.step().message()).contains("waiting before the next restart");
        assertThat(w.waiting.getSince()).isNotEqualTo(since);
        for (int i = 0; i < 25; i++) {
            assertThat(w.step().deadlineExceeded()).isFalse();
        }
        int more = 0;
        while (!w.step().deadlineExceeded()) {
            assertThat(++more).as("30 minutes after the roll's wait began").isLessThanOrEqualTo(5);
        }
        assertThat(w.actions).isEmpty();
        assertThat(w.last.alert().message()).contains("RollingRestart waited", "not replicated");
    }

    @Test
    void scalingBackUpPreemptsTheDrainOfADeadMember() {
        PlannerWorld w = drainWhoseMemberDies();
        for (int i = 0; i < 40; i++) {
            w.step();
        }
        w.desired = 4;
        Plan escape = w.step();
        assertThat(escape.action()).hasToString("delete-pod 3");
        assertThat(escape.operation()).isNull();
        assertThat(escape.event().reason()).isEqualTo("DrainAbandoned");
        assertThat(escape.event().message()).contains("demo-3", "spec.replicas is 4");
        assertThat(w.settle()).containsExactly("leave 3", "delete-pod 3");
        assertThat(w.stsReplicas).isEqualTo(4);
        assertThat(w.pods.get(3).state).isEqualTo(NodeStatus.ACTIVE);
        assertThat(w.deletedClaims).isEmpty();
    }

    @Test
    void hibernatingPreemptsTheDrainOfADeadMember() {
        PlannerWorld w = drainWhoseMemberDies();
        for (int i = 0; i < 40; i++) {
            w.step();
        }
        w.desired = 0;
        Plan escape = w.step();
        assertThat(escape.action()).hasToString("replicas=0");
        assertThat(escape.alert().reason()).isEqualTo("DrainAbandoned");
        assertThat(w.settle()).containsExactly("leave 3", "replicas=0");
        assertThat(w.pods).isEmpty();
        assertThat(w.claims).containsOnlyKeys(0, 1, 2, 3);
    }

    @Test
    void aNewImageTakesEffectOnADeadMemberBeingDrained() {
        PlannerWorld w = drainWhoseMemberDies();
        for (int i = 0; i < 40; i++) {
            w.step();
        }
        w.templateHash = "v2";
        w.leaveTicks = 2;
        Plan escape = w.step();
        assertThat(escape.action()).hasToString("delete-pod 3");
        assertThat(escape.event().message()).contains("its pod template changed");
        // the new demo-3 comes up from v2 and the scale-down starts over with a drain; then the others roll
        assertThat(w.settle()).containsExactly("leave 3", "delete-pod 3", "leave 3", "replicas=3", "delete-claim 3",
                "delete-pod 2", "delete-pod 1", "delete-pod 0");
        assertThat(w.pods.values()).allSatisfy(p -> assertThat(p.hash).isEqualTo("v2"));
    }

    @Test
    void aCrashLoopingMemberIsNotTreatedAsDeadWhileItAnswersAndItsDrainCanStillBeCancelled() {
        PlannerWorld w = drainWhoseMemberDies();
        w.stepTime = Duration.ofSeconds(10);
        PlannerWorld.PodState p = w.pods.get(3);
        p.answersUnready = true; // a LEAVING node reports itself unready, and answers when it is up
        p.answersEvery = 2; // it crash-loops: up every other pass
        w.outOfView.add(3); // a removal without a drain would be allowed if it were silent
        for (int i = 0; i < 200; i++) { // over half an hour
            Plan plan = w.step();
            assertThat(plan.operation().getType()).isEqualTo(Operation.SCALE_DOWN);
            assertThat(plan.action()).isInstanceOf(Action.None.class);
        }
        assertThat(w.actions).as("neither removed nor abandoned").containsExactly("leave 3");
        assertThat(w.last.deadlineExceeded()).as("its answering now and then is no progress").isTrue();
        assertThat(w.eventReasons().stream().filter(Deadline.REASON::equals)).hasSize(1);
        w.desired = 4;
        w.step();
        w.step();
        assertThat(w.actions).as("cancelled on its next answer").containsExactly("leave 3", "cancel-leave 3");
        assertThat(w.settle()).containsExactly("leave 3", "cancel-leave 3");
        assertThat(w.stsReplicas).isEqualTo(4);
    }

    @Test
    void aMemberThatStillAnswersIsNotPreemptedBeforeTheBounds() {
        PlannerWorld w = drainWhoseMemberDies();
        w.stepTime = Duration.ofSeconds(5);
        w.desired = 4;
        // 3 passes but only 10 s: not yet "no longer answers"
        for (int i = 0; i < 3; i++) {
            Plan p = w.step();
            assertThat(p.action()).isInstanceOf(Action.None.class);
            assertThat(p.message()).contains("waiting for it to answer");
        }
        w.stepTime = Duration.ofSeconds(10);
        w.step(); // 15 s
        w.step(); // 25 s
        assertThat(w.actions).containsExactly("leave 3");
        w.step(); // 35 s: at least 3 passes and 30 s
        assertThat(w.actions).containsExactly("leave 3", "delete-pod 3");
    }

    // ---- removing a dead member ----------------------------------------------------------------------------------

    @Test
    void aDeadHighestMemberIsRemovedUnderTheConditionsAndItsClaimKept() {
        PlannerWorld w = new PlannerWorld(4);
        w.failing.add(3);
        w.pods.get(3).ready = false;
        w.desired = 3;
        for (int i = 0; i < 40; i++) { // not Ready, silent, but still in the others' view
            Plan p = w.step();
            assertThat(p.action()).isInstanceOf(Action.None.class);
        }
        assertThat(w.last.message()).contains("still has demo-3 in its ring view");
        assertThat(w.last.event().reason()).isEqualTo("RemoveRefused");
        w.outOfView.add(3); // the members' failure detection dropped it
        assertThat(w.settle()).containsExactly("remove-member 3", "replicas=3");
        assertThat(w.removed).containsExactly(3);
        assertThat(w.claims).as("the PVC is kept").containsOnlyKeys(0, 1, 2, 3);
        assertThat(w.deletedClaims).isEmpty();
        assertThat(w.eventReasons()).contains("RemovingDeadMember", "ClaimKept");
        assertThat(w.events.stream().filter(e -> e.reason().equals("ClaimKept")).findFirst().orElseThrow().message())
                .contains("data-demo-3", "kubectl delete pvc data-demo-3");
    }

    @Test
    void aDeadMemberIsNotRemovedWithOneCopy() {
        PlannerWorld w = new PlannerWorld(3);
        w.redundancy = 1;
        w.failing.add(2);
        w.pods.get(2).ready = false;
        w.outOfView.add(2);
        w.desired = 2;
        assertThat(w.settle()).isEmpty();
        assertThat(w.last.progress()).isEqualTo(Progress.SCALE_DOWN_REFUSED);
        assertThat(w.last.message()).contains("spec.redundancy is 1", "only copy");
        assertThat(w.stsReplicas).isEqualTo(3);
    }

    @Test
    void aDeadMemberIsNotRemovedWithNOrMoreMembersDown() {
        PlannerWorld w = new PlannerWorld(4);
        w.redundancy = 2;
        for (int o : new int[] {2, 3}) {
            w.failing.add(o);
            w.pods.get(o).ready = false;
            w.outOfView.add(o);
        }
        w.desired = 3;
        assertThat(w.settle()).isEmpty();
        assertThat(w.last.message()).contains("2 members are not serving", "at most 1");
        assertThat(w.stsReplicas).isEqualTo(4);
        assertThat(w.removed).isEmpty();
    }

    @Test
    void aDeadMemberIsNotRemovedWhileTheLiveMembersAreNotReplicated() {
        PlannerWorld w = new PlannerWorld(4);
        w.failing.add(3);
        w.pods.get(3).ready = false;
        w.outOfView.add(3);
        w.replicated = false;
        w.desired = 3;
        assertThat(w.settle()).isEmpty();
        assertThat(w.last.message()).contains("not replicated");
        w.replicated = true;
        assertThat(w.settle()).containsExactly("remove-member 3", "replicas=3");
    }

    @Test
    void aDrainWhoseMemberDiesEndsInARemovalOnceItIsOutOfView() {
        PlannerWorld w = drainWhoseMemberDies();
        for (int i = 0; i < 5; i++) {
            w.step();
        }
        w.outOfView.add(3);
        assertThat(w.settle()).containsExactly("leave 3", "remove-member 3", "replicas=3");
        assertThat(w.claims).containsKey(3);
    }

    /** A 4-member ring scaled to 3 whose demo-3 is dead: never Ready, silent, out of the live members' views. */
    static PlannerWorld deadHighestMember() {
        PlannerWorld w = new PlannerWorld(4);
        w.failing.add(3);
        w.pods.get(3).ready = false;
        w.outOfView.add(3);
        w.desired = 3;
        return w;
    }

    @Test
    void aRemovalInterruptedBeforeEveryLiveMemberWasToldTellsThemAllAgain() {
        PlannerWorld w = deadHighestMember();
        while (!(w.plan().action() instanceof Action.RemoveMember)) {
            w.step();
        }
        w.crashAfterIntent = true; // the operation reached the status; no member was told
        w.step();
        assertThat(w.operation.getStep()).isEqualTo(Operation.STEP_REMOVING);
        w.removeUnanswered.add(1); // the next pass: demo-1 does not answer its call
        assertThat(w.step().action()).hasToString("remove-member 3");
        assertThat(w.operation.getStep()).as("not every live member was told").isEqualTo(Operation.STEP_REMOVING);
        assertThat(w.stsReplicas).isEqualTo(4);
        w.removeUnanswered.clear();
        assertThat(w.settle()).containsExactly("remove-member 3", "remove-member 3", "replicas=3");
        assertThat(w.toldRemoved).containsExactly("10.0.0.0 3", "10.0.0.2 3", "10.0.0.0 3", "10.0.0.1 3",
                "10.0.0.2 3");
        assertThat(w.claims).containsKey(3);
    }

    @Test
    void aRemovedMembersPodStuckTerminatingIsReportedAndForceDeletedOnlyOnRequest() {
        PlannerWorld w = deadHighestMember();
        w.pods.get(3).stuck = true; // its Kubernetes node is lost
        for (int i = 0; i < 60; i++) {
            w.step();
        }
        assertThat(w.actions).containsExactly("remove-member 3", "replicas=3");
        assertThat(w.last.message()).contains("removing demo-3", "stuck Terminating", Planner.FORCE_DELETE_ANNOTATION);
        assertThat(w.eventReasons().stream().filter("PodStuckTerminating"::equals)).isNotEmpty();
        assertThat(w.operation.getType()).isEqualTo(Operation.REMOVE);
        w.requests = new Planner.Requests(null, null, "3");
        assertThat(w.settle()).containsExactly("remove-member 3", "replicas=3", "force-delete-pod 3");
        assertThat(w.claims).as("the PVC is kept").containsKey(3);
    }

    @Test
    void aDrainedMembersPodStuckTerminatingIsReportedAndForceDeletedOnlyOnRequest() {
        PlannerWorld w = new PlannerWorld(4);
        w.pods.get(3).stuck = true;
        w.desired = 3;
        for (int i = 0; i < 60; i++) {
            w.step();
        }
        assertThat(w.actions).containsExactly("leave 3", "replicas=3");
        assertThat(w.last.message()).contains("scaling down past demo-3", "stuck Terminating");
        w.requests = new Planner.Requests(null, null, "3");
        assertThat(w.settle()).containsExactly("leave 3", "replicas=3", "force-delete-pod 3", "delete-claim 3");
    }

    // ---- replacing a member ----------------------------------------------------------------------------------------

    /** demo-1 is replaced; its new pod never serves (a bad image, say): the replace waits for it. */
    static PlannerWorld aReplacementThatNeverServes() {
        PlannerWorld w = new PlannerWorld(3);
        w.stepTime = Duration.ofSeconds(10);
        w.requests = new Planner.Requests("1", null, null);
        w.failing.add(1);
        for (int i = 0; i < 40; i++) {
            w.step();
        }
        assertThat(w.actions).containsExactly("accept-replace 1", "delete-claim 1", "delete-pod 1");
        assertThat(w.last.message()).contains("waiting for the new member");
        assertThat(w.operation.getType()).isEqualTo(Operation.REPLACE);
        return w;
    }

    @Test
    void aNewImageTakesEffectOnAReplacementThatNeverServes() {
        PlannerWorld w = aReplacementThatNeverServes();
        w.templateHash = "v2";
        w.failing.clear(); // the new image fixes it
        Plan escape = w.step();
        assertThat(escape.action()).hasToString("delete-pod 1");
        assertThat(escape.alert().reason()).isEqualTo("ReplaceRejoinAbandoned");
        assertThat(escape.alert().message()).contains("demo-1", "its pod template changed");
        assertThat(w.settle()).containsExactly("accept-replace 1", "delete-claim 1", "delete-pod 1", "delete-pod 1",
                "delete-pod 2", "delete-pod 0");
        assertThat(w.pods.values()).allSatisfy(p -> assertThat(p.hash).isEqualTo("v2"));
    }

    @Test
    void scalingUpIsNotBlockedByAReplacementThatNeverServes() {
        PlannerWorld w = aReplacementThatNeverServes();
        w.desired = 4;
        assertThat(w.step().action()).hasToString("replicas=4");
        assertThat(w.last.alert().reason()).isEqualTo("ReplaceRejoinAbandoned");
        assertThat(w.stsReplicas).isEqualTo(4);
        assertThat(w.pods).containsKey(3);
    }

    @Test
    void hibernatingIsNotBlockedByAReplacementThatNeverServes() {
        PlannerWorld w = aReplacementThatNeverServes();
        w.desired = 0;
        assertThat(w.settle()).endsWith("replicas=0");
        assertThat(w.pods).isEmpty();
    }


    @Test
    void aReplaceRequestReplacesExactlyOnceOver50Passes() {
        PlannerWorld w = new PlannerWorld(3);
        String before = w.pods.get(1).uid;
        w.requests = new Planner.Requests("1", null, null);
        for (int i = 0; i < 50; i++) {
            w.step();
        }
        assertThat(w.actions).containsExactly("accept-replace 1", "delete-claim 1", "delete-pod 1");
        assertThat(w.pods.get(1).uid).isNotEqualTo(before);
        assertThat(w.pods.get(1).state).isEqualTo(NodeStatus.ACTIVE);
        assertThat(w.claims).containsOnlyKeys(0, 1, 2).doesNotContainValue(true);
        assertThat(w.operation).isNull();
        assertThat(w.eventReasons()).containsSubsequence("ReplacingMember", "ClaimDeleted", "MemberReplaced");
        assertThat(w.events.get(0).message()).contains(before);
    }

    @Test
    void aReplaceRequestWaitsForTheRestToBeReplicated() {
        PlannerWorld w = new PlannerWorld(3);
        w.replicated = false;
        w.requests = new Planner.Requests("2", null, null);
        for (int i = 0; i < 5; i++) {
            assertThat(w.step().message()).contains("replacing demo-2 waits", "not replicated");
        }
        w.replicated = true;
        assertThat(w.settle()).containsExactly("accept-replace 2", "delete-claim 2", "delete-pod 2");
    }

    @Test
    void aSecondReplaceWaitsForTheFirst() {
        PlannerWorld w = new PlannerWorld(3);
        w.requests = new Planner.Requests("1", null, null);
        w.step();
        w.requests = new Planner.Requests("2", null, null);
        for (int i = 0; i < 50; i++) {
            w.step();
        }
        assertThat(w.actions).containsExactly("accept-replace 1", "delete-claim 1", "delete-pod 1",
                "accept-replace 2", "delete-claim 2", "delete-pod 2");
    }

    @Test
    void theOnlyCopyIsReplacedOnlyWithTheConfirmation() {
        PlannerWorld w = new PlannerWorld(1);
        w.requests = new Planner.Requests("0", null, null);
        for (int i = 0; i < 5; i++) {
            Plan p = w.step();
            assertThat(p.action()).isInstanceOf(Action.None.class);
            assertThat(p.event().reason()).isEqualTo("ReplaceRefused");
            assertThat(p.message()).contains("only copy", Planner.CONFIRM_DATA_LOSS_ANNOTATION);
        }
        w.requests = new Planner.Requests("0", "1", null); // confirms another ordinal: still refused
        assertThat(w.step().event().reason()).isEqualTo("ReplaceRefused");
        w.requests = new Planner.Requests("0", "0", null);
        assertThat(w.settle()).containsExactly("accept-replace 0", "delete-claim 0", "delete-pod 0");
    }

    @Test
    void aBadReplaceRequestIsRefusedNamingTheProblem() {
        PlannerWorld w = new PlannerWorld(3);
        w.requests = new Planner.Requests("three", null, null);
        assertThat(w.step().message()).contains(Planner.REPLACE_ANNOTATION, "'three'");
        w.requests = new Planner.Requests("5", null, null);
        assertThat(w.step().message()).contains("no member at ordinal 5");
        assertThat(w.actions).isEmpty();
    }

    @Test
    void aPodStuckTerminatingIsReportedAndForceDeletedOnlyOnRequest() {
        PlannerWorld w = new PlannerWorld(3);
        w.requests = new Planner.Requests("2", null, null);
        w.step(); // accepted
        w.step(); // claim
        w.pods.get(2).stuck = true; // its Kubernetes node is lost
        w.pods.get(2).ready = false;
        w.step(); // pod deleted: stays Terminating
        for (int i = 0; i < 40; i++) {
            w.step();
        }
        assertThat(w.actions).containsExactly("accept-replace 2", "delete-claim 2", "delete-pod 2");
        assertThat(w.last.message()).contains("stuck Terminating", Planner.FORCE_DELETE_ANNOTATION);
        assertThat(w.last.event().reason()).isEqualTo("PodStuckTerminating");
        w.requests = new Planner.Requests(null, null, "2");
        assertThat(w.settle()).containsExactly("accept-replace 2", "delete-claim 2", "delete-pod 2",
                "force-delete-pod 2");
        assertThat(w.pods.get(2).state).isEqualTo(NodeStatus.ACTIVE);
    }
}

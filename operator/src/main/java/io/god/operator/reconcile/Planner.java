package io.god.operator.reconcile;

import static io.god.operator.reconcile.EventRecorder.NORMAL;
import static io.god.operator.reconcile.EventRecorder.WARNING;

import io.god.operator.admin.NodeStatus;
import io.god.operator.model.Operation;
import io.god.operator.model.Wait;
import io.god.operator.reconcile.Action.DeleteClaim;
import io.god.operator.reconcile.Action.DeletePod;
import io.god.operator.reconcile.Action.Leave;
import io.god.operator.reconcile.Action.SetReplicas;
import io.god.operator.reconcile.Observation.ClaimView;
import io.god.operator.reconcile.Observation.PodView;
import io.god.operator.reconcile.Plan.Event;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Decides the next step for a ring (DESIGN §8), without I/O: from the spec, what was observed, the operation in
 * progress and the time, it returns one action, a wait or a refusal, each with its reason. The order:
 * <ol>
 * <li>an operation in progress continues (a drain, a restart), or is cancelled when the spec no longer wants it;</li>
 * <li>hibernate (spec.replicas 0: no drain, PVCs kept) or scale up;</li>
 * <li>an outdated pod that is not serving is restarted at once;</li>
 * <li>scale down one ordinal at a time, highest first: leave → confirmed LEFT → shrink by one → delete its PVC;</li>
 * <li>roll the outdated pods, highest first, one at a time, each only while the whole ring is healthy.</li>
 * </ol>
 * The planner never deletes a volume for staleness (DESIGN §8, revised): whether a member's data is too old to rejoin
 * is decided by the nodes, from facts they persist, before any exchange. The one {@link DeleteClaim} it plans is the
 * last step of a drain that the node confirmed ({@link NodeStatus#drainDone()}) and that the operation recorded
 * ({@link Operation#getDrainConfirmedAt()}); see {@link #deleteDrainedClaim}.
 * The reconciler takes the action, records the plan's operation, and asks again after a short wait.
 */
public final class Planner {

    /**
     * The inputs: the spec's numbers, what was observed, the operation recorded in the status, the time, the
     * members that no longer answer ({@link Silence}), what the last status knew of each member's position, the
     * user's explicit requests (annotations), the operation deadline, and the wait (with no operation open) the last
     * status recorded.
     */
    public record Input(int desired, int redundancy, boolean deleteClaimOnScaleDown, String clusterName,
            Observation obs, Operation operation, Instant now, Map<Integer, Silence.Entry> silence,
            Silence.Bounds bounds, Map<Integer, String> positions, Requests requests, Duration operationTimeout,
            Wait waiting) {

        public Input(int desired, int redundancy, boolean deleteClaimOnScaleDown, String clusterName,
                Observation obs, Operation operation, Instant now) {
            this(desired, redundancy, deleteClaimOnScaleDown, clusterName, obs, operation, now, Map.of(),
                    Silence.Bounds.DEFAULT, Map.of(), Requests.NONE, DEFAULT_TIMEOUT, null);
        }

        /** The members that no longer answer: silent for at least the bounds' passes and time. */
        Set<Integer> unanswering() {
            return Silence.unanswering(silence, now, bounds);
        }
    }

    /**
     * Explicit user requests, from the GodCluster's annotations: replace the member at an ordinal (raw text, checked
     * here), confirm that replacing the only copy of some data loses it, force-delete a pod stuck Terminating.
     */
    public record Requests(String replaceMember, String confirmDataLoss, String forceDeletePod) {
        public static final Requests NONE = new Requests(null, null, null);
    }

    public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(30);
    public static final String REPLACE_ANNOTATION = "god.io/replace-member";
    public static final String CONFIRM_DATA_LOSS_ANNOTATION = "god.io/replace-member-confirm-data-loss";
    public static final String FORCE_DELETE_ANNOTATION = "god.io/force-delete-pod";

    private final Input in;
    private final Observation obs;
    private final int desired;
    private final int stsReplicas;
    private final Set<Integer> unanswering;

    public Planner(Input in) {
        this.in = in;
        this.obs = in.obs();
        this.desired = in.desired();
        this.stsReplicas = obs.statefulSetReplicas();
        this.unanswering = in.unanswering();
    }

    public static Plan plan(Input in) {
        Plan plan = new Planner(in).next(in.operation());
        if (plan.operation() == null) {
            return Deadline.applyToWait(plan, in.waiting(), in.now(), in.operationTimeout());
        }
        return Deadline.apply(plan, in.operation(), in.obs(), in.now(), in.operationTimeout(), in.clusterName());
    }

    private Plan next(Operation op) {
        if (op != null) {
            Optional<Plan> next = switch (op.getType()) {
                case Operation.SCALE_DOWN -> continueScaleDown(op);
                case Operation.RESTART -> continueRestart(op);
                case Operation.REMOVE -> continueRemove(op);
                case Operation.REPLACE -> continueReplace(op);
                // ScaleUp has no step of its own to finish; an operation this version does not know (an older
                // operator's "Wipe") is simply not continued
                default -> Optional.empty();
            };
            if (next.isPresent()) {
                return next.get();
            }
            if (!Operation.SCALE_UP.equals(op.getType())) {
                return next(null);
            }
        }
        return hibernateOrScaleUp().or(this::replaceRequested).or(this::strayLeave).or(this::restartUnhealthyOutdated)
                .or(this::scaleDown).or(this::roll).orElseGet(() -> settle(op));
    }

    // ---- 1. operations in progress ------------------------------------------------------------------------------

    private Optional<Plan> continueScaleDown(Operation op) {
        int o = op.getOrdinal();
        Optional<NodeStatus> st = obs.status(o);
        String state = st.map(NodeStatus::state).orElse(null);
        boolean wanted = desired > o; // replicas were raised over this ordinal again
        switch (op.getStep()) {
            case Operation.STEP_LEAVING, Operation.STEP_CANCELLING -> {
                if (stsReplicas <= o) {
                    // the StatefulSet no longer includes the ordinal, though no confirmed drain was recorded
                    return Optional.of(st.filter(NodeStatus::drainDone).isPresent()
                            ? shrunk(op.drainConfirmed(in.now().toString()), o) : shrunkUnconfirmed(op, o));
                }
                if (st.filter(NodeStatus::drainDone).isPresent()) {
                    // a LEFT member cannot be cancelled: it is removed, and a scale-up brings the ordinal back empty
                    Operation next = op.drainConfirmed(in.now().toString()).atStep(Operation.STEP_SHRINKING);
                    return Optional.of(Plan.of(new SetReplicas(o), next, Progress.SCALING_DOWN,
                            pod(o) + " has LEFT the ring; shrinking the StatefulSet to " + o,
                            new Event(NORMAL, "MemberLeft", pod(o) + " left the ring; removing it")));
                }
                if (NodeStatus.LEFT.equals(state)) {
                    // LEFT without a finished drain: a node shutting down says LEFT too, still holding its data
                    return Optional.of(Plan.waiting(op, Progress.SCALING_DOWN, "draining " + pod(o)
                            + ": it reports LEFT but has not confirmed the drain (" + st.get().drainNotDoneReason()
                            + ")"));
                }
                if (wanted || desired == 0) {
                    if (op.is(Operation.SCALE_DOWN, Operation.STEP_CANCELLING) && NodeStatus.ACTIVE.equals(state)) {
                        return Optional.empty(); // cancelled: the member is ACTIVE again
                    }
                    if (st.isEmpty()) {
                        if (unanswering(o)) {
                            return Optional.of(abandonDrain(o, desired == 0 ? "spec.replicas is 0"
                                    : "spec.replicas is " + desired));
                        }
                        return Optional.of(Plan.waiting(op, Progress.SCALING_DOWN,
                                "cancelling the drain of " + pod(o) + ": waiting for it to answer"));
                    }
                    return Optional.of(Plan.of(new Action.CancelLeave(o, host(o)), step(op, Operation.STEP_CANCELLING),
                            Progress.SCALING_DOWN, "replicas raised to " + desired + ": cancelling the drain of " + pod(o),
                            new Event(NORMAL, "DrainCancelled", "spec.replicas is " + desired + ": " + pod(o)
                                    + " stays; its leave is cancelled")));
                }
                if (st.isEmpty()) {
                    if (unanswering(o)) {
                        if (obs.pod(o).filter(p -> !p.terminating() && outdated(p)).isPresent()) {
                            return Optional.of(abandonDrain(o, "its pod template changed"));
                        }
                        Optional<String> refusal = removalRefusal(o);
                        if (refusal.isEmpty()) {
                            return Optional.of(remove(o, "it stopped answering during its drain"));
                        }
                        return Optional.of(Plan.waiting(op, Progress.SCALING_DOWN, "draining " + pod(o)
                                + ": it does not answer (" + silence(o) + ") and cannot be removed without its drain: "
                                + refusal.get()));
                    }
                    return Optional.of(Plan.waiting(op, Progress.SCALING_DOWN,
                            "draining " + pod(o) + ": waiting for it to answer /admin/status"));
                }
                if (NodeStatus.LEAVING.equals(state)) {
                    return Optional.of(Plan.waiting(withTarget(op), Progress.SCALING_DOWN,
                            "draining " + pod(o) + ": " + leaveProgress(st.get())));
                }
                // ACTIVE again (restarted, or the leave was never received): asking again is harmless
                return Optional.of(Plan.of(new Leave(o, host(o)), step(withTarget(op), Operation.STEP_LEAVING),
                        Progress.SCALING_DOWN, "asking " + pod(o) + " to leave the ring", null));
            }
            case Operation.STEP_SHRINKING, Operation.STEP_DELETING_CLAIM -> {
                if (stsReplicas > o) {
                    return Optional.of(Plan.of(new SetReplicas(o), op, Progress.SCALING_DOWN,
                            "shrinking the StatefulSet to " + o, null));
                }
                return Optional.of(shrunk(op, o));
            }
            default -> {
                return Optional.empty();
            }
        }
    }

    /** The StatefulSet no longer includes the ordinal: wait for its pod to stop, then delete (or keep) its PVC. */
    private Plan shrunk(Operation op, int o) {
        Optional<PodView> pod = obs.pod(o);
        if (pod.isPresent()) {
            return stopping(op.atStep(Operation.STEP_SHRINKING), o, pod.get(), Progress.SCALING_DOWN,
                    "scaling down past " + pod(o));
        }
        Optional<ClaimView> claim = obs.claim(o);
        if (!in.deleteClaimOnScaleDown() || claim.isEmpty()) {
            return next(null); // removed (its PVC kept, or gone): the scale-down goes on with the next ordinal
        }
        if (claim.get().terminating()) {
            return Plan.waiting(op.atStep(Operation.STEP_DELETING_CLAIM), Progress.SCALING_DOWN,
                    "waiting for " + claim.get().name() + " to be deleted");
        }
        return deleteDrainedClaim(op, o, claim.get());
    }

    /**
     * The only place a PVC deletion is planned. The operation must be this ordinal's scale-down with the node's
     * confirmed drain recorded (it left the ring holding nothing, everything handed over and confirmed); anything else
     * (an operation recorded by an older operator, a StatefulSet shrunk by someone else) keeps the claim, with a
     * Warning event, and the scale-down goes on.
     */
    private Plan deleteDrainedClaim(Operation op, int o, ClaimView claim) {
        boolean confirmed = Operation.SCALE_DOWN.equals(op.getType()) && Integer.valueOf(o).equals(op.getOrdinal())
                && op.getDrainConfirmedAt() != null;
        if (!confirmed) {
            return keptClaim(o, claim.name());
        }
        return Plan.of(new DeleteClaim(o, claim.name()), op.atStep(Operation.STEP_DELETING_CLAIM),
                Progress.SCALING_DOWN, "deleting " + claim.name(),
                new Event(NORMAL, "ClaimDeleted", pod(o) + " confirmed its drain at " + op.getDrainConfirmedAt()
                        + " and was removed; deleting " + claim.name()));
    }

    /**
     * The StatefulSet was shrunk below the ordinal before its drain was confirmed (someone scaled the StatefulSet, or
     * the operator stopped between the two steps): the member's data may be the only copy of something, so its PVC is
     * kept and the scale-down of this ordinal ends here.
     */
    private Plan shrunkUnconfirmed(Operation op, int o) {
        Optional<ClaimView> claim = obs.claim(o);
        if (claim.isEmpty() || claim.get().terminating()) {
            return next(null);
        }
        return keptClaim(o, claim.get().name());
    }

    private Plan keptClaim(int o, String claim) {
        String why = pod(o) + " was removed without a drain the operator saw confirmed; its PVC " + claim
                + " is kept (delete it yourself once its data is not needed)";
        // this pass only reports the kept claim; the next one plans afresh (no operation refers to the ordinal now)
        return Plan.of(Action.NONE, null, Progress.SCALING_DOWN, why, new Event(WARNING, "ClaimKept", why));
    }

    private Optional<Plan> continueRestart(Operation op) {
        int o = op.getOrdinal();
        if (desired == 0 || desired > stsReplicas) {
            return Optional.empty(); // hibernating stops every pod anyway; adding members touches no running one
        }
        Optional<PodView> pod = obs.pod(o);
        if (pod.isPresent() && !pod.get().terminating() && outdated(pod.get())) {
            return Optional.of(Plan.of(new DeletePod(o, pod.get().name()), op, Progress.ROLLING_RESTART,
                    "restarting " + pod(o), null));
        }
        if (pod.isEmpty() || pod.get().terminating()) {
            return Optional.of(Plan.waiting(op, Progress.ROLLING_RESTART, "waiting for " + pod(o) + " to come back"));
        }
        String state = obs.status(o).map(NodeStatus::state).orElse(null);
        if (!pod.get().ready() || !NodeStatus.ACTIVE.equals(state)) {
            return Optional.of(Plan.waiting(op, Progress.ROLLING_RESTART, "waiting for the restarted " + pod(o)
                    + " to be Ready and ACTIVE (now " + (state == null ? "not answering" : state) + ")"));
        }
        Optional<String> unhealthy = ringUnhealthy();
        boolean nextIsNotServing = livePods().stream().anyMatch(p -> outdated(p) && knownUnhealthy(p));
        if (unhealthy.isPresent() && !nextIsNotServing) {
            return Optional.of(Plan.waiting(op, Progress.ROLLING_RESTART,
                    "waiting after restarting " + pod(o) + ": " + unhealthy.get()));
        }
        return Optional.empty(); // done; another outdated pod that serves nothing may go next without waiting
    }

    /**
     * The member being drained stopped answering and the spec no longer wants the drain (scaled back up, hibernating,
     * a new template): the drain is given up. Its pod is deleted so that it restarts (OnDelete) from the current
     * template, and the next pass plans afresh; when hibernating, the StatefulSet stops every pod anyway.
     */
    private Plan abandonDrain(int o, String why) {
        String message = pod(o) + " stopped answering during its drain (" + silence(o) + ") and " + why
                + ": the drain is abandoned";
        Plan.Event event = new Plan.Event(WARNING, "DrainAbandoned", message
                + (desired == 0 ? "; hibernating" : "; its pod is deleted and comes back from the current template"));
        Optional<PodView> pod = obs.pod(o).filter(p -> !p.terminating());
        if (desired == 0 || pod.isEmpty()) {
            Plan next = next(null);
            return next.withAlert(next.operation(), event);
        }
        return Plan.of(new DeletePod(o, pod.get().name()), null, desired > o ? Progress.SCALING_UP
                : Progress.ROLLING_RESTART, message + "; deleting " + pod(o), event);
    }

    // ---- removing a dead member (no drain possible) -------------------------------------------------------------

    /**
     * Why the dead member at {@code o} cannot be removed without a drain, or empty when it can (DESIGN §8): N ≥ 2, at
     * most N−1 members not serving, the member out of every live member's ring view, and every live member ACTIVE and
     * replicated. Then every entry it held has a copy on a live member.
     */
    Optional<String> removalRefusal(int o) {
        if (in.redundancy() < 2) {
            return Optional.of("spec.redundancy is 1: " + pod(o) + " held the only copy of its ranges; bring it back,"
                    + " or replace it (annotation " + REPLACE_ANNOTATION + ") accepting the loss");
        }
        List<Integer> down = new java.util.ArrayList<>();
        for (int i = 0; i < stsReplicas; i++) {
            if (!serving(i)) {
                down.add(i);
            }
        }
        if (down.size() > in.redundancy() - 1) {
            return Optional.of(down.size() + " members are not serving (ordinals " + down + "); with spec.redundancy "
                    + in.redundancy() + " at most " + (in.redundancy() - 1) + " may be down for a removal without"
                    + " a drain, or some entries may have no copy left");
        }
        List<String> live = new java.util.ArrayList<>();
        for (int i = 0; i < stsReplicas; i++) {
            if (i == o || !serving(i)) {
                continue;
            }
            NodeStatus s = obs.status(i).orElseThrow();
            if (!s.replicated()) {
                return Optional.of("the live members are not replicated yet (" + pod(i) + ")");
            }
            if (s.sees(in.positions().get(o), pod(o) + ".")) {
                return Optional.of(pod(i) + " still has " + pod(o) + " in its ring view");
            }
            live.add(pod(i));
        }
        if (live.isEmpty()) {
            return Optional.of("no live member answers");
        }
        Set<String> hashes = obs.statuses().values().stream().map(NodeStatus::ringHash).filter(Objects::nonNull)
                .collect(Collectors.toSet());
        return hashes.size() > 1 ? Optional.of("the live members report different ring hashes") : Optional.empty();
    }

    /**
     * Tells the live members that the dead member at {@code o} is removed. The step recorded before the call is
     * {@code Removing}: a pass that stops before every live member answered (a crash, a failed write, a member that
     * did not answer) leaves it there, and the next pass tells the ring again. Only when every live member answered
     * does the step become {@code Shrinking} ({@link ActionRunner}), and the StatefulSet shrinks past it next.
     */
    private Plan remove(int o, String why) {
        List<String> hosts = new java.util.ArrayList<>();
        for (int i = 0; i < stsReplicas; i++) {
            if (i != o && serving(i)) {
                hosts.add(host(i));
            }
        }
        String message = "removing " + pod(o) + " without a drain (" + why + "; " + silence(o)
                + "): every entry it held has a copy on a live member";
        return Plan.of(new Action.RemoveMember(o, in.positions().get(o), hosts),
                op(Operation.REMOVE, desired, o, Operation.STEP_REMOVING), Progress.SCALING_DOWN, message,
                new Event(WARNING, "RemovingDeadMember", message + "; its PVC is kept"));
    }

    private Optional<Plan> continueRemove(Operation op) {
        int o = op.getOrdinal();
        if (desired > o) {
            return Optional.empty(); // scaled back up: the ordinal comes back, and its node decides about its data
        }
        if (Operation.STEP_REMOVING.equals(op.getStep()) && stsReplicas > o) {
            return Optional.of(remove(o, "telling the ring again"));
        }
        if (stsReplicas > o) {
            return Optional.of(Plan.of(new SetReplicas(o), op.atStep(Operation.STEP_SHRINKING), Progress.SCALING_DOWN,
                    "shrinking the StatefulSet to " + o + " past the removed " + pod(o), null));
        }
        if (obs.pod(o).isPresent()) {
            if (desired == 0) {
                return Optional.empty(); // hibernating stops every pod anyway; its PVC is kept like every other
            }
            return Optional.of(stopping(op.atStep(Operation.STEP_SHRINKING), o, obs.pod(o).get(),
                    Progress.SCALING_DOWN, "removing " + pod(o)));
        }
        Optional<ClaimView> claim = obs.claim(o).filter(c -> !c.terminating());
        if (claim.isEmpty()) {
            return Optional.empty();
        }
        String why = pod(o) + " was removed without a drain; its PVC " + claim.get().name() + " is kept (status"
                + " keptClaims): delete it with kubectl delete pvc " + claim.get().name() + " once its data is not"
                + " needed; a later scale-up starts the member on it, and the node decides whether its data is stale";
        return Optional.of(Plan.of(Action.NONE, null, Progress.SCALING_DOWN, why, new Event(WARNING, "ClaimKept", why)));
    }

    // ---- replacing a member on request ---------------------------------------------------------------------------

    /**
     * A request (annotation {@value #REPLACE_ANNOTATION}: "3") to replace a member: accepted only with no operation
     * open, while every other member serves and is replicated, and for the only copy of some data (N=1) only with the
     * confirmation annotation naming the same ordinal. Accepting it clears the annotations (used exactly once) and
     * records the ordinal and the pod's UID; nothing is deleted in that pass.
     */
    private Optional<Plan> replaceRequested() {
        String raw = in.requests().replaceMember();
        if (raw == null) {
            return Optional.empty();
        }
        int o;
        try {
            o = Integer.parseInt(raw.trim());
        } catch (NumberFormatException e) {
            return Optional.of(replaceRefused("annotation " + REPLACE_ANNOTATION + " must be a member ordinal like"
                    + " \"3\", got '" + raw + "'"));
        }
        if (o < 0 || o >= stsReplicas) {
            return Optional.of(replaceRefused("annotation " + REPLACE_ANNOTATION + ": there is no member at ordinal "
                    + o + " (members 0.." + (stsReplicas - 1) + ")"));
        }
        if (Math.min(in.redundancy(), stsReplicas) < 2 && !String.valueOf(o).equals(in.requests().confirmDataLoss())) {
            return Optional.of(replaceRefused("replacing " + pod(o) + " loses the only copy of its data (spec"
                    + ".redundancy " + in.redundancy() + ", " + stsReplicas + " member(s)); to confirm, also set"
                    + " annotation " + CONFIRM_DATA_LOSS_ANNOTATION + ": \"" + o + "\""));
        }
        for (int i = 0; i < stsReplicas; i++) {
            if (i == o) {
                continue;
            }
            if (!serving(i)) {
                return Optional.of(Plan.waiting(null, Progress.REPLACING, "replacing " + pod(o) + " waits: "
                        + pod(i) + " is not serving"));
            }
            if (!obs.status(i).map(NodeStatus::replicated).orElse(false)) {
                return Optional.of(Plan.waiting(null, Progress.REPLACING, "replacing " + pod(o)
                        + " waits: the ring is not replicated (" + pod(i) + ")"));
            }
        }
        String uid = obs.pod(o).map(PodView::uid).orElse(null);
        String message = "replacing " + pod(o) + " on request: its pod and PVC are deleted, it rejoins empty and the"
                + " ring copies its ranges back";
        return Optional.of(Plan.of(new Action.AcceptReplace(o),
                op(Operation.REPLACE, null, o, Operation.STEP_ACCEPTED).replacing(uid), Progress.REPLACING, message,
                new Event(NORMAL, "ReplacingMember", message + " (pod UID " + uid + ")")));
    }

    private Plan replaceRefused(String why) {
        return Plan.of(Action.NONE, null, Progress.REPLACING, why, new Event(WARNING, "ReplaceRefused", why));
    }

    private Optional<Plan> continueReplace(Operation op) {
        int o = op.getOrdinal();
        if (desired == 0 || stsReplicas <= o) {
            return Optional.empty(); // hibernating, or the ordinal is gone: nothing left to replace
        }
        Optional<PodView> pod = obs.pod(o);
        Optional<ClaimView> claim = obs.claim(o);
        if (Operation.STEP_ACCEPTED.equals(op.getStep())) {
            if (claim.isPresent() && !claim.get().terminating()) {
                return Optional.of(Plan.of(new DeleteClaim(o, claim.get().name()),
                        op.atStep(Operation.STEP_DELETING_POD), Progress.REPLACING, "replacing " + pod(o)
                                + ": deleting " + claim.get().name(),
                        new Event(NORMAL, "ClaimDeleted", "replacing " + pod(o) + " on request: deleting "
                                + claim.get().name())));
            }
            op = op.atStep(Operation.STEP_DELETING_POD);
        }
        boolean claimGoing = claim.isPresent() && claim.get().terminating();
        if (Operation.STEP_DELETING_POD.equals(op.getStep())) {
            if (pod.isPresent() && pod.get().terminating()) {
                return Optional.of(stopping(op, o, pod.get(), Progress.REPLACING, "replacing " + pod(o)));
            }
            boolean old = pod.isPresent() && (Objects.equals(op.getReplacedPodUid(), pod.get().uid()) || claimGoing);
            if (old) {
                return Optional.of(Plan.of(new DeletePod(o, pod.get().name()), op, Progress.REPLACING,
                        "replacing " + pod(o) + ": deleting its pod", null));
            }
            if (claimGoing) {
                return Optional.of(Plan.waiting(op, Progress.REPLACING, "replacing " + pod(o) + ": waiting for "
                        + claim.get().name() + " to be deleted"));
            }
            op = op.atStep(Operation.STEP_REJOINING);
        }
        if (pod.isEmpty() || pod.get().terminating() || !serving(o)) {
            Optional<String> change = pod.filter(p -> !p.terminating() && outdated(p)).map(p -> "its pod template"
                    + " changed").or(() -> Optional.of("spec.replicas is " + desired).filter(w -> desired > stsReplicas));
            if (change.isPresent()) {
                return Optional.of(endRejoinWait(o, change.get()));
            }
            return Optional.of(Plan.waiting(op, Progress.REPLACING, "replacing " + pod(o) + ": waiting for the new"
                    + " member to be Ready and ACTIVE (it rejoins empty)"));
        }
        Plan next = next(null);
        return Optional.of(next.withAlert(next.operation(), new Event(NORMAL, "MemberReplaced", pod(o)
                + " was replaced: it rejoined empty (new pod " + pod.get().uid() + "); anti-entropy copies its ranges"
                + " back")));
    }

    /**
     * The replaced member's new pod does not serve yet, and the spec changed (a new template, more replicas): the
     * replacement itself is done (its pod and PVC were deleted), only the wait for the rejoin ends. The next pass
     * plans afresh: an outdated pod that serves nothing restarts at once from the new template, a scale-up goes on.
     */
    private Plan endRejoinWait(int o, String why) {
        Plan next = next(null);
        return next.withAlert(next.operation(), new Event(WARNING, "ReplaceRejoinAbandoned", pod(o) + " was replaced"
                + " (its pod and PVC deleted) but has not rejoined (" + silence(o) + ") and " + why
                + ": the operator stops waiting for it and plans afresh"));
    }

    /**
     * The operation waits for the pod at {@code o} to stop ({@code doing} says what for). A Terminating pod normally
     * goes within its grace period; one whose node stopped answering may sit there forever (its Kubernetes node lost):
     * it is reported, and force-deleted only when annotated {@value #FORCE_DELETE_ANNOTATION} with its ordinal (the
     * user vouches that its node is really gone).
     */
    private Plan stopping(Operation op, int o, PodView pod, Progress progress, String doing) {
        if (!pod.terminating() || !unanswering(o)) {
            return Plan.waiting(op, progress, doing + ": waiting for its pod to stop");
        }
        if (String.valueOf(o).equals(in.requests().forceDeletePod())) {
            return Plan.of(new DeletePod(o, pod.name(), true), op, progress, doing
                    + ": force-deleting its pod stuck Terminating, as annotated", new Event(WARNING,
                            "PodForceDeleted", pod(o) + " was stuck Terminating (" + silence(o)
                                    + "); force-deleted as annotation " + FORCE_DELETE_ANNOTATION + " asks"));
        }
        String message = doing + ": its pod is stuck Terminating (" + silence(o) + "; its Kubernetes"
                + " node may be lost). It is never force-deleted unless annotated " + FORCE_DELETE_ANNOTATION + ": \""
                + o + "\"";
        return Plan.of(Action.NONE, op, progress, message, new Event(WARNING, "PodStuckTerminating", message));
    }

    // ---- 2. hibernate / scale up ----------------------------------------------------------------------------------

    private Optional<Plan> hibernateOrScaleUp() {
        if (desired == 0) {
            if (stsReplicas != 0) {
                return Optional.of(Plan.of(new SetReplicas(0), null, Progress.HIBERNATING,
                        "hibernating: stopping every member, PVCs are kept",
                        new Event(NORMAL, "Hibernating", "spec.replicas is 0: stopping all " + stsReplicas
                                + " members; PVCs and data are kept")));
            }
            return Optional.of(Plan.waiting(null, obs.pods().isEmpty() ? Progress.HIBERNATED : Progress.HIBERNATING,
                    obs.pods().isEmpty() ? "" : "hibernating: waiting for every member to stop"));
        }
        if (desired <= stsReplicas) {
            return Optional.empty();
        }
        return Optional.of(Plan.of(new SetReplicas(desired), op(Operation.SCALE_UP, desired, null, null),
                Progress.SCALING_UP, "scaling up to " + desired + " members",
                new Event(NORMAL, "ScalingUp", "scaling from " + stsReplicas + " to " + desired)));
    }

    // ---- 3. restarts ---------------------------------------------------------------------------------------------

    /**
     * An outdated pod known to serve nothing goes first, without the ring's health gate: restarting it costs nothing.
     * Known means Kubernetes reports it not Ready, or it answered /admin/status with a state other than ACTIVE. A Ready
     * pod whose /admin/status did not answer (a timeout under GC or CPU pressure) is unknown, not unhealthy: it waits
     * for the gate like any serving member, since restarting it could take away a copy the ring still needs.
     */
    private Optional<Plan> restartUnhealthyOutdated() {
        return livePods().stream().filter(this::outdated).filter(this::knownUnhealthy).findFirst()
                .map(p -> restart(p, "outdated and not serving"));
    }

    private boolean knownUnhealthy(PodView p) {
        NodeStatus s = obs.statuses().get(p.name());
        return !p.ready() || (s != null && !NodeStatus.ACTIVE.equals(s.state()));
    }

    /**
     * A member LEAVING or LEFT while no operation says so: the operator stopped (or its status write failed) between
     * asking it to leave and recording that, or someone called /admin/leave by hand. The highest member is taken up as
     * the scale-down of its ordinal (continued if spec.replicas no longer includes it, cancelled otherwise); any other
     * member is healed: a LEAVING one is asked to cancel its leave, a LEFT one is restarted so that it rejoins (its node
     * decides about its data).
     */
    private Optional<Plan> strayLeave() {
        Optional<PodView> stray = livePods().stream().filter(p -> p.ordinal() < stsReplicas)
                .filter(p -> obs.status(p.ordinal()).map(NodeStatus::state)
                        .filter(st -> NodeStatus.LEAVING.equals(st) || NodeStatus.LEFT.equals(st)).isPresent())
                .reduce((a, b) -> b);
        if (stray.isEmpty()) {
            return Optional.empty();
        }
        int o = stray.get().ordinal();
        String state = obs.status(o).get().state();
        if (o == stsReplicas - 1) {
            Operation adopted = op(Operation.SCALE_DOWN, desired, o, Operation.STEP_LEAVING);
            return continueScaleDown(adopted).map(p -> p.withAlert(p.operation(), new Event(NORMAL, "DrainAdopted",
                    pod(o) + " is " + state + " with no operation recorded; continuing it as the scale-down of "
                            + pod(o))));
        }
        if (NodeStatus.LEAVING.equals(state)) {
            String message = pod(o) + " is LEAVING with no operation recorded and is not the highest member: asking it"
                    + " to cancel its leave";
            return Optional.of(Plan.of(new Action.CancelLeave(o, host(o)), null, Progress.SCALING_UP, message,
                    new Event(WARNING, "StrayLeaveCancelled", message)));
        }
        return Optional.of(restart(stray.get(), "it reports LEFT with no operation recorded and is not the highest"
                + " member; it restarts and rejoins"));
    }

    private Optional<Plan> roll() {
        List<PodView> outdated = livePods().stream().filter(this::outdated).toList();
        if (outdated.isEmpty()) {
            return Optional.empty();
        }
        Optional<String> unhealthy = ringUnhealthy();
        if (unhealthy.isPresent()) {
            return Optional.of(Plan.waiting(null, Progress.ROLLING_RESTART, outdated.size()
                    + " member(s) outdated; waiting before the next restart: " + unhealthy.get()));
        }
        return Optional.of(restart(outdated.get(outdated.size() - 1), "outdated"));
    }

    private Plan restart(PodView p, String why) {
        return Plan.of(new DeletePod(p.ordinal(), p.name()), op(Operation.RESTART, null, p.ordinal(),
                Operation.STEP_RESTARTING), Progress.ROLLING_RESTART, "restarting " + p.name() + " (" + why + ")",
                new Event(NORMAL, "RestartingMember", "restarting " + p.name() + ": " + why));
    }

    private boolean outdated(PodView p) {
        return obs.templateHash() != null && !obs.templateHash().equals(p.specHash());
    }

    private boolean serving(int ordinal) {
        return obs.pod(ordinal).filter(p -> !p.terminating()).map(this::serving).orElse(false);
    }

    private boolean unanswering(int ordinal) {
        return unanswering.contains(ordinal);
    }

    private String silence(int ordinal) {
        Silence.Entry e = in.silence().get(ordinal);
        return e == null || e.missedPolls() == 0 ? "it answered"
                : "no /admin/status answer for " + e.missedPolls() + " passes, since " + e.since();
    }

    private boolean serving(PodView p) {
        NodeStatus s = obs.statuses().get(p.name());
        return p.ready() && s != null && NodeStatus.ACTIVE.equals(s.state());
    }

    // ---- 4. scale down -------------------------------------------------------------------------------------------

    private Optional<Plan> scaleDown() {
        if (desired >= stsReplicas) {
            return Optional.empty();
        }
        int o = stsReplicas - 1;
        if (!serving(o) && unanswering(o)) {
            Optional<String> refusal = removalRefusal(o);
            if (refusal.isEmpty()) {
                return Optional.of(remove(o, "it is not Ready and does not answer"));
            }
            String why = "refusing to scale down past " + pod(o) + ", which is not Ready and does not answer ("
                    + silence(o) + "): " + refusal.get();
            return Optional.of(Plan.of(Action.NONE, null, Progress.SCALE_DOWN_REFUSED, why,
                    new Event(WARNING, "RemoveRefused", why)));
        }
        Optional<String> unhealthy = ringUnhealthy();
        if (unhealthy.isPresent()) {
            return Optional.of(Plan.waiting(null, Progress.SCALING_DOWN,
                    "scale-down to " + desired + " waits: " + unhealthy.get()));
        }
        Optional<String> noRoom = noRoom();
        if (noRoom.isPresent()) {
            return Optional.of(Plan.of(Action.NONE, null, Progress.SCALE_DOWN_REFUSED, noRoom.get(),
                    new Event(WARNING, "ScaleDownRefused", noRoom.get())));
        }
        return Optional.of(Plan.of(new Leave(o, host(o)), op(Operation.SCALE_DOWN, desired, o, Operation.STEP_LEAVING),
                Progress.SCALING_DOWN, "draining " + pod(o) + " (scaling down to " + desired + ")",
                new Event(NORMAL, "DrainingMember", "scaling from " + stsReplicas + " to " + desired
                        + ": asking " + pod(o) + " to leave the ring")));
    }

    /**
     * The members keep min(N, size) copies of every entry, so after the scale-down the remaining volumes must hold
     * sum(dataBytes) × min(N, desired) / min(N, current).
     */
    Optional<String> noRoom() {
        long total = 0;
        for (int o = 0; o < stsReplicas; o++) {
            total += obs.status(o).map(NodeStatus::dataBytes).orElse(0L);
        }
        long needed = (long) ((double) total * Math.min(in.redundancy(), desired)
                / Math.min(in.redundancy(), stsReplicas));
        long room = 0;
        for (int o = 0; o < desired; o++) {
            room += obs.claim(o).map(ClaimView::capacityBytes).orElse(0L);
        }
        return needed > room ? Optional.of("refusing to scale down to " + desired + ": the remaining members' volumes ("
                + room + " bytes) cannot hold the data (" + needed + " bytes of " + total + " held now)")
                : Optional.empty();
    }

    // ---- the ring's health ---------------------------------------------------------------------------------------

    /** Empty when every member up to the StatefulSet's size is Ready, ACTIVE, replicated, and all agree on the ring. */
    Optional<String> ringUnhealthy() {
        for (int o = 0; o < stsReplicas; o++) {
            Optional<PodView> p = obs.pod(o);
            if (p.isEmpty() || p.get().terminating() || !p.get().ready()) {
                return Optional.of(pod(o) + " is not Ready");
            }
            NodeStatus s = obs.statuses().get(p.get().name());
            if (s == null) {
                return Optional.of(pod(o) + " does not answer /admin/status");
            }
            if (!NodeStatus.ACTIVE.equals(s.state())) {
                return Optional.of(pod(o) + " is " + s.state());
            }
            if (!s.replicated()) {
                return Optional.of("the ring is not replicated (" + pod(o) + ")");
            }
        }
        Set<String> hashes = obs.statuses().values().stream().map(NodeStatus::ringHash).filter(Objects::nonNull)
                .collect(Collectors.toSet());
        if (hashes.size() > 1) {
            return Optional.of("members report different ring hashes");
        }
        return Optional.empty();
    }

    // ---- nothing to change ------------------------------------------------------------------------------------

    private Plan settle(Operation op) {
        if (op != null && Operation.SCALE_UP.equals(op.getType()) && obs.readyCount() < desired) {
            return Plan.waiting(op, Progress.SCALING_UP, "scaling up to " + desired + " members: "
                    + obs.readyCount() + " Ready");
        }
        return Plan.waiting(null, Progress.STEADY, "");
    }

    // ---- helpers -------------------------------------------------------------------------------------------------

    private List<PodView> livePods() {
        return obs.pods().stream().filter(p -> !p.terminating()).toList();
    }

    /** An operation of this type keeps its start time across steps. */
    private Operation op(String type, Integer target, Integer ordinal, String step) {
        Operation prev = in.operation();
        String since = prev != null && type.equals(prev.getType()) && Objects.equals(ordinal, prev.getOrdinal())
                ? prev.getStartedAt() : in.now().toString();
        return new Operation(type, target, ordinal, step, since);
    }

    private static Operation step(Operation op, String step) {
        return op.atStep(step);
    }

    /** The drain's target follows spec.replicas while it goes down further. */
    private Operation withTarget(Operation op) {
        Operation next = op.atStep(op.getStep());
        next.setTargetReplicas(desired);
        return next;
    }

    private String pod(int ordinal) {
        return in.clusterName() + "-" + ordinal;
    }

    private String host(int ordinal) {
        return obs.pod(ordinal).map(PodView::ip).orElse(null);
    }

    private static String leaveProgress(NodeStatus s) {
        return s.leave() == null ? "LEAVING"
                : "LEAVING, " + s.leave().rangesConfirmed() + "/" + s.leave().rangesTotal() + " ranges confirmed";
    }
}

package io.god.operator.reconcile;

import static io.god.operator.reconcile.EventRecorder.NORMAL;
import static io.god.operator.reconcile.EventRecorder.WARNING;

import io.god.operator.admin.NodeStatus;
import io.god.operator.model.Operation;
import io.god.operator.reconcile.Action.DeleteClaim;
import io.god.operator.reconcile.Action.DeletePod;
import io.god.operator.reconcile.Action.Leave;
import io.god.operator.reconcile.Action.SetReplicas;
import io.god.operator.reconcile.Observation.ClaimView;
import io.god.operator.reconcile.Observation.PodView;
import io.god.operator.reconcile.Plan.Event;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
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
 * <li>an operation in progress continues (a drain, a restart, a wipe), or is cancelled when the spec no longer wants
 * it;</li>
 * <li>tombstone guard: a stale ordinal that is about to run gets its PVC deleted first;</li>
 * <li>hibernate (spec.replicas 0: no drain, PVCs kept) or scale up;</li>
 * <li>an outdated pod that is not serving is restarted at once;</li>
 * <li>scale down one ordinal at a time, highest first: leave → LEFT → shrink by one → delete its PVC;</li>
 * <li>roll the outdated pods, highest first, one at a time, each only while the whole ring is healthy.</li>
 * </ol>
 * The reconciler takes the action, records the plan's operation, and asks again after a short wait.
 */
public final class Planner {

    /** The inputs; {@code lastSeen} is each ordinal's last time in the ring as recorded before this observation. */
    public record Input(int desired, int redundancy, boolean deleteClaimOnScaleDown, Duration tombstoneWindow,
            String clusterName, Observation obs, Map<Integer, Instant> lastSeen, Operation operation, Instant now) {
    }

    private final Input in;
    private final Observation obs;
    private final int desired;
    private final int stsReplicas;
    /** lastSeenInRing with this observation applied: a member in the ring now is seen now. */
    private final Map<Integer, Instant> seen;

    public Planner(Input in) {
        this.in = in;
        this.obs = in.obs();
        this.desired = in.desired();
        this.stsReplicas = obs.statefulSetReplicas();
        this.seen = new HashMap<>(in.lastSeen());
        for (PodView p : obs.pods()) {
            NodeStatus s = obs.statuses().get(p.name());
            if (s != null && s.inRing()) {
                seen.put(p.ordinal(), in.now());
            }
        }
    }

    public static Plan plan(Input in) {
        return new Planner(in).next(in.operation());
    }

    private Plan next(Operation op) {
        if (op != null) {
            Optional<Plan> next = switch (op.getType()) {
                case Operation.SCALE_DOWN -> continueScaleDown(op);
                case Operation.RESTART -> continueRestart(op);
                case Operation.WIPE -> continueWipe(op);
                default -> Optional.empty(); // ScaleUp has no step of its own to finish
            };
            if (next.isPresent()) {
                return next.get();
            }
            if (!Operation.SCALE_UP.equals(op.getType())) {
                return afterDone(op);
            }
        }
        return guard().or(this::hibernateOrScaleUp).or(this::restartUnhealthyOutdated).or(this::scaleDown)
                .or(this::roll).orElseGet(() -> settle(op));
    }

    /** The operation is finished: plan afresh (the forget set of a wipe or removal carries over). */
    private Plan afterDone(Operation op) {
        Set<Integer> forget = Set.of();
        if (op.getOrdinal() != null && (Operation.WIPE.equals(op.getType())
                || Operation.STEP_DELETING_CLAIM.equals(op.getStep()))) {
            forget = Set.of(op.getOrdinal());
            seen.remove(op.getOrdinal());
        }
        return next(null).forgetting(forget);
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
                    return Optional.of(shrunk(op, o));
                }
                if (NodeStatus.LEFT.equals(state)) {
                    // a LEFT member cannot be cancelled: it is removed, and a scale-up brings the ordinal back empty
                    Operation next = step(op, Operation.STEP_SHRINKING);
                    return Optional.of(Plan.of(new SetReplicas(o), next, Progress.SCALING_DOWN,
                            pod(o) + " has LEFT the ring; shrinking the StatefulSet to " + o,
                            new Event(NORMAL, "MemberLeft", pod(o) + " left the ring; removing it")));
                }
                if (wanted || desired == 0) {
                    if (op.is(Operation.SCALE_DOWN, Operation.STEP_CANCELLING) && NodeStatus.ACTIVE.equals(state)) {
                        return Optional.empty(); // cancelled: the member is ACTIVE again
                    }
                    if (st.isEmpty()) {
                        return Optional.of(Plan.waiting(op, Progress.SCALING_DOWN,
                                "cancelling the drain of " + pod(o) + ": waiting for it to answer"));
                    }
                    return Optional.of(Plan.of(new Action.CancelLeave(o, host(o)), step(op, Operation.STEP_CANCELLING),
                            Progress.SCALING_DOWN, "replicas raised to " + desired + ": cancelling the drain of " + pod(o),
                            new Event(NORMAL, "DrainCancelled", "spec.replicas is " + desired + ": " + pod(o)
                                    + " stays; its leave is cancelled")));
                }
                if (st.isEmpty()) {
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
            case Operation.STEP_SHRINKING -> {
                if (stsReplicas > o) {
                    return Optional.of(Plan.of(new SetReplicas(o), op, Progress.SCALING_DOWN,
                            "shrinking the StatefulSet to " + o, null));
                }
                return Optional.of(shrunk(op, o));
            }
            case Operation.STEP_DELETING_CLAIM -> {
                Optional<ClaimView> claim = obs.claim(o);
                if (claim.isPresent() && !claim.get().terminating()) {
                    return Optional.of(Plan.of(new DeleteClaim(o, claim.get().name()), op, Progress.SCALING_DOWN,
                            "deleting " + claim.get().name(), null));
                }
                if (claim.isPresent()) {
                    return Optional.of(Plan.waiting(op, Progress.SCALING_DOWN,
                            "waiting for " + claim.get().name() + " to be deleted"));
                }
                return Optional.empty();
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
            return Plan.waiting(step(op, Operation.STEP_SHRINKING), Progress.SCALING_DOWN,
                    "waiting for " + pod(o) + " to stop");
        }
        Optional<ClaimView> claim = obs.claim(o);
        if (in.deleteClaimOnScaleDown() && claim.isPresent() && !claim.get().terminating()) {
            return Plan.of(new DeleteClaim(o, claim.get().name()), step(op, Operation.STEP_DELETING_CLAIM),
                    Progress.SCALING_DOWN, "deleting " + claim.get().name(),
                    new Event(NORMAL, "ClaimDeleted", pod(o) + " was drained and removed; deleting " + claim.get().name()));
        }
        if (in.deleteClaimOnScaleDown() && claim.isPresent()) {
            return Plan.waiting(step(op, Operation.STEP_DELETING_CLAIM), Progress.SCALING_DOWN,
                    "waiting for " + claim.get().name() + " to be deleted");
        }
        return in.deleteClaimOnScaleDown() ? afterDone(step(op, Operation.STEP_DELETING_CLAIM)) : next(null);
    }

    private Optional<Plan> continueRestart(Operation op) {
        int o = op.getOrdinal();
        if (desired == 0) {
            return Optional.empty(); // hibernating stops every pod anyway
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
        boolean nextIsNotServing = livePods().stream().anyMatch(p -> outdated(p) && !serving(p));
        if (unhealthy.isPresent() && !nextIsNotServing) {
            return Optional.of(Plan.waiting(op, Progress.ROLLING_RESTART,
                    "waiting after restarting " + pod(o) + ": " + unhealthy.get()));
        }
        return Optional.empty(); // done; another outdated pod that serves nothing may go next without waiting
    }

    private Optional<Plan> continueWipe(Operation op) {
        int o = op.getOrdinal();
        Optional<ClaimView> claim = obs.claim(o);
        if (claim.isEmpty() || !claim.get().terminating()) {
            return Optional.empty(); // gone, or already replaced by a new, empty claim
        }
        Optional<PodView> pod = obs.pod(o);
        if (pod.isPresent() && !pod.get().terminating()) {
            // the PVC is marked for deletion first, so the pod that holds it (pvc-protection) can go now and no new
            // pod is started on the old volume; a pod recreated before the claim went is deleted again
            return Optional.of(Plan.of(new DeletePod(o, pod.get().name()), op, Progress.WIPING,
                    "wiping " + pod(o) + ": deleting the pod that holds " + claim.get().name(), null));
        }
        return Optional.of(Plan.waiting(op, Progress.WIPING, "wiping " + pod(o) + ": waiting for "
                + claim.get().name() + " to be deleted"));
    }

    // ---- 2. tombstone guard ---------------------------------------------------------------------------------------

    /** The lowest stale ordinal that is about to run (a pod exists or will be created) gets its PVC deleted. */
    private Optional<Plan> guard() {
        if (desired == 0) {
            return Optional.empty();
        }
        int runRange = Math.max(desired, stsReplicas);
        for (int o = 0; o < runRange; o++) {
            Optional<ClaimView> claim = obs.claim(o);
            if (claim.isPresent() && !claim.get().terminating() && stale(o)) {
                Instant last = seen.get(o);
                String why = pod(o) + " was last seen in the ring at " + last + ", more than the tombstone window ("
                        + in.tombstoneWindow() + ") before the others; its data may hold deleted keys";
                return Optional.of(Plan.of(new DeleteClaim(o, claim.get().name()),
                        op(Operation.WIPE, null, o, Operation.STEP_DELETING_CLAIM), Progress.WIPING,
                        "wiping " + pod(o) + ": " + why,
                        new Event(WARNING, "WipingStaleMember", why + "; deleting " + claim.get().name()
                                + " before it may run again")));
            }
        }
        return Optional.empty();
    }

    /**
     * Stale: not in the ring now, and another ordinal was seen in the ring more than the window after this one was
     * last seen. Relative to the other members, so a hibernated ring (nobody seen) never goes stale.
     */
    boolean stale(int o) {
        Instant last = seen.get(o);
        if (last == null || in.now().equals(last)) {
            return false;
        }
        Optional<Instant> newestOther = seen.entrySet().stream().filter(e -> e.getKey() != o)
                .map(Map.Entry::getValue).max(Instant::compareTo);
        return newestOther.isPresent() && Duration.between(last, newestOther.get()).compareTo(in.tombstoneWindow()) > 0;
    }

    // ---- 3. hibernate / scale up ----------------------------------------------------------------------------------

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
        Operation op = in.operation();
        if (stsReplicas == 0 && (op == null || !op.is(Operation.SCALE_UP, Operation.STEP_WAKING))) {
            // recorded before any pod starts: the time spent hibernated must not count, so every lastSeenInRing moves
            // forward by it (the newest becomes now) and the gaps between members stay exactly as they were
            Optional<Instant> newest = seen.values().stream().max(Instant::compareTo);
            Map<Integer, Instant> carried = new HashMap<>();
            newest.ifPresent(n -> seen.forEach((o, t) -> carried.put(o, t.plus(Duration.between(n, in.now())))));
            return Optional.of(Plan.waiting(op(Operation.SCALE_UP, desired, null, Operation.STEP_WAKING),
                    Progress.SCALING_UP, "starting " + desired + " members").carrying(carried));
        }
        return Optional.of(Plan.of(new SetReplicas(desired), op(Operation.SCALE_UP, desired, null, null),
                Progress.SCALING_UP, "scaling up to " + desired + " members",
                new Event(NORMAL, "ScalingUp", "scaling from " + stsReplicas + " to " + desired)));
    }

    // ---- 4. restarts ---------------------------------------------------------------------------------------------

    /** An outdated pod that serves nothing (unready, silent or not ACTIVE) goes first: restarting it costs nothing. */
    private Optional<Plan> restartUnhealthyOutdated() {
        return livePods().stream().filter(this::outdated).filter(p -> !serving(p)).findFirst()
                .map(p -> restart(p, "outdated and not serving"));
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

    private boolean serving(PodView p) {
        NodeStatus s = obs.statuses().get(p.name());
        return p.ready() && s != null && NodeStatus.ACTIVE.equals(s.state());
    }

    // ---- 5. scale down -------------------------------------------------------------------------------------------

    private Optional<Plan> scaleDown() {
        if (desired >= stsReplicas) {
            return Optional.empty();
        }
        int o = stsReplicas - 1;
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

    // ---- 7. nothing to change ------------------------------------------------------------------------------------

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
        return new Operation(op.getType(), op.getTargetReplicas(), op.getOrdinal(), step, op.getStartedAt());
    }

    /** The drain's target follows spec.replicas while it goes down further. */
    private Operation withTarget(Operation op) {
        return new Operation(op.getType(), desired, op.getOrdinal(), op.getStep(), op.getStartedAt());
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

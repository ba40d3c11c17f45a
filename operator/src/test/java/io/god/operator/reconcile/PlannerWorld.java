package io.god.operator.reconcile;

import io.god.operator.admin.NodeStatus;
import io.god.operator.model.Operation;
import io.god.operator.reconcile.Observation.ClaimView;
import io.god.operator.reconcile.Observation.PodView;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A small model of a StatefulSet, its pods and PVCs and the nodes' leave protocol, for driving the {@link Planner}
 * without Kubernetes: each {@link #step()} plans, takes the action, records the operation as the reconciler does, then
 * lets the "controllers" and nodes move one tick. It checks the one rule about volumes on every action: a claim is
 * deleted only after its member confirmed a drain (LEFT, leave phase DONE, nothing held); otherwise it throws.
 */
final class PlannerWorld {

    static final long GIB = 1L << 30;

    final class PodState {
        final int ordinal;
        String hash;
        String state = NodeStatus.ACTIVE;
        boolean ready = true;
        boolean terminating;
        int leaveTicks;
        long dataBytes = 100;
        /** LEFT because it is shutting down (close()), not drained: it still holds its data. */
        boolean shuttingDown;
        final String uid = "uid-" + (++uids);
        /** Its /admin/status answers (false: it times out, though Kubernetes may call the pod Ready). */
        boolean answers = true;
        /** It answers /admin/status while not Ready (a LEAVING or LEFT node reports itself unready). */
        boolean answersUnready;
        /** Deleted but its Kubernetes node is lost: it stays Terminating until force-deleted. */
        boolean stuck;
        /** A crash loop: it answers /admin/status only on every n-th pass (0: whenever it is up). */
        int answersEvery;

        PodState(int ordinal, String hash) {
            this.ordinal = ordinal;
            this.hash = hash;
        }
    }

    int desired;
    int redundancy = 3;
    boolean deleteClaims = true;
    int stsReplicas;
    String templateHash = "v1";
    boolean replicated = true;
    /** Ticks a leave takes from LEAVING to LEFT. */
    int leaveTicks = 2;
    final Map<Integer, PodState> pods = new TreeMap<>();
    /** Ordinals whose pods never become Ready (Pending, crash-looping). */
    final java.util.Set<Integer> failing = new java.util.HashSet<>();
    final Map<Integer, Boolean> claims = new TreeMap<>(); // ordinal → terminating
    /** Ordinals whose current member finished a drain (its data handed over and dropped). */
    final java.util.Set<Integer> drained = new java.util.HashSet<>();
    /** Claims deleted and pods deleted, by ordinal, in order. */
    final List<Integer> deletedClaims = new ArrayList<>();
    final List<Integer> deletedPods = new ArrayList<>();
    Operation operation;
    /** The wait with no operation open, as the last status recorded it. */
    io.god.operator.model.Wait waiting;
    Instant now = Instant.parse("2026-11-21T10:00:00Z");
    /** How far the clock moves per step. */
    Duration stepTime = Duration.ofSeconds(1);
    Silence.Bounds bounds = Silence.Bounds.DEFAULT;
    Duration operationTimeout = Planner.DEFAULT_TIMEOUT;
    Map<Integer, Silence.Entry> silence = Map.of();
    /** The user's annotations; accepting a replace request clears it (and its confirmation) as the operator does. */
    Planner.Requests requests = Planner.Requests.NONE;
    /** Ordinals the live members no longer have in their ring view (failure detection dropped them). */
    final java.util.Set<Integer> outOfView = new java.util.HashSet<>();
    /** What a LEAVING member reports as its leave's last error. */
    String leaveError;
    /** What a LEAVING member reports as confirmed ranges (of 4). */
    long rangesConfirmed = 1;
    int uids;
    /** Passes (steps) made so far. */
    int passes;
    /** Every event and alert the plans carried, in order (no repeat suppression). */
    final List<Plan.Event> events = new ArrayList<>();
    final List<Integer> removed = new ArrayList<>();
    /** "host removed-ordinal" for every /admin/remove-member call that was answered, in order. */
    final List<String> toldRemoved = new ArrayList<>();
    /** Ordinals whose members do not answer /admin/remove-member (the call times out). */
    final java.util.Set<Integer> removeUnanswered = new java.util.HashSet<>();
    /** The next pass records its intent (the operation, as the reconciler does before acting) and then crashes. */
    boolean crashAfterIntent;
    final List<String> actions = new ArrayList<>();
    Plan last;

    PlannerWorld(int members) {
        desired = members;
        stsReplicas = members;
        tick();
    }

    Observation observation() {
        List<PodView> views = new ArrayList<>();
        Map<String, NodeStatus> statuses = new LinkedHashMap<>();
        for (PodState p : pods.values()) {
            String name = "demo-" + p.ordinal;
            views.add(new PodView(name, p.ordinal, p.ready && !p.terminating, "10.0.0." + p.ordinal, p.terminating, p.hash,
                    p.uid));
            // the operator asks every pod with an IP; whether it answers is the node's business
            boolean up = p.answersEvery == 0 || passes % p.answersEvery == 0;
            if (!p.terminating && p.answers && up && (p.ready || p.answersUnready)) {
                boolean done = NodeStatus.LEFT.equals(p.state) && !p.shuttingDown;
                NodeStatus.LeaveProgress leave = NodeStatus.LEAVING.equals(p.state)
                        ? new NodeStatus.LeaveProgress("HANDING_OFF", null, 4, rangesConfirmed, leaveError)
                        : done ? new NodeStatus.LeaveProgress(NodeStatus.LEAVE_DONE, null, 4, 4) : null;
                List<NodeStatus.RingMember> ring = pods.keySet().stream().filter(o -> !outOfView.contains(o))
                        .map(o -> new NodeStatus.RingMember("0" + o, "demo-" + o + ".demo-peers.ns.svc:9191")).toList();
                statuses.put(name, new NodeStatus(p.state, "0" + p.ordinal, "ring", pods.size(), replicated, 1,
                        done ? 0 : 3, p.dataBytes, null, null, null, null, leave, ring));
            }
        }
        List<ClaimView> claimViews = claims.entrySet().stream()
                .map(e -> new ClaimView("data-demo-" + e.getKey(), e.getKey(), GIB, e.getValue())).toList();
        return new Observation(stsReplicas, templateHash, views, claimViews, statuses, Map.of());
    }

    Plan plan() {
        return plan(observation());
    }

    private Plan plan(Observation obs) {
        Map<Integer, String> positions = new TreeMap<>();
        for (int o = 0; o < Math.max(stsReplicas, pods.size()) + 1; o++) {
            positions.put(o, "0" + o);
        }
        return Planner.plan(new Planner.Input(desired, redundancy, deleteClaims, "demo", obs, operation, now,
                Silence.update(members(), obs, now), bounds, positions, requests, operationTimeout, waiting));
    }

    /** The silence the last status recorded, as members. */
    private List<io.god.operator.model.Member> members() {
        List<io.god.operator.model.Member> members = new ArrayList<>();
        silence.forEach((o, e) -> {
            io.god.operator.model.Member m = new io.god.operator.model.Member(o, "demo-" + o);
            if (e.missedPolls() > 0) {
                m.setMissedPolls(e.missedPolls());
                m.setUnansweredSince(e.since());
            }
            members.add(m);
        });
        return members;
    }

    /** One reconcile, then one tick of the world. */
    Plan step() {
        Observation obs = observation();
        Plan plan = plan(obs);
        silence = Silence.update(members(), obs, now);
        last = plan;
        if (crashAfterIntent) {
            crashAfterIntent = false;
            if (!(plan.action() instanceof Action.None)) {
                operation = plan.operation(); // the intent reached the status; the action was never taken
            }
            now = now.plus(stepTime);
            tick();
            return plan;
        }
        apply(plan.action());
        if (!(plan.action() instanceof Action.None)) {
            actions.add(plan.action().toString());
        }
        if (plan.event() != null) {
            events.add(plan.event());
        }
        if (plan.alert() != null) {
            events.add(plan.alert());
        }
        operation = plan.action() instanceof Action.RemoveMember r ? told(r, plan.operation()) : plan.operation();
        waiting = plan.waiting();
        now = now.plus(stepTime);
        passes++;
        tick();
        return plan;
    }

    /** As {@link ActionRunner}: the removal moves on to Shrinking only when every live member answered. */
    private Operation told(Action.RemoveMember r, Operation op) {
        boolean all = true;
        for (String host : r.hosts()) {
            int ordinal = Integer.parseInt(host.substring(host.lastIndexOf('.') + 1));
            if (removeUnanswered.contains(ordinal)) {
                all = false;
            } else {
                toldRemoved.add(host + " " + r.ordinal());
            }
        }
        return op.atStep(all ? Operation.STEP_SHRINKING : Operation.STEP_REMOVING);
    }

    /** The reasons of the events recorded so far. */
    List<String> eventReasons() {
        return events.stream().map(Plan.Event::reason).toList();
    }

    /** Steps until nothing is left to do (or the bound); returns the actions taken. */
    List<String> settle() {
        for (int i = 0; i < 200; i++) {
            Plan p = step();
            if (p.action() instanceof Action.None && p.operation() == null
                    && (p.progress() == Progress.STEADY || p.progress() == Progress.HIBERNATED
                            || p.progress() == Progress.SCALE_DOWN_REFUSED)) {
                return actions;
            }
        }
        throw new AssertionError("did not settle: " + actions + ", last plan " + last);
    }

    private void apply(Action action) {
        if (action instanceof Action.SetReplicas s) {
            stsReplicas = s.replicas();
        } else if (action instanceof Action.DeletePod d) {
            if (pods.containsKey(d.ordinal())) {
                pods.get(d.ordinal()).terminating = true;
                if (d.force()) {
                    pods.get(d.ordinal()).stuck = false;
                }
            }
            deletedPods.add(d.ordinal());
        } else if (action instanceof Action.AcceptReplace) {
            requests = new Planner.Requests(null, null, requests.forceDeletePod());
        } else if (action instanceof Action.RemoveMember r) {
            removed.add(r.ordinal());
        } else if (action instanceof Action.DeleteClaim d) {
            boolean replacing = last.operation() != null && Operation.REPLACE.equals(last.operation().getType())
                    && Integer.valueOf(d.ordinal()).equals(last.operation().getOrdinal());
            if (!drained.contains(d.ordinal()) && !replacing) {
                throw new AssertionError("the claim of ordinal " + d.ordinal() + " was deleted without a confirmed"
                        + " drain of its member; plan " + last + ", actions " + actions);
            }
            claims.put(d.ordinal(), true);
            deletedClaims.add(d.ordinal());
        } else if (action instanceof Action.Leave l) {
            PodState p = pods.get(l.ordinal());
            if (p != null && NodeStatus.ACTIVE.equals(p.state)) {
                p.state = NodeStatus.LEAVING;
                p.leaveTicks = leaveTicks;
            }
        } else if (action instanceof Action.CancelLeave c) {
            PodState p = pods.get(c.ordinal());
            if (p != null && NodeStatus.LEAVING.equals(p.state)) {
                p.state = NodeStatus.ACTIVE;
            }
        }
    }

    /** The StatefulSet controller (OnDelete, no pod on a terminating claim), PVC protection, and leaving nodes. */
    void tick() {
        pods.values().forEach(p -> p.terminating |= p.ordinal >= stsReplicas);
        pods.values().removeIf(p -> p.terminating && !p.stuck);
        claims.entrySet().removeIf(e -> e.getValue() && !pods.containsKey(e.getKey()));
        for (int o = 0; o < stsReplicas; o++) {
            if (!pods.containsKey(o) && !claims.getOrDefault(o, false)) {
                claims.putIfAbsent(o, false);
                drained.remove(o); // a member starts on the claim again: it may take data, so nothing is drained
                PodState p = new PodState(o, templateHash);
                p.ready = !failing.contains(o);
                pods.put(o, p);
            }
        }
        for (PodState p : pods.values()) {
            if (NodeStatus.LEAVING.equals(p.state) && --p.leaveTicks <= 0) {
                p.state = NodeStatus.LEFT;
                drained.add(p.ordinal);
            }
        }
    }
}

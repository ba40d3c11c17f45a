package io.god.operator.reconcile;

import io.god.operator.admin.NodeStatus;
import io.god.operator.model.GodCluster;
import io.god.operator.model.GodClusterStatus;
import io.god.operator.model.Member;
import io.god.operator.model.GoDuration;
import io.god.operator.model.Operation;
import io.god.operator.model.Replacement;
import io.god.operator.model.Settings;
import io.god.operator.monitoring.ServiceMonitors;
import io.god.operator.reconcile.Observation.PodView;
import io.god.operator.resources.Labels;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/** Computes a GodCluster status from an observation (pure: no API calls, the clock is passed in). */
public final class StatusWriter {

    public static final String PHASE_RUNNING = "Running";
    public static final String PHASE_DEGRADED = "Degraded";
    public static final String PHASE_SCALING_UP = "ScalingUp";
    public static final String PAUSED_ANNOTATION = "god.io/paused";
    public static final String PHASE_HIBERNATING = "Hibernating";
    public static final String PHASE_HIBERNATED = "Hibernated";
    public static final String PHASE_PAUSED = "Paused";
    public static final String PHASE_INVALID = "Invalid";
    /** An object with one of the cluster's names belongs to someone else. */
    public static final String PHASE_BLOCKED = "Blocked";
    public static final String REASON_CONFLICT = "OwnedObjectConflict";
    public static final String REASON_SECRETS = "SecretUnavailable";

    private final GodCluster cluster;
    private final GodClusterStatus previous;
    private final Instant now;
    private final Map<String, Instant> heard;

    public StatusWriter(GodCluster cluster, Instant now) {
        this(cluster, now, Map.of());
    }

    /** {@code heard}: when this operator process last had an /admin/status answer from each pod uid (see Silence). */
    public StatusWriter(GodCluster cluster, Instant now, Map<String, Instant> heard) {
        this.cluster = cluster;
        this.previous = Optional.ofNullable(cluster.getStatus()).orElseGet(GodClusterStatus::new);
        this.now = now;
        this.heard = heard;
    }

    /** A status that keeps what was observed before and only records this pass's verdict. */
    private GodClusterStatus base(String phase) {
        GodClusterStatus s = new GodClusterStatus();
        s.setObservedGeneration(cluster.getMetadata().getGeneration());
        s.setSelector(Labels.selectorString(cluster));
        s.setReplicas(Optional.ofNullable(previous.getReplicas()).orElse(0));
        s.setReadyReplicas(Optional.ofNullable(previous.getReadyReplicas()).orElse(0));
        s.setMembers(Optional.ofNullable(previous.getMembers()).orElse(List.of()));
        s.setRingHash(previous.getRingHash());
        s.setOperation(previous.getOperation());
        s.setKeptClaims(previous.getKeptClaims());
        s.setLastReplacement(previous.getLastReplacement());
        s.setRedundancy(previous.getRedundancy());
        s.setPhase(phase);
        return s;
    }

    public GodClusterStatus paused() {
        GodClusterStatus s = base(PHASE_PAUSED);
        s.setConditions(conditions().keep(Conditions.READY).keep(Conditions.PROGRESSING).keep(Conditions.REPLICATED)
                .keep(Conditions.DEGRADED).keep(Conditions.FULL_REDUNDANCY).keep(Conditions.MONITORING)
                .set(Conditions.PAUSED, Conditions.TRUE, "Paused",
                        "spec.paused or the annotation god.io/paused is true: the operator reports status but changes nothing")
                .build());
        return s;
    }

    public GodClusterStatus invalid(List<String> problems) {
        return refused(PHASE_INVALID, "InvalidSpec", "nothing changes until the spec is fixed", problems);
    }

    /** Objects of the cluster's names that another owner has: nothing changes until they are gone. */
    public GodClusterStatus blocked(List<String> conflicts) {
        return refused(PHASE_BLOCKED, REASON_CONFLICT, "nothing changes while another owner has one of the cluster's"
                + " object names", conflicts);
    }

    public GodClusterStatus secretsUnavailable(List<String> problems) {
        return refused(PHASE_BLOCKED, REASON_SECRETS, "nothing changes until the Secrets the members mount are"
                + " complete", problems);
    }

    private GodClusterStatus refused(String phase, String reason, String progressing, List<String> problems) {
        GodClusterStatus s = base(phase);
        s.setConditions(conditions().keep(Conditions.READY).keep(Conditions.REPLICATED).keep(Conditions.FULL_REDUNDANCY)
                .keep(Conditions.MONITORING)
                .set(Conditions.PROGRESSING, Conditions.FALSE, reason, progressing)
                .set(Conditions.DEGRADED, Conditions.TRUE, reason, String.join("; ", problems))
                .set(Conditions.PAUSED, Conditions.FALSE, "Reconciling", "")
                .build());
        return s;
    }

    /**
     * The status as it was, with the operation about to be taken recorded (DESIGN §8: intent before action). Written
     * before a leave, shrink, claim deletion or replacement, so that an operator stopped, or a status write failing,
     * right after the action leaves the next pass the step to continue from.
     */
    public GodClusterStatus intent(io.god.operator.model.Operation operation) {
        GodClusterStatus s = base(previous.getPhase());
        s.setObservedGeneration(previous.getObservedGeneration());
        s.setConditions(previous.getConditions());
        s.setOperation(operation);
        return s;
    }

    public GodClusterStatus failed(Exception error) {
        GodClusterStatus s = base(previous.getPhase());
        s.setConditions(conditions().keep(Conditions.READY).keep(Conditions.PROGRESSING).keep(Conditions.REPLICATED)
                .keep(Conditions.PAUSED).keep(Conditions.FULL_REDUNDANCY).keep(Conditions.MONITORING)
                .set(Conditions.DEGRADED, Conditions.TRUE, "ReconcileError",
                        error.getClass().getSimpleName() + ": " + error.getMessage())
                .build());
        return s;
    }

    public GodClusterStatus observed(Settings settings, Observation obs, Plan plan) {
        return observed(settings, obs, plan, null);
    }

    /** @param monitoring this pass's ServiceMonitor verdict; no Monitoring condition when null or disabled */
    public GodClusterStatus observed(Settings settings, Observation obs, Plan plan, ServiceMonitors.Verdict monitoring) {
        Progress progress = plan.progress();
        int desired = settings.replicas();
        List<PodView> live = obs.pods().stream().filter(p -> !p.terminating()).toList();
        int ready = (int) live.stream().filter(PodView::ready).count();
        List<Member> members = members(desired, obs);
        String ringHash = commonRingHash(obs, ready);
        boolean allActive = members.stream().filter(m -> m.getOrdinal() < desired)
                .allMatch(m -> NodeStatus.ACTIVE.equals(m.getState()));
        boolean isReady = desired > 0 && ready == desired && live.size() == desired && allActive && ringHash != null;

        GodClusterStatus s = base(phase(progress, isReady));
        if (s.getRedundancy() == null) {
            s.setRedundancy(settings.redundancy()); // the first pass that acted on the spec fixes N
        }
        s.setReplicas(live.size());
        s.setReadyReplicas(ready);
        s.setMembers(members);
        s.setRingHash(ringHash);
        s.setOperation(plan.operation());
        s.setKeptClaims(keptClaims(obs));
        if (plan.operation() != null && Operation.REPLACE.equals(plan.operation().getType())) {
            s.setLastReplacement(new Replacement(plan.operation().getOrdinal(), plan.operation().getReplacedPodUid(),
                    plan.operation().getStartedAt()));
        }
        s.setWaiting(plan.waiting());
        String stalled = Deadline.stalled(plan, GoDuration.parse(settings.operationTimeout()),
                cluster.getMetadata().getName());
        Conditions c = conditions();
        readyCondition(c, desired, ready, isReady, allActive, ringHash);
        progressingCondition(c, plan, stalled);
        replicatedCondition(c, obs, desired);
        degradedCondition(c, progress, desired, ready, obs, stalled);
        redundancyCondition(c, desired, settings.redundancy());
        if (monitoring != null && monitoring.status() != null) {
            c.set(Conditions.MONITORING, monitoring.status(), monitoring.reason(), monitoring.message());
        }
        c.set(Conditions.PAUSED, Conditions.FALSE, "Reconciling", "");
        s.setConditions(c.build());
        return s;
    }

    /**
     * The PVCs of removed members: ordinals at or above the StatefulSet's replicas. A hibernated ring (StatefulSet
     * at 0) removed no member: its members' claims are not kept ones, and the list stays what it was (those of its
     * claims that still exist).
     */
    private List<String> keptClaims(Observation obs) {
        List<String> before = Optional.ofNullable(previous.getKeptClaims()).orElse(List.of());
        List<String> kept = obs.claims().stream().filter(cl -> !cl.terminating())
                .filter(cl -> obs.statefulSetReplicas() > 0 ? cl.ordinal() >= obs.statefulSetReplicas()
                        : before.contains(cl.name()))
                .map(Observation.ClaimView::name).toList();
        return kept.isEmpty() ? null : kept;
    }

    private Conditions conditions() {
        return new Conditions(previous.getConditions(), now.toString(), cluster.getMetadata().getGeneration());
    }

    private static String phase(Progress progress, boolean ready) {
        return progress == Progress.STEADY && !ready ? PHASE_DEGRADED : progress.phase();
    }

    /**
     * One entry per ordinal up to spec.replicas, and any pod or PVC above it; a hibernating ring keeps its entries.
     * lastAliveAt and quarantinedAt are the node's own facts: what it reports now, else what it last reported.
     */
    private List<Member> members(int desired, Observation obs) {
        List<Member> old = Optional.ofNullable(previous.getMembers()).orElse(List.of());
        int count = Math.max(desired, Math.max(obs.highestOrdinal(), obs.highestClaimOrdinal()) + 1);
        if (desired == 0) {
            count = Math.max(count, old.size());
        }
        Map<Integer, Silence.Entry> silence = Silence.update(old, obs, now, heard);
        List<Member> members = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int ordinal = i;
            Member m = new Member(ordinal, Labels.pod(cluster, ordinal));
            Optional<Member> before = old.stream().filter(o -> Objects.equals(o.getOrdinal(), ordinal)).findFirst();
            Optional<PodView> pod = obs.pod(ordinal);
            NodeStatus status = pod.map(p -> obs.statuses().get(p.name())).orElse(null);
            m.setReady(pod.map(PodView::ready).orElse(false));
            m.setPodUid(pod.map(PodView::uid).orElse(null));
            m.setState(state(pod, status, obs));
            m.setPosition(status != null ? status.position() : before.map(Member::getPosition).orElse(null));
            m.setLastAliveAt(status != null ? status.lastAliveAt() : before.map(Member::getLastAliveAt).orElse(null));
            m.setQuarantinedAt(status != null ? status.quarantinedAt()
                    : before.map(Member::getQuarantinedAt).orElse(null));
            Silence.Entry quiet = silence.get(ordinal);
            if (quiet != null && quiet.missedPolls() > 0) {
                m.setMissedPolls(quiet.missedPolls());
                m.setUnansweredSince(quiet.since());
            }
            members.add(m);
        }
        return members;
    }

    private static String state(Optional<PodView> pod, NodeStatus status, Observation obs) {
        if (pod.isEmpty()) {
            return "Absent";
        }
        if (status != null) {
            return status.state();
        }
        if (obs.unreachable().containsKey(pod.get().name())) {
            return "Unreachable";
        }
        return pod.get().terminating() ? "Terminating" : "Pending";
    }

    /** The ring hash when every Ready member answered and all agree (a draining member may answer while unready). */
    private static String commonRingHash(Observation obs, int ready) {
        List<NodeStatus> answers = obs.pods().stream().filter(PodView::ready).map(p -> obs.statuses().get(p.name()))
                .filter(Objects::nonNull).toList();
        Set<String> hashes = answers.stream().map(NodeStatus::ringHash).filter(Objects::nonNull)
                .collect(Collectors.toSet());
        boolean allAnswered = ready > 0 && answers.size() == ready
                && answers.stream().allMatch(st -> st.ringHash() != null);
        return allAnswered && hashes.size() == 1 ? hashes.iterator().next() : null;
    }

    private static void readyCondition(Conditions c, int desired, int ready, boolean isReady, boolean allActive,
            String ringHash) {
        if (desired == 0) {
            c.set(Conditions.READY, Conditions.FALSE, "Hibernated", "spec.replicas is 0");
        } else if (isReady) {
            c.set(Conditions.READY, Conditions.TRUE, "AllMembersReady", ready + "/" + desired + " members ready");
        } else if (ready < desired) {
            c.set(Conditions.READY, Conditions.FALSE, "MembersNotReady", ready + "/" + desired + " members ready");
        } else if (!allActive) {
            c.set(Conditions.READY, Conditions.FALSE, "MembersNotActive", "not every member reports state ACTIVE");
        } else {
            c.set(Conditions.READY, Conditions.FALSE, "RingNotConverged",
                    ringHash == null ? "members report different ring hashes" : "");
        }
    }

    private static void progressingCondition(Conditions c, Plan plan, String stalled) {
        Progress progress = plan.progress();
        if (stalled != null) {
            c.set(Conditions.PROGRESSING, Conditions.FALSE, Deadline.REASON, stalled);
        } else if (progress == Progress.SCALE_DOWN_REFUSED) {
            c.set(Conditions.PROGRESSING, Conditions.FALSE, progress.reason(), plan.message());
        } else if (progress.reason() != null) {
            c.set(Conditions.PROGRESSING, Conditions.TRUE, progress.reason(), plan.message());
        } else {
            c.set(Conditions.PROGRESSING, Conditions.FALSE, "Idle", "");
        }
    }

    private static void replicatedCondition(Conditions c, Observation obs, int desired) {
        if (obs.statuses().isEmpty()) {
            c.set(Conditions.REPLICATED, Conditions.UNKNOWN, "NoMemberStatus", "no member answered /admin/status");
            return;
        }
        List<String> behind = obs.statuses().entrySet().stream().filter(e -> !e.getValue().replicated())
                .map(java.util.Map.Entry::getKey).sorted().toList();
        if (!behind.isEmpty()) {
            c.set(Conditions.REPLICATED, Conditions.FALSE, "NotReplicated", "not replicated yet: " + behind);
        } else if (obs.statuses().size() < desired) {
            c.set(Conditions.REPLICATED, Conditions.UNKNOWN, "MembersMissing",
                    obs.statuses().size() + "/" + desired + " members answered");
        } else {
            c.set(Conditions.REPLICATED, Conditions.TRUE, "Replicated", "every member reports replicated");
        }
    }

    /** Fewer members than copies asked for is allowed (a small test ring, a one-node setup) but never silent. */
    private static void redundancyCondition(Conditions c, int desired, int redundancy) {
        if (desired == 0) {
            c.set(Conditions.FULL_REDUNDANCY, Conditions.UNKNOWN, "Hibernated", "spec.replicas is 0");
        } else if (desired < redundancy) {
            c.set(Conditions.FULL_REDUNDANCY, Conditions.FALSE, "ReplicasBelowRedundancy", "spec.replicas " + desired
                    + " is below spec.redundancy " + redundancy + ": every entry has only " + desired
                    + (desired == 1 ? " copy" : " copies"));
        } else {
            c.set(Conditions.FULL_REDUNDANCY, Conditions.TRUE, "AsConfigured",
                    "every entry is kept on " + redundancy + " members");
        }
    }

    private static void degradedCondition(Conditions c, Progress progress, int desired, int ready,
            Observation obs, String stalled) {
        if (stalled != null) {
            c.set(Conditions.DEGRADED, Conditions.TRUE, Deadline.REASON, stalled);
        } else if (!obs.unreachable().isEmpty()) {
            c.set(Conditions.DEGRADED, Conditions.TRUE, "MembersUnreachable",
                    "no /admin/status from " + obs.unreachable().keySet());
        } else if (progress == Progress.STEADY && ready < desired) {
            c.set(Conditions.DEGRADED, Conditions.TRUE, "MembersNotReady", ready + "/" + desired + " members ready");
        } else {
            c.set(Conditions.DEGRADED, Conditions.FALSE, "AsExpected", "");
        }
    }
}

package io.god.operator.reconcile;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.god.operator.admin.LeaveAnswer;
import io.god.operator.admin.NodeAdmin;
import io.god.operator.model.GodCluster;
import io.god.operator.reconcile.Action.CancelLeave;
import io.god.operator.reconcile.Action.DeleteClaim;
import io.god.operator.reconcile.Action.DeletePod;
import io.god.operator.reconcile.Action.Leave;
import io.god.operator.reconcile.Action.SetReplicas;
import io.god.operator.resources.Labels;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.god.operator.admin.RemoveAnswer;
import io.god.operator.model.Operation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * Takes a plan's one action and records its event. Kubernetes failures propagate (JOSDK retries with back-off, the
 * status keeps the operation); a node that does not answer or refuses a leave turns the plan into a wait, so the next
 * reconcile simply plans again. Refusals are recorded as events only when they are news.
 */
final class ActionRunner {

    private final KubernetesClient client;
    private final NodeAdmin admin;
    private final Duration timeout;
    private final EventRecorder events;

    ActionRunner(KubernetesClient client, NodeAdmin admin, Duration timeout, EventRecorder events) {
        this.client = client;
        this.admin = admin;
        this.timeout = timeout;
        this.events = events;
    }

    /** @return the plan as it turned out (a refused leave is a wait with the node's reason) */
    Plan run(GodCluster cluster, Plan plan) {
        String ns = cluster.getMetadata().getNamespace();
        Action action = plan.action();
        Plan result = plan;
        if (action instanceof SetReplicas set) {
            client.apps().statefulSets().inNamespace(ns).withName(Labels.statefulSet(cluster)).edit(sts -> {
                sts.getSpec().setReplicas(set.replicas());
                return sts;
            });
        } else if (action instanceof DeletePod pod) {
            if (pod.force()) {
                client.pods().inNamespace(ns).withName(pod.pod()).withGracePeriod(0).delete();
            } else {
                client.pods().inNamespace(ns).withName(pod.pod()).delete();
            }
        } else if (action instanceof Action.AcceptReplace) {
            clearRequest(cluster);
        } else if (action instanceof Action.RemoveMember remove) {
            result = removeMember(cluster, plan, remove);
        } else if (action instanceof DeleteClaim claim) {
            client.persistentVolumeClaims().inNamespace(ns).withName(claim.claim()).delete();
        } else if (action instanceof Leave leave) {
            result = node(plan, admin::leave, leave.host(), "leave");
        } else if (action instanceof CancelLeave cancel) {
            result = node(plan, admin::cancelLeave, cancel.host(), "cancel its leave");
        }
        if (result.event() != null && !(EventRecorder.WARNING.equals(result.event().type()) && repeated(cluster, result))) {
            events.record(cluster, result.event().type(), result.event().reason(), result.event().message());
        }
        return result;
    }

    private Plan node(Plan plan, java.util.function.Function<String, CompletionStage<LeaveAnswer>> call, String host,
            String what) {
        if (host == null) {
            return waiting(plan, plan.message() + ": the pod has no IP yet");
        }
        LeaveAnswer answer;
        try {
            answer = call.apply(host).toCompletableFuture().orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS).join();
        } catch (RuntimeException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            // the node may or may not have got the call: the operation stays, and the next pass looks and asks again
            return waiting(plan, plan.message() + ": no answer (" + cause.getClass().getSimpleName() + ")");
        }
        if (!answer.refused()) {
            return plan;
        }
        String message = plan.message() + ": the node refused to " + what + ": " + answer.refusal();
        boolean cancelling = plan.action() instanceof CancelLeave;
        // a refused leave means the drain has not started; a refused cancel (already LEFT) continues the removal
        return Plan.of(Action.NONE, cancelling ? plan.operation() : null, plan.progress(), message,
                new Plan.Event(EventRecorder.WARNING, cancelling ? "CancelLeaveRefused" : "LeaveRefused", message));
    }

    /** The plan turned into a wait on its operation; an alert it carries (a deadline just passed) is still recorded. */
    private static Plan waiting(Plan plan, String message) {
        return Plan.waiting(plan.operation(), plan.progress(), message).withAlert(plan.operation(), plan.alert());
    }

    /**
     * Tells every live member that the dead one is removed. A node without the call (404) is tolerated: the member
     * then leaves the ring by the nodes' failure detection alone, and the message says so. A refusal stops the removal
     * (nothing else changed); no answer keeps the step {@code Removing}, so the next pass tells the ring again. Only
     * when every live member answered does the operation move on to {@code Shrinking}.
     */
    private Plan removeMember(GodCluster cluster, Plan plan, Action.RemoveMember remove) {
        String address = Labels.podAddress(cluster, Labels.pod(cluster, remove.ordinal()));
        List<String> unsupported = new ArrayList<>();
        for (String host : remove.hosts()) {
            RemoveAnswer answer;
            try {
                answer = admin.removeMember(host, address, remove.position()).toCompletableFuture()
                        .orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS).join();
            } catch (RuntimeException e) {
                Throwable cause = e.getCause() == null ? e : e.getCause();
                Operation removing = plan.operation().atStep(Operation.STEP_REMOVING);
                return Plan.waiting(removing, plan.progress(), plan.message() + ": " + host
                        + " did not answer /admin/remove-member (" + cause.getClass().getSimpleName() + ")")
                        .withAlert(removing, plan.alert());
            }
            if (answer.outcome() == RemoveAnswer.Outcome.REFUSED) {
                String message = "the ring refused to remove " + Labels.pod(cluster, remove.ordinal()) + ": "
                        + answer.detail();
                return Plan.of(Action.NONE, null, plan.progress(), message,
                        new Plan.Event(EventRecorder.WARNING, "RemoveRefused", message));
            }
            if (answer.outcome() == RemoveAnswer.Outcome.UNSUPPORTED) {
                unsupported.add(host);
            }
        }
        String note = unsupported.isEmpty() ? "" : " (the nodes have no /admin/remove-member yet; the ring drops the"
                + " member by failure detection)";
        return plan.withAlert(plan.operation().atStep(Operation.STEP_SHRINKING), plan.alert()).noting(note);
    }

    /**
     * Removes the replace request annotations that the GodCluster read in this pass carries (a JSON patch: a merge
     * patch's nulls are not honoured everywhere). If one is already gone, the API server refuses the patch and the
     * pass fails before anything was deleted; the next pass no longer sees the request.
     */
    private void clearRequest(GodCluster cluster) {
        var annotations = cluster.getMetadata().getAnnotations();
        List<String> ops = new ArrayList<>();
        for (String key : List.of(Planner.REPLACE_ANNOTATION, Planner.CONFIRM_DATA_LOSS_ANNOTATION)) {
            if (annotations != null && annotations.containsKey(key)) {
                ops.add("{\"op\":\"remove\",\"path\":\"/metadata/annotations/" + key.replace("~", "~0")
                        .replace("/", "~1") + "\"}");
            }
        }
        if (!ops.isEmpty()) {
            client.resources(GodCluster.class).inNamespace(cluster.getMetadata().getNamespace())
                    .withName(cluster.getMetadata().getName())
                    .patch(PatchContext.of(PatchType.JSON), "[" + String.join(",", ops) + "]");
        }
    }

    /** The last pass already reported this (a refusal repeated every pass is one event, not one per pass). */
    private static boolean repeated(GodCluster cluster, Plan plan) {
        return cluster.getStatus() != null && Objects.equals(cluster.getStatus().getPhase(), plan.progress().phase())
                && Conditions.find(cluster.getStatus().getConditions(), Conditions.PROGRESSING)
                        .map(c -> Objects.equals(c.getMessage(), plan.message())
                                // past the deadline the condition quotes the plan's message inside its own
                                || (Deadline.REASON.equals(c.getReason()) && c.getMessage() != null
                                        && c.getMessage().contains(plan.message())))
                        .orElse(false);
    }
}

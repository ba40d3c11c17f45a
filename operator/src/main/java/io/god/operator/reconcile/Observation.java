package io.god.operator.reconcile;

import io.god.operator.admin.NodeStatus;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What one reconcile saw: the StatefulSet's replica count and template hash, the member pods and claims, and what each
 * Ready pod reported on /admin/status.
 */
public record Observation(int statefulSetReplicas, String templateHash, List<PodView> pods, List<ClaimView> claims,
        Map<String, NodeStatus> statuses, Map<String, String> unreachable) {

    public Observation(int statefulSetReplicas, List<PodView> pods, Map<String, NodeStatus> statuses,
            Map<String, String> unreachable) {
        this(statefulSetReplicas, null, pods, List.of(), statuses, unreachable);
    }

    /** A member pod, reduced to what the operator decides on; {@code specHash} is the template it was made from. */
    public record PodView(String name, int ordinal, boolean ready, String ip, boolean terminating, String specHash,
            String uid) {

        public PodView(String name, int ordinal, boolean ready, String ip, boolean terminating, String specHash) {
            this(name, ordinal, ready, ip, terminating, specHash, null);
        }

        public PodView(String name, int ordinal, boolean ready, String ip, boolean terminating) {
            this(name, ordinal, ready, ip, terminating, null, null);
        }
    }

    /** A member's PVC: its requested (or provisioned) size, and whether it is being deleted. */
    public record ClaimView(String name, int ordinal, long capacityBytes, boolean terminating) {
    }

    /**
     * What this observation heard from the pod {@code p} (same name, uid and IP) — its answer, or its failure — or null
     * when it did not ask that pod.
     */
    java.util.concurrent.CompletableFuture<NodeStatus> answerOf(PodView p) {
        Optional<PodView> same = pods.stream().filter(q -> q.name().equals(p.name())
                && java.util.Objects.equals(q.uid(), p.uid()) && java.util.Objects.equals(q.ip(), p.ip())).findFirst();
        if (same.isEmpty()) {
            return null;
        }
        NodeStatus answer = statuses.get(p.name());
        if (answer != null) {
            return java.util.concurrent.CompletableFuture.completedFuture(answer);
        }
        String failure = unreachable.get(p.name());
        return failure == null ? null
                : java.util.concurrent.CompletableFuture.failedFuture(new java.io.IOException(failure));
    }

    public long readyCount() {
        return pods.stream().filter(PodView::ready).count();
    }

    public Optional<PodView> pod(int ordinal) {
        return pods.stream().filter(p -> p.ordinal() == ordinal).findFirst();
    }

    public Optional<ClaimView> claim(int ordinal) {
        return claims.stream().filter(c -> c.ordinal() == ordinal).findFirst();
    }

    /** What the pod at this ordinal reported, if it is Ready and answered. */
    public Optional<NodeStatus> status(int ordinal) {
        return pod(ordinal).map(p -> statuses.get(p.name()));
    }

    public int highestOrdinal() {
        return pods.stream().mapToInt(PodView::ordinal).max().orElse(-1);
    }

    public int highestClaimOrdinal() {
        return claims.stream().mapToInt(ClaimView::ordinal).max().orElse(-1);
    }
}

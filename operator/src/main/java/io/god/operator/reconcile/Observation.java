package io.god.operator.reconcile;

import io.god.operator.admin.NodeStatus;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** What one reconcile saw: the StatefulSet's replica count, the member pods and what each Ready pod reported. */
public record Observation(int statefulSetReplicas, List<PodView> pods, Map<String, NodeStatus> statuses,
        Map<String, String> unreachable) {

    /** A member pod, reduced to what the operator decides on. */
    public record PodView(String name, int ordinal, boolean ready, String ip, boolean terminating) {
    }

    public long readyCount() {
        return pods.stream().filter(PodView::ready).count();
    }

    public Optional<PodView> pod(int ordinal) {
        return pods.stream().filter(p -> p.ordinal() == ordinal).findFirst();
    }

    public int highestOrdinal() {
        return pods.stream().mapToInt(PodView::ordinal).max().orElse(-1);
    }
}

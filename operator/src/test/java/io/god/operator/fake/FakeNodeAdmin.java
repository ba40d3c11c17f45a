package io.god.operator.fake;

import io.god.operator.admin.NodeAdmin;
import io.god.operator.admin.NodeStatus;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Replaces the HTTP NodeAdmin in tests. By default every pod the fake StatefulSet controller made answers as an ACTIVE,
 * replicated member whose ring hash is the same for the whole namespace; tests override single pods.
 */
@ApplicationScoped
public class FakeNodeAdmin implements NodeAdmin {

    /** "namespace/pod" → the answer, or null to make the pod unreachable. */
    private final Map<String, NodeStatus> overrides = new ConcurrentHashMap<>();
    private final Map<String, Boolean> unreachable = new ConcurrentHashMap<>();

    @Override
    public CompletionStage<NodeStatus> status(String host) {
        String pod = FakeStatefulSetController.podAt(host).orElse(null);
        if (pod == null || unreachable.containsKey(pod)) {
            return CompletableFuture.failedFuture(new IOException("connection refused: " + host));
        }
        return CompletableFuture.completedFuture(overrides.getOrDefault(pod, active(pod)));
    }

    public static NodeStatus active(String namespacedPod) {
        String ns = namespacedPod.substring(0, namespacedPod.indexOf('/'));
        return status(NodeStatus.ACTIVE, "ring-" + ns, true, namespacedPod);
    }

    public static NodeStatus status(String state, String ringHash, boolean replicated, String namespacedPod) {
        String position = Integer.toHexString(namespacedPod.hashCode());
        return new NodeStatus(state, position, ringHash, 3, replicated, 10, 30, 4096, null, null, null, null);
    }

    public void answer(String namespace, String pod, NodeStatus status) {
        overrides.put(namespace + "/" + pod, status);
    }

    public void unreachable(String namespace, String pod) {
        unreachable.put(namespace + "/" + pod, true);
    }

    public void reset(String namespace, String pod) {
        overrides.remove(namespace + "/" + pod);
        unreachable.remove(namespace + "/" + pod);
    }
}

package io.god.operator.admin;

import java.util.concurrent.CompletionStage;

/**
 * The node's management API (port 9000, DESIGN §6) as the operator uses it. Implementations must bound every call
 * with a short timeout and complete exceptionally instead of hanging: the reconcile loop waits for the answers.
 */
public interface NodeAdmin {

    /** GET /admin/status of the node at {@code host} (a pod IP). */
    CompletionStage<NodeStatus> status(String host);
}

package io.god.operator.admin;

import java.util.concurrent.CompletionStage;

/**
 * The node's management API (port 9000, DESIGN §6) as the operator uses it. Implementations must bound every call
 * with a short timeout and complete exceptionally instead of hanging: the reconcile loop waits for the answers.
 * {@code host} is a pod IP (or, in tests with real nodes, a 127.0.0.x address).
 */
public interface NodeAdmin {

    /**
     * This NodeAdmin with every call carrying {@code Authorization: Bearer <token>} (null: no header): one cluster's
     * admin credential, read from its admin Secret at each reconcile pass.
     */
    NodeAdmin withToken(String token);

    /** GET /admin/status. */
    CompletionStage<NodeStatus> status(String host);

    /**
     * POST /admin/leave: hand every range to the successors, then stop serving (202 while LEAVING, 200 once LEFT,
     * 409 when the node cannot leave now). Idempotent: asking a LEAVING node again only reports its progress.
     */
    CompletionStage<LeaveAnswer> leave(String host);

    /** DELETE /admin/leave: a LEAVING node becomes ACTIVE again (200); 409 once it is LEFT. */
    CompletionStage<LeaveAnswer> cancelLeave(String host);

    /**
     * POST /admin/remove-member on a live member: the dead member at {@code address} (position {@code position}, when
     * known) is removed from the ring's expected membership (DESIGN §5), so replica sets and tombstone collection no
     * longer wait for it. A node without the call answers 404, which is {@link RemoveAnswer.Outcome#UNSUPPORTED}, not a
     * failure. This default is for NodeAdmins that do not implement it.
     */
    default CompletionStage<RemoveAnswer> removeMember(String host, String address, String position) {
        return java.util.concurrent.CompletableFuture.completedFuture(
                RemoveAnswer.unsupported("this NodeAdmin has no remove-member call"));
    }
}

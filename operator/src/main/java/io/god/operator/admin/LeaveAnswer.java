package io.god.operator.admin;

/**
 * The node's answer to {@code POST} or {@code DELETE /admin/leave}: its status afterwards (202/200), or a refusal
 * (409) with the node's reason, e.g. "not replicated" or "already LEFT".
 */
public record LeaveAnswer(NodeStatus status, String refusal) {

    public static LeaveAnswer accepted(NodeStatus status) {
        return new LeaveAnswer(status, null);
    }

    public static LeaveAnswer refused(String reason) {
        return new LeaveAnswer(null, reason);
    }

    public boolean refused() {
        return refusal != null;
    }
}

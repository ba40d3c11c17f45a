package io.god.operator.admin;

/**
 * The node's answer to {@code POST /admin/remove-member}: the member was removed from its ring's expected membership
 * (or was not in it), the node refused (409, with its reason), or the node does not know the call yet (404: a node
 * version without it; the member then leaves the ring by the nodes' failure detection alone).
 */
public record RemoveAnswer(Outcome outcome, String detail) {

    public enum Outcome { REMOVED, REFUSED, UNSUPPORTED }

    public static RemoveAnswer removed() {
        return new RemoveAnswer(Outcome.REMOVED, null);
    }

    public static RemoveAnswer refused(String reason) {
        return new RemoveAnswer(Outcome.REFUSED, reason);
    }

    public static RemoveAnswer unsupported(String detail) {
        return new RemoveAnswer(Outcome.UNSUPPORTED, detail);
    }
}

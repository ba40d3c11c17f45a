package io.god.operator.reconcile;

/** The one change a reconcile makes (DESIGN §8: one action per pass, then reschedule and look again). */
public sealed interface Action {

    /** Nothing to change now: wait (or, when settled, just report). */
    record None() implements Action {
        @Override
        public String toString() {
            return "none";
        }
    }

    record SetReplicas(int replicas) implements Action {
        @Override
        public String toString() {
            return "replicas=" + replicas;
        }
    }

    /** POST /admin/leave on the member. */
    record Leave(int ordinal, String host) implements Action {
        @Override
        public String toString() {
            return "leave " + ordinal;
        }
    }

    /** DELETE /admin/leave on the member. */
    record CancelLeave(int ordinal, String host) implements Action {
        @Override
        public String toString() {
            return "cancel-leave " + ordinal;
        }
    }

    /** Deletes a member pod; {@code force}: grace period 0, only on an explicit request for a pod stuck Terminating. */
    record DeletePod(int ordinal, String pod, boolean force) implements Action {

        public DeletePod(int ordinal, String pod) {
            this(ordinal, pod, false);
        }

        @Override
        public String toString() {
            return (force ? "force-delete-pod " : "delete-pod ") + ordinal;
        }
    }

    /** POST /admin/remove-member on each live member ({@code hosts}): the dead member at the ordinal is removed. */
    record RemoveMember(int ordinal, String position, java.util.List<String> hosts) implements Action {
        @Override
        public String toString() {
            return "remove-member " + ordinal;
        }
    }

    /** Clears the replace request annotations on the GodCluster: the request is used exactly once. */
    record AcceptReplace(int ordinal) implements Action {
        @Override
        public String toString() {
            return "accept-replace " + ordinal;
        }
    }

    record DeleteClaim(int ordinal, String claim) implements Action {
        @Override
        public String toString() {
            return "delete-claim " + ordinal;
        }
    }

    Action NONE = new None();
}

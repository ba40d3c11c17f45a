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

    record DeletePod(int ordinal, String pod) implements Action {
        @Override
        public String toString() {
            return "delete-pod " + ordinal;
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

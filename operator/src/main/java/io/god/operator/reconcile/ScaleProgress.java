package io.god.operator.reconcile;

/** Where the replica count stands after the scale step. */
public enum ScaleProgress {
    /** StatefulSet at spec.replicas and no scale operation open. */
    STEADY,
    /** StatefulSet raised; waiting until every new member is Ready. */
    SCALING_UP,
    /** spec.replicas is 0 and member pods still exist. */
    HIBERNATING,
    /** spec.replicas is 0 and no member pod exists; PVCs are kept. */
    HIBERNATED,
    /** spec.replicas is below the StatefulSet's and above 0: needs a drain (operator part 2), so nothing shrinks. */
    SCALE_DOWN_PENDING
}

package io.god.operator.reconcile;

/** Where the ring stands after planning: the phase and the Progressing condition's reason follow from it. */
public enum Progress {
    /** Nothing to do: StatefulSet at spec.replicas, every member from the current template, no operation open. */
    STEADY("Running", null),
    /** StatefulSet raised (or about to be); waiting until every new member is Ready. */
    SCALING_UP("ScalingUp", "ScalingUp"),
    /** Draining the highest ordinal, shrinking the StatefulSet, deleting its PVC; or waiting to start that. */
    SCALING_DOWN("ScalingDown", "ScalingDown"),
    /** spec.replicas is lower, but the remaining members' volumes cannot hold the data: nothing is removed. */
    SCALE_DOWN_REFUSED("ScaleDownRefused", "ScaleDownRefused"),
    /** Restarting outdated members one at a time, or waiting for the ring to allow the next. */
    ROLLING_RESTART("RollingRestart", "RollingRestart"),
    /** A member replaced on request: its pod and PVC deleted, it rejoins empty; or a request waiting to start. */
    REPLACING("Replacing", "Replacing"),
    /** spec.replicas is 0 and member pods still exist. */
    HIBERNATING("Hibernating", "ScalingDown"),
    /** spec.replicas is 0 and no member pod exists; PVCs are kept. */
    HIBERNATED("Hibernated", null);

    private final String phase;
    private final String reason;

    Progress(String phase, String reason) {
        this.phase = phase;
        this.reason = reason;
    }

    public String phase() {
        return phase;
    }

    /** The Progressing condition's reason, or null when nothing is in progress. */
    public String reason() {
        return reason;
    }
}

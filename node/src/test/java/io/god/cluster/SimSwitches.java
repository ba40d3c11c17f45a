package io.god.cluster;

/**
 * The simulation's access to the test-only switches that re-introduce bugs of the reference (§10),
 * so its tests can show the invariant checkers catch them. Never used outside tests.
 */
public final class SimSwitches {

    private SimSwitches() {
    }

    /** §10.11: replicas apply writes in arrival order, ignoring timestamps. */
    public static void unorderedReplicaWrites(boolean on) {
        Cluster.unorderedReplicaWrites = on;
    }

    /** §10.2: sync treats an empty sub tree with newer data as a clear of the peer's copy. */
    public static void emptySubTreeClears(boolean on) {
        EmptySubTreeRule.enabled = on;
    }
}

package io.god.sim;

/**
 * Test-only switches that re-introduce bugs of the reference (§10), so tests can show that the
 * simulation's invariant checkers catch them. Each is a static hook in the production package.
 */
enum BugSwitch {
    /** §10.11: replica writes ignore timestamps (arrival order wins). */
    UNORDERED_REPLICA_WRITES,
    /** §4.2/§10.4: Difference drops the later sources after a rejection. */
    DIFFERENCE_DROPS_SOURCES,
    /** §10.2: sync's empty-sub-tree clear rule. */
    EMPTY_SUB_TREE_CLEARS;

    void set(boolean on) {
        switch (this) {
            case UNORDERED_REPLICA_WRITES -> io.god.cluster.SimSwitches.unorderedReplicaWrites(on);
            case DIFFERENCE_DROPS_SOURCES -> io.god.setop.SetOpSwitches.differenceDropsSources(on);
            case EMPTY_SUB_TREE_CLEARS -> io.god.cluster.SimSwitches.emptySubTreeClears(on);
        }
    }
}

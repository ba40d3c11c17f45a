package io.god.sim;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The large-ring scenario ({@link BigRing}: join storm, 10 % crash/restart, partitions, jitter) at CI
 * size. {@link Simulation#run} already checks that the ring converged to one cycle over exactly the
 * live members (and every data invariant); this test adds that membership costs each node a bounded
 * number of messages per ring interval, independent of the ring size — all-to-all pinging (the old
 * O(n²)) would cost an 80-node ring 2 · 79 messages per node per interval.
 */
class BigRingTest {

    private static Simulation.Result run(int nodes) {
        return new Simulation(BigRing.config(3, nodes, 8_000)).run();
    }

    @Test
    void aLargeRingConvergesAndEachNodeSendsABoundedNumberOfMembershipMessages() {
        Simulation.Result small = run(20);
        Simulation.Result large = run(80);
        // 2·3 neighbours + 2 random members, each a request and a reply, once the ring has converged
        assertThat(small.steadyRing()).isBetween(10.0, 20.0);
        assertThat(large.steadyRing()).as("per node and interval, 80 nodes").isBetween(10.0, 20.0)
                .isLessThan(small.steadyRing() * 1.25);
        // the whole run, join storm and faults included
        double perNodeTick = (double) large.messages() / 80 / (large.simulatedNanos() / (double) Simulation.RING_INTERVAL);
        assertThat(perNodeTick).as("all messages per node and interval over the whole run").isLessThan(40);
        assertThat(large.convergedNanos()).as("converged after the last fault healed")
                .isLessThan(100 * Simulation.RING_INTERVAL);
    }
}

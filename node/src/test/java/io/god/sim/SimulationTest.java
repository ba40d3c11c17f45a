package io.god.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.god.sim.Simulation.Fault;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Fixed seeds of the deterministic simulation ({@link Simulation}): whole rings of real nodes under
 * each kind of fault, the determinism of a seed, the regression seeds of bugs it found, and the
 * test-only switches that re-introduce reference bugs, each caught by a seed. A failure prints its
 * seed, faults and the trace's last lines; a test reruns the same seed identically (campaign seeds
 * replay through {@link SimulationCampaignTest}).
 */
class SimulationTest {

    private static Simulation.Result run(long seed, Set<Fault> faults) {
        return new Simulation(Simulation.Config.standard(seed, faults)).run();
    }

    @Test
    void aRingKeepsEveryInvariantUnderEachKindOfFault() {
        run(1, EnumSet.noneOf(Fault.class));
        run(2, EnumSet.of(Fault.JITTER, Fault.DUPLICATE, Fault.SKEW));
        run(3, EnumSet.of(Fault.LOSS, Fault.PARTITION));
        run(4, EnumSet.of(Fault.CRASH, Fault.TORN, Fault.JITTER));
        run(5, EnumSet.of(Fault.WIPE, Fault.KILL, Fault.JOIN));
        run(6, EnumSet.allOf(Fault.class));
    }

    @Test
    void theSameSeedGivesTheSameTrace() {
        var faults = EnumSet.of(Fault.JITTER, Fault.LOSS, Fault.DUPLICATE, Fault.CRASH, Fault.SKEW, Fault.JOIN);
        Simulation.Result a = run(7, faults);
        Simulation.Result b = run(7, faults);
        assertEquals(a.traceHash(), b.traceHash());
        assertEquals(a.messages(), b.messages());
        assertEquals(a.events(), b.events());
        assertTrue(a.messages() > 1000, "the run did talk: " + a);
    }

    /** Seeds restarting while the live members were no seeds never re-formed one ring (Membership fix). */
    @Test
    void regressionSeed1170JoiningNodesJoinThroughProbingMembers() {
        new Simulation(SimulationCampaign.config(1170, EnumSet.of(Fault.LOSS, Fault.CRASH, Fault.WIPE, Fault.KILL,
                Fault.TORN, Fault.SKEW, Fault.JOIN))).run();
    }

    /** A joining node with data asked only the seeds before joining (quarantine check): it never joined. */
    @Test
    void regressionSeed2197TheQuarantineCheckAsksProbingMembersToo() {
        new Simulation(SimulationCampaign.config(2197, EnumSet.of(Fault.LOSS, Fault.PARTITION, Fault.CRASH, Fault.WIPE,
                Fault.KILL, Fault.SKEW, Fault.JOIN))).run();
    }

    private static void caught(BugSwitch bug, long seed, Set<Fault> faults, String violation) {
        run(seed, faults);
        bug.set(true);
        try {
            InvariantViolation v = assertThrows(InvariantViolation.class, () -> run(seed, faults));
            assertTrue(v.getMessage().contains(violation) && v.getMessage().contains("seed " + seed),
                    v.getMessage());
        } finally {
            bug.set(false);
        }
    }

    @Test
    void unorderedReplicaWritesAreCaught() {
        caught(BugSwitch.UNORDERED_REPLICA_WRITES, 4, EnumSet.of(Fault.JITTER, Fault.DUPLICATE), "older write won");
    }

    @Test
    void aDifferenceDroppingSourcesIsCaught() {
        caught(BugSwitch.DIFFERENCE_DROPS_SOURCES, 2, EnumSet.noneOf(Fault.class), "difference of trees");
    }
}

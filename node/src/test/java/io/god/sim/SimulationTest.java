package io.god.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.EnumSet;
import org.junit.jupiter.api.Test;

/** Fixed seeds of the deterministic simulation (see {@link Simulation}); a failure prints seed and trace. */
class SimulationTest {

    @Test
    void aFaultFreeRingKeepsEveryInvariant() {
        Simulation.Result r = new Simulation(Simulation.Config.standard(1, EnumSet.noneOf(Simulation.Fault.class))).run();
        System.out.println(r);
    }

    @Test
    void theSameSeedGivesTheSameTrace() {
        var faults = EnumSet.of(Simulation.Fault.JITTER, Simulation.Fault.CRASH, Simulation.Fault.SKEW);
        Simulation.Result a = new Simulation(Simulation.Config.standard(7, faults)).run();
        Simulation.Result b = new Simulation(Simulation.Config.standard(7, faults)).run();
        assertEquals(a.traceHash(), b.traceHash());
        assertEquals(a.messages(), b.messages());
        assertEquals(a.events(), b.events());
    }
}

package io.god.sim;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.EnumSet;
import org.junit.jupiter.api.Test;

/**
 * Campaign mode, skipped in the default build: runs only when one of its system properties is set.
 * <ul>
 *   <li>{@code -Dgod.sim.campaign=200 [-Dgod.sim.first=1000]}: 200 seeds with random fault mixes
 *       (400 operations, 4 faults of each enabled kind); stops at the first failure.</li>
 *   <li>{@code -Dgod.sim.seed=1170 -Dgod.sim.faults=LOSS,CRASH,...}: replays one campaign seed.</li>
 *   <li>{@code -Dgod.sim.bigring=100}: the large-ring scenario ({@link BigRing}).</li>
 * </ul>
 */
class SimulationCampaignTest {

    @Test
    void campaign() {
        assumeTrue(System.getProperty("god.sim.campaign") != null, "set -Dgod.sim.campaign=<runs>");
        SimulationCampaign.main(new String[] {System.getProperty("god.sim.first", "1000"),
                System.getProperty("god.sim.campaign")});
    }

    @Test
    void replay() {
        assumeTrue(System.getProperty("god.sim.seed") != null, "set -Dgod.sim.seed=<seed>");
        EnumSet<Simulation.Fault> faults = EnumSet.noneOf(Simulation.Fault.class);
        for (String f : System.getProperty("god.sim.faults", "").split(",")) {
            if (!f.isBlank()) {
                faults.add(Simulation.Fault.valueOf(f.trim()));
            }
        }
        System.out.println(new Simulation(SimulationCampaign.config(Long.getLong("god.sim.seed"), faults)).run());
    }

    @Test
    void bigRing() {
        assumeTrue(System.getProperty("god.sim.bigring") != null, "set -Dgod.sim.bigring=<nodes>");
        System.out.println(BigRing.run(Long.getLong("god.sim.bigring.seed", 1), Integer.getInteger("god.sim.bigring")));
    }
}

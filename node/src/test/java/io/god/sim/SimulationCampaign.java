package io.god.sim;

import java.util.EnumSet;
import java.util.Random;

/**
 * Long random searches: {@code SimulationCampaign <firstSeed> <runs>} runs seeds with random fault
 * mixes and stops at the first failure (printing its seed, faults and trace).
 */
public final class SimulationCampaign {

    public static void main(String[] args) {
        long first = Long.parseLong(args[0]);
        int runs = Integer.parseInt(args[1]);
        long t0 = System.nanoTime();
        for (int i = 0; i < runs; i++) {
            long seed = first + i;
            EnumSet<Simulation.Fault> faults = randomFaults(seed);
            Simulation.Result r = new Simulation(config(seed, faults)).run();
            System.out.println(seed + " " + faults + " ok, " + r.messages() + " messages, converged after "
                    + r.quiescedAfterNanos() / 1_000_000 + " ms");
        }
        System.out.println(runs + " runs in " + (System.nanoTime() - t0) / 1_000_000_000 + " s");
    }

    /** A campaign run: more operations and faults than the CI seeds'. */
    static Simulation.Config config(long seed, java.util.Set<Simulation.Fault> faults) {
        return Simulation.Config.standard(seed, faults).withOperations(400, 30_000).withFaultEvents(4);
    }

    static EnumSet<Simulation.Fault> randomFaults(long seed) {
        Random r = new Random(seed * 31 + 7);
        EnumSet<Simulation.Fault> faults = EnumSet.noneOf(Simulation.Fault.class);
        for (Simulation.Fault f : Simulation.Fault.values()) {
            if (r.nextInt(2) == 0) {
                faults.add(f);
            }
        }
        return faults;
    }
}

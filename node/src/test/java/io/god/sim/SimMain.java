package io.god.sim;

import java.util.EnumSet;

/** Replays one seed from the command line: {@code SimMain <seed> [FAULT,...]}. */
public final class SimMain {
    public static void main(String[] args) {
        long seed = Long.parseLong(args[0]);
        EnumSet<Simulation.Fault> faults = EnumSet.noneOf(Simulation.Fault.class);
        if (args.length > 1 && !args[1].isEmpty()) {
            for (String f : args[1].split(",")) {
                faults.add(Simulation.Fault.valueOf(f));
            }
        }
        if (System.getProperty("god.sim.bug") != null) {
            BugSwitch.valueOf(System.getProperty("god.sim.bug")).set(true);
        }
        long t0 = System.nanoTime();
        Simulation.Config c = Simulation.Config.standard(seed, faults);
        if (args.length > 3) {
            c = c.withOperations(Integer.parseInt(args[2]), 30_000).withFaultEvents(Integer.parseInt(args[3]));
        }
        Simulation.Result r = new Simulation(c).run();
        System.out.println(r + " in " + (System.nanoTime() - t0) / 1_000_000 + " ms");
    }
}

package io.god.sim;

import java.util.EnumSet;

/** Runs one seed from the command line (debugging): {@code SimMain <seed> <FAULT,...|-> [BUG_SWITCH]}. */
final class SimMain {
    public static void main(String[] args) {
        EnumSet<Simulation.Fault> faults = EnumSet.noneOf(Simulation.Fault.class);
        for (String f : args[1].split(",")) {
            if (!f.equals("-")) {
                faults.add(Simulation.Fault.valueOf(f));
            }
        }
        if (args.length > 2) {
            BugSwitch.valueOf(args[2]).set(true);
        }
        System.out.println(new Simulation(Simulation.Config.standard(Long.parseLong(args[0]), faults)).run());
    }
}

package io.god.sim;

import java.util.EnumSet;

/**
 * The large-ring scenario of the campaign: {@code nodes} real nodes joining one every 50 ms (a join
 * storm), 10 % of them crashing and restarting and as many partitions (each cutting off up to half
 * the ring for 1–3 s), network jitter, a light workload; reports how long the ring took to converge
 * after the last fault healed (simulated ms and ring rounds) and how many messages the run sent.
 */
final class BigRing {

    private BigRing() {
    }

    /** The scenario for {@code nodes}, its workload phase {@code baseMillis + 50 ms · nodes} long. */
    static Simulation.Config config(long seed, int nodes, long baseMillis) {
        return new Simulation.Config(seed, nodes, 0, 3, 200, baseMillis + nodes * 50L, 6,
                Math.max(1, nodes / 10), EnumSet.of(Simulation.Fault.CRASH, Simulation.Fault.PARTITION,
                Simulation.Fault.JITTER));
    }

    static String run(long seed, int nodes) {
        long t0 = System.nanoTime();
        Simulation sim = new Simulation(config(seed, nodes, 20_000));
        sim.progress(10_000 * Simulation.MS);
        Simulation.Result r = sim.run();
        double nodeTicks = (double) nodes * r.simulatedNanos() / Simulation.RING_INTERVAL;
        return String.format("%d nodes (seed %d): ring converged %d ms = %d rounds (simulated) after the last fault "
                        + "healed; %d messages in %d s simulated (%.1f per node per round, %.1f of them membership); "
                        + "after convergence %.1f per node per round (%.1f membership); %d events, %d s wall",
                nodes, seed, r.convergedNanos() / 1_000_000, r.convergedNanos() / Simulation.RING_INTERVAL,
                r.messages(), r.simulatedNanos() / 1_000_000_000, r.messages() / nodeTicks,
                Simulation.ringMessages(sim.network.messagesByOp()) / nodeTicks, r.steadyAll(), r.steadyRing(),
                r.events(), (System.nanoTime() - t0) / 1_000_000_000);
    }

    public static void main(String[] args) {
        System.out.println(run(Long.parseLong(args[0]), Integer.parseInt(args[1])));
    }
}

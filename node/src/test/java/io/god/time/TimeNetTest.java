package io.god.time;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Reference §9.3 TestSample on simulated time: 4 clocks skewed up to 10 s converge below 1 ms RMS. */
class TimeNetTest {

    /** Simulated time (ns); each node's local clock is it plus a fixed skew. */
    static long now = 1_700_000_000_000_000_000L;

    static double rms(List<TimeNet> nets) {
        double mean = 0;
        long[] t = new long[nets.size()];
        for (int i = 0; i < t.length; i++) {
            t[i] = nets.get(i).actual();
        }
        for (long x : t) {
            mean += (double) (x - t[0]);
        }
        mean /= t.length;
        double sum = 0;
        for (long x : t) {
            double d = (x - t[0]) - mean;
            sum += d * d;
        }
        return Math.sqrt(sum / t.length);
    }

    @Test
    void fourSkewedClocksConvergeBelowOneMillisecondWithinTwentySeconds() {
        Random random = new Random(42);
        List<TimeNet> nets = new ArrayList<>();
        List<Long> lastContinuous = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            long skew = (long) (random.nextDouble() * 10e9);
            nets.add(new TimeNet(() -> now + skew));
            lastContinuous.add(Long.MIN_VALUE);
        }
        double start = rms(nets);
        assertThat(start).isGreaterThan(1e8);
        long end = now + 20_000_000_000L;
        int step = 0;
        while (now < end) {
            // every 25 ms of simulated time one node samples a random other node
            now += 25_000_000L;
            int i = step++ % 4;
            int j = (i + 1 + random.nextInt(3)) % 4;
            long before = nets.get(i).actual();
            now += 10_000 + random.nextInt(1_000_000);
            long peer = nets.get(j).actual();
            now += 10_000 + random.nextInt(1_000_000);
            long after = nets.get(i).actual();
            nets.get(i).sample("n" + j, before, peer, after);
            for (int k = 0; k < 4; k++) {
                long c = nets.get(k).continuous();
                assertThat(c).as("continuous time of " + k + " never goes backwards").isGreaterThanOrEqualTo(lastContinuous.get(k));
                lastContinuous.set(k, c);
            }
        }
        double finalRms = rms(nets);
        System.out.printf("time network: RMS deviation %.0f ns -> %.0f ns in 20 s simulated%n", start, finalRms);
        assertThat(finalRms).as("RMS deviation (ns) after 20 s").isGreaterThan(0).isLessThan(1_000_000);
        assertThat(nets.get(0).error()).isGreaterThanOrEqualTo(0);
    }

    @Test
    void continuousTimeSlewsAndConformJumps() {
        long[] local = {1_000_000_000L};
        TimeNet t = new TimeNet(() -> local[0]);
        t.sample("p", 0, 0, 0);
        assertThat(t.sample("p", 1_000_000_000L, 2_000_000_000L, 1_000_000_000L)).isTrue();
        assertThat(t.actual()).isEqualTo(1_500_000_000L);
        assertThat(t.continuous()).isEqualTo(1_000_000_000L);
        local[0] += 500_000_000L; // a 0.5 s dilation takes 2.5 s; a fifth of it is done
        assertThat(t.continuous()).isEqualTo(1_600_000_000L);
        local[0] += 10_000_000_000L;
        assertThat(t.continuous()).isEqualTo(t.actual()).isEqualTo(11_500_000_000L + 500_000_000L);
        t.conform(0, -1_000_000_000L, 0);
        assertThat(t.actual()).isEqualTo(11_000_000_000L);
        assertThat(t.continuous()).as("never backwards").isEqualTo(12_000_000_000L);
    }
}

package io.god.time;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
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

    /**
     * Issue 23: three honest nodes (clocks up to 2 s apart) and a peer that always answers its clock + 1
     * year. Every honest clock stays within god.time.max-skew (1 min) of its physical clock however
     * often the liar is sampled, continuous time never goes backwards, and the clamps are counted.
     */
    @Test
    void aPeerAYearAheadMovesNoClockBeyondTheSkew() {
        long skewLimit = Duration.ofMinutes(1).toNanos();
        long year = Duration.ofDays(365).toNanos();
        long[] t = {1_800_000_000_000_000_000L};
        Random random = new Random(7);
        List<TimeNet> nets = new ArrayList<>();
        List<SkewBound> bounds = new ArrayList<>();
        long[] offsets = new long[3];
        long[] lastContinuous = {Long.MIN_VALUE, Long.MIN_VALUE, Long.MIN_VALUE};
        for (int i = 0; i < 3; i++) {
            long own = offsets[i] = (long) (random.nextDouble() * 2e9);
            SkewBound bound = new SkewBound(() -> t[0] + own, Duration.ofMinutes(1));
            bounds.add(bound);
            nets.add(new TimeNet(() -> t[0] + own, bound));
        }
        long end = t[0] + Duration.ofMinutes(10).toNanos();
        for (int step = 0; t[0] < end; step++) {
            t[0] += 25_000_000L;
            int i = step % 3;
            int j = random.nextInt(4); // 3 = the liar
            if (j == i) {
                continue;
            }
            long before = nets.get(i).actual();
            t[0] += 1_000_000L; // equal latencies: every sample is accepted
            long peer = j == 3 ? t[0] + year : nets.get(j).actual();
            t[0] += 1_000_000L;
            nets.get(i).sample("n" + j, before, peer, nets.get(i).actual());
            for (int k = 0; k < 3; k++) {
                long physical = t[0] + offsets[k];
                assertThat(nets.get(k).actual() - physical).as("node " + k + " network time − physical")
                        .isBetween(-skewLimit, skewLimit);
                long c = nets.get(k).continuous();
                assertThat(c - physical).isBetween(-skewLimit, skewLimit);
                assertThat(c).as("continuous time of " + k + " never goes backwards").isGreaterThanOrEqualTo(lastContinuous[k]);
                lastContinuous[k] = c;
            }
        }
        for (int k = 0; k < 3; k++) {
            assertThat(bounds.get(k).clamps()).as("clamps of node " + k).isPositive();
        }
        // joining at a peer a year ahead adopts at most the skew as offset, and a year behind at most −skew
        long[] local = {t[0]};
        SkewBound bound = new SkewBound(() -> local[0], Duration.ofMinutes(1));
        TimeNet joiner = new TimeNet(() -> local[0], bound);
        joiner.conform(local[0], local[0] + year, local[0]);
        assertThat(joiner.actual() - local[0]).isEqualTo(skewLimit);
        joiner.conform(local[0], local[0] - year, local[0]);
        assertThat(joiner.actual() - local[0]).isEqualTo(-skewLimit);
        joiner.conform(local[0], Long.MAX_VALUE, local[0]); // no overflow either
        assertThat(joiner.actual() - local[0]).isEqualTo(skewLimit);
        assertThat(bound.clamps()).isEqualTo(3);
    }
}

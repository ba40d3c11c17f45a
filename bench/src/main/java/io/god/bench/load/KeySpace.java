package io.god.bench.load;

import io.god.client.KeyHash;
import java.util.SplittableRandom;

/**
 * The benchmark's key space: {@code n} keys, picked uniformly or by a Zipf law (rank 0 hottest), spelled
 * either ordered ({@code k000000000000042}: 16 ASCII bytes, neighbours in the tree and on one ring node)
 * or hashed (the murmur3-128 of the ordered spelling, 16 bytes, spread over the ring like
 * {@code GodClient.hashed}). Redis' {@code redis-benchmark -r} keys ({@code key:000000000042}) are also
 * 16 bytes, so both servers store keys of the same size.
 */
public final class KeySpace {

    public enum Distribution { UNIFORM, ZIPF }

    private final long n;
    private final boolean hashed;
    private final Distribution distribution;
    private final Zipf zipf;

    public KeySpace(long n, Distribution distribution, double zipfTheta, boolean hashed) {
        if (n < 1) {
            throw new IllegalArgumentException("key count must be at least 1, was " + n);
        }
        this.n = n;
        this.hashed = hashed;
        this.distribution = distribution;
        this.zipf = distribution == Distribution.ZIPF ? new Zipf(n, zipfTheta) : null;
    }

    public long size() {
        return n;
    }

    /** The index of the next key to use. */
    public long next(SplittableRandom random) {
        return zipf == null ? random.nextLong(n) : zipf.next(random);
    }

    /** The key bytes of index {@code i} (0 ≤ i < n). */
    public byte[] key(long i) {
        byte[] ordered = ordered(i);
        return hashed ? KeyHash.murmur(ordered) : ordered;
    }

    /**
     * {@code k} followed by 15 decimal digits. Written by hand: {@code String.format} cost a fifth of the
     * generator's CPU in a JFR profile, CPU that the 2-core machine then lacked for the server.
     */
    static byte[] ordered(long i) {
        if (i < 0 || i >= 1_000_000_000_000_000L) {
            throw new IllegalArgumentException("key index out of range: " + i);
        }
        byte[] b = new byte[16];
        b[0] = 'k';
        long v = i;
        for (int p = 15; p >= 1; p--) {
            b[p] = (byte) ('0' + v % 10);
            v /= 10;
        }
        return b;
    }

    public String describe() {
        return (distribution == Distribution.ZIPF ? "zipf(" + zipf.theta + ")" : "uniform")
                + ", " + (hashed ? "hashed" : "ordered") + " keys, " + n + " keys";
    }

    /**
     * Zipf ranks in O(1) per draw after an O(n) set-up: the method of Gray et al., "Quickly generating
     * billion-record synthetic databases" (SIGMOD 1994), as used by YCSB. Rank r is drawn with
     * probability proportional to 1/(r+1)^theta; theta in (0, 1).
     */
    static final class Zipf {
        final double theta;
        private final long n;
        private final double zetaN;
        private final double alpha;
        private final double eta;
        private final double half;

        Zipf(long n, double theta) {
            if (!(theta > 0 && theta < 1)) {
                throw new IllegalArgumentException("zipf theta must be in (0, 1), was " + theta);
            }
            this.n = n;
            this.theta = theta;
            this.zetaN = zeta(n, theta);
            double zeta2 = zeta(Math.min(2, n), theta);
            this.alpha = 1.0 / (1.0 - theta);
            this.eta = n < 2 ? 1 : (1 - Math.pow(2.0 / n, 1 - theta)) / (1 - zeta2 / zetaN);
            this.half = 1 + Math.pow(0.5, theta);
        }

        static double zeta(long n, double theta) {
            double sum = 0;
            for (long i = 1; i <= n; i++) {
                sum += 1 / Math.pow(i, theta);
            }
            return sum;
        }

        long next(SplittableRandom random) {
            double u = random.nextDouble();
            double uz = u * zetaN;
            if (uz < 1) {
                return 0;
            }
            if (uz < half && n > 1) {
                return 1;
            }
            long r = (long) (n * Math.pow(eta * u - eta + 1, alpha));
            return Math.min(Math.max(r, 0), n - 1);
        }
    }
}

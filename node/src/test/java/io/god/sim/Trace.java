package io.god.sim;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayDeque;
import java.util.HexFormat;

/**
 * What a run did, in order: workload operations and their outcomes, faults, checks. Every line feeds
 * a SHA-256 (the run's trace hash: the same seed must give the same hash); the last lines are kept
 * to print when a run fails.
 */
final class Trace {

    private static final int KEPT = 60;
    private final MessageDigest digest;
    private final ArrayDeque<String> last = new ArrayDeque<>();
    private long lines;
    private SimLoop loop;

    Trace() {
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    void clock(SimLoop l) {
        loop = l;
    }

    void note(String line) {
        long t = loop == null ? 0 : (loop.now() - SimLoop.EPOCH) / 1_000_000;
        String s = String.format("%8d ms %s", t, line);
        digest.update(s.getBytes(StandardCharsets.UTF_8));
        digest.update((byte) '\n');
        lines++;
        last.addLast(s);
        if (last.size() > KEPT) {
            last.removeFirst();
        }
    }

    String hash() {
        try {
            return HexFormat.of().formatHex(((MessageDigest) digest.clone()).digest());
        } catch (CloneNotSupportedException e) {
            throw new IllegalStateException(e);
        }
    }

    long lines() {
        return lines;
    }

    String tail() {
        return String.join("\n", last);
    }
}

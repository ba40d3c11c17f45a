package io.god.cluster;

import java.util.Locale;

/**
 * How many replicas of a key's expected replica set must confirm a Sync write before it is
 * acknowledged ({@code god.sync.acks}, DESIGN §5). N = {@code god.redundancy}, E = the expected
 * membership's size.
 */
public enum SyncAcks {
    /** W = ⌊min(N, E)/2⌋ + 1: writes go on while a minority of a key's replicas is down. */
    QUORUM,
    /** W = min(N, E): an acknowledged write survives the loss of any N−1 replicas; writes stop while one is down. */
    ALL;

    /** W for N copies over an expected membership of {@code expected} members (at least 1). */
    public int required(int redundancy, int expected) {
        int n = Math.max(1, Math.min(redundancy, expected));
        return this == ALL ? n : n / 2 + 1;
    }

    /** The setting's value as written in configuration. */
    public String text() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses {@code quorum} or {@code all} (any case); otherwise an error naming the accepted values. */
    public static SyncAcks parse(String text) {
        String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        return switch (t) {
            case "quorum" -> QUORUM;
            case "all" -> ALL;
            default -> throw new IllegalArgumentException("must be quorum or all, was '" + text + "'");
        };
    }
}

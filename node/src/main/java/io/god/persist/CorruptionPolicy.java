package io.god.persist;

import java.util.Locale;

/**
 * What recovery does when the data directory is damaged in a way a crash cannot explain: a bad frame
 * followed by valid ones, a log whose synced header is wrong, or a gap in the sequence of snapshot and
 * logs (a torn tail is not damage: it is cut under every policy).
 */
public enum CorruptionPolicy {
    /** The node does not start; nothing on disk is changed (the default). */
    REFUSE,
    /**
     * Keep every valid record (before and after the damage), set damaged logs aside as
     * {@code *.damaged}, snapshot at once and let the ring restore the rest. Needs ring peers.
     */
    REPAIR,
    /** The behaviour before damage was detected: cut each damaged log at its first bad frame. */
    TRUNCATE;

    public static CorruptionPolicy parse(String s) {
        if (s == null) {
            return REFUSE;
        }
        return switch (s.trim().toLowerCase(Locale.ROOT)) {
            case "refuse" -> REFUSE;
            case "repair" -> REPAIR;
            case "truncate" -> TRUNCATE;
            default -> throw new IllegalArgumentException("must be refuse, repair or truncate, was '" + s + "'");
        };
    }

    public String configValue() {
        return name().toLowerCase(Locale.ROOT);
    }
}

package io.god.persist;

/** When the log is forced to disk, like Redis' appendfsync. */
public enum FsyncPolicy {
    /** Every write returns only after its record was fsynced (concurrent writers share one fsync). */
    ALWAYS,
    /** Writes return once the record is in the OS; a background fsync runs every second. */
    EVERYSEC,
    /** Writes return once the record is in the OS; the OS decides when it reaches the disk. */
    NO;

    public static FsyncPolicy parse(String s) {
        return switch (s.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "always" -> ALWAYS;
            case "everysec" -> EVERYSEC;
            case "no" -> NO;
            default -> throw new IllegalArgumentException("fsync policy must be always, everysec or no, was '" + s + "'");
        };
    }
}

package io.god.persist;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Data files are numbered by one increasing sequence (not by the clock, which may step back):
 * {@code 00000000000000000007.log} is the 7th log; {@code 00000000000000000007.snap} holds everything
 * in the logs numbered below 7, so recovery reads it and then logs 7, 8, ... in order.
 * {@code *.tmp} is a snapshot or metadata file being written; {@code *.corrupt} a snapshot recovery
 * rejected (kept for inspection).
 */
final class FileNames {

    static final String LOG = "log";
    static final String SNAP = "snap";
    static final String LOCK = "god.lock";
    private static final Pattern DATA = Pattern.compile("^(\\d{20})\\.(log|snap)$");

    private FileNames() {
    }

    static String log(long seq) {
        return String.format("%020d.%s", seq, LOG);
    }

    static String snap(long seq) {
        return String.format("%020d.%s", seq, SNAP);
    }

    /** The parsed name, or null for anything that is not a log or snapshot. */
    static DataFile parse(String name) {
        Matcher m = DATA.matcher(name);
        if (!m.matches()) {
            return null;
        }
        return new DataFile(Long.parseLong(m.group(1)), m.group(2).equals(SNAP), name);
    }

    record DataFile(long seq, boolean snapshot, String name) {
    }
}

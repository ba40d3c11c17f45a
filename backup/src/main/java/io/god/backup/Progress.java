package io.god.backup;

import java.io.PrintStream;
import java.util.Locale;

/** Progress lines: bytes, ranges, rate and (from the ranges done) an ETA. */
final class Progress {

    private final PrintStream out;
    private final String verb;
    private final long start = System.nanoTime();
    private long bytes;

    Progress(PrintStream out, String verb) {
        this.out = out;
        this.verb = verb;
    }

    void add(long more, int rangesDone, int ranges, long chunks) {
        bytes += more;
        double seconds = Math.max(1e-3, (System.nanoTime() - start) / 1e9);
        String eta = rangesDone == 0 ? "?" : String.format(Locale.ROOT, "%.0fs",
                seconds / rangesDone * (ranges - rangesDone));
        out.printf(Locale.ROOT, "%s: %d/%d ranges, %d chunks, %s, %s/s, ETA %s%n", verb, rangesDone, ranges, chunks,
                size(bytes), size((long) (bytes / seconds)), eta);
    }

    long bytes() {
        return bytes;
    }

    static String size(long b) {
        if (b < 1024) {
            return b + " B";
        }
        if (b < 1024 * 1024) {
            return String.format(Locale.ROOT, "%.1f KiB", b / 1024.0);
        }
        return String.format(Locale.ROOT, "%.1f MiB", b / (1024.0 * 1024));
    }
}

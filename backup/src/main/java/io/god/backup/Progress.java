package io.god.backup;

import java.io.PrintStream;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * Progress lines: bytes, ranges, rate and an ETA from the ranges this run finished (a resumed backup's ranges
 * finished by the earlier run took none of this run's time, so they do not count towards the rate).
 */
final class Progress {

    private final PrintStream out;
    private final String verb;
    private final int rangesBefore;
    private final LongSupplier nanos;
    private final long start;
    private long bytes;

    Progress(PrintStream out, String verb) {
        this(out, verb, 0, System::nanoTime);
    }

    /** rangesBefore: ranges complete before this run started (an earlier, interrupted run's). */
    Progress(PrintStream out, String verb, int rangesBefore, LongSupplier nanos) {
        this.out = out;
        this.verb = verb;
        this.rangesBefore = rangesBefore;
        this.nanos = nanos;
        this.start = nanos.getAsLong();
    }

    void add(long more, int rangesDone, int ranges, long chunks) {
        bytes += more;
        double seconds = Math.max(1e-3, (nanos.getAsLong() - start) / 1e9);
        int doneHere = rangesDone - rangesBefore;
        String eta = doneHere <= 0 ? "?" : String.format(Locale.ROOT, "%.0fs",
                seconds / doneHere * (ranges - rangesDone));
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

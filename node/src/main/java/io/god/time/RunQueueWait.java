package io.god.time;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.LongSupplier;

/**
 * How long the calling thread has waited, in all, for a CPU while it was ready to run (ns): the second field of
 * Linux's {@code /proc/thread-self/schedstat} (the scheduler's run delay). {@link PauseWatch} subtracts it from a gap
 * between its beats: a beat that came late because the machine was saturated (the thread ready, every CPU busy) is
 * not a pause of the process, while a stopped process (SIGSTOP), a stop-the-world collection or a frozen machine
 * leaves the thread off the run queue, so its gap stays a pause. Elsewhere (no such file) it reads 0 always, and
 * every gap counts, as before.
 */
public final class RunQueueWait implements LongSupplier {

    private static final Path SCHEDSTAT = Path.of("/proc/thread-self/schedstat");

    private boolean unavailable;

    /** The calling thread's total run delay so far (ns), or 0 where the scheduler does not report it. */
    @Override
    public long getAsLong() {
        if (unavailable) {
            return 0;
        }
        try {
            return parse(new String(Files.readAllBytes(SCHEDSTAT), StandardCharsets.US_ASCII));
        } catch (IOException | RuntimeException e) {
            unavailable = true; // not Linux, or /proc not mounted: never asked again
            return 0;
        }
    }

    /** The run delay in a schedstat line ("run-time run-delay timeslices"). */
    static long parse(String schedstat) {
        String[] fields = schedstat.trim().split(" ");
        if (fields.length < 2) {
            throw new IllegalArgumentException("unexpected schedstat: " + schedstat);
        }
        return Long.parseLong(fields[1]);
    }
}

package io.god.limits;

import io.god.setop.Deadline;
import io.god.time.NanoClock;

/**
 * The budget of one call: result rows, result bytes (keys and values) and evaluation time. The
 * evaluation adds each result row ({@link #row}) and checks the deadline in its loops
 * ({@link #check}); over any of them it throws a {@link LimitExceededException}, so the call answers
 * 400 instead of a truncated or endless result. Not thread-safe: one call, one thread.
 */
public final class CallBudget implements Deadline {

    /** Deadline checks between two clock readings (a reading costs ~25 ns; a skip step a few). */
    private static final int CHECK_EVERY = 256;

    private final Limits limits;
    private final NanoClock clock;
    private final long deadline;
    private long rows;
    private long bytes;
    private int untilCheck = CHECK_EVERY;

    CallBudget(Limits limits, NanoClock clock) {
        this.limits = limits;
        this.clock = clock;
        long now = clock.nanos();
        long budget = limits.evalTime().toNanos();
        this.deadline = now + budget < now ? Long.MAX_VALUE : now + budget;
    }

    /** Counts one result row of {@code size} bytes; throws when the rows or bytes limit is passed. */
    public void row(long size) {
        if (++rows > limits.resultRows()) {
            throw new LimitExceededException(Limits.RESULT_ROWS, "result has more than " + limits.resultRows()
                    + " rows; narrow it with Min/Max/Len");
        }
        bytes += size;
        if (bytes > limits.resultBytes()) {
            throw new LimitExceededException(Limits.RESULT_BYTES, "result has more than " + limits.resultBytes()
                    + " bytes of keys and values; narrow it with Min/Max/Len");
        }
        check();
    }

    /** Rows at most one bounded read needs to fetch: one more than the limit, to see it passed. */
    public int rowsToFetch() {
        return limits.resultRows() + 1;
    }

    @Override
    public void check() {
        if (--untilCheck > 0) {
            return;
        }
        untilCheck = CHECK_EVERY;
        checkNow();
    }

    /** Checks the deadline on the clock now. */
    public void checkNow() {
        if (clock.nanos() - deadline > 0) {
            throw new LimitExceededException(Limits.EVAL_TIME, "evaluation took longer than "
                    + io.god.node.Durations.format(limits.evalTime()));
        }
    }
}

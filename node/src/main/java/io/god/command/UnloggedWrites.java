package io.god.command;

import io.god.persist.PersistenceException;
import io.god.time.LogThrottle;
import io.god.time.NanoClock;
import java.time.Duration;

/**
 * Writes this node could not log (a full disk, an IO error: {@link PersistenceException}) and so refused,
 * unacknowledged. The caller's answer names the cause; the log gets one WARN every {@link #LOG_EVERY} with
 * the count — not an ERROR with a stack trace per call, which flooded the log while a disk was full (issue 27).
 */
final class UnloggedWrites {

    static final Duration LOG_EVERY = Duration.ofSeconds(10);
    /** The node's (binary and JSON-RPC calls share it). */
    static final UnloggedWrites NODE = new UnloggedWrites(NanoClock.system());

    private static final System.Logger LOG = System.getLogger(UnloggedWrites.class.getName());

    private final LogThrottle refused;

    UnloggedWrites(NanoClock clock) {
        this.refused = new LogThrottle(clock, LOG_EVERY);
    }

    /** Counts the refusal, logs it when a line is due, and answers the caller's error message. */
    String refuse(String method, PersistenceException e) { // method: e.g. DHash.Put
        String message = method + " refused: " + e.getMessage();
        long since = refused.count();
        if (since > 0) {
            LOG.log(System.Logger.Level.WARNING, message + " (" + since + " write(s) refused since the last such"
                    + " message, " + refused.total() + " in all)");
        }
        return message;
    }

    long refusals() {
        return refused.total();
    }
}

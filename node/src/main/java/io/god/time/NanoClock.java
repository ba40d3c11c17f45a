package io.god.time;

/**
 * The one source of "now" for the engine and the cluster logic, in nanoseconds since the epoch.
 * Injected everywhere so tests and the deterministic simulation can drive time by hand.
 */
@FunctionalInterface
public interface NanoClock {

    long nanos();

    /** Wall-clock time with nanosecond precision (as far as the platform offers it). */
    static NanoClock system() {
        return () -> {
            java.time.Instant now = java.time.Instant.now();
            return now.getEpochSecond() * 1_000_000_000L + now.getNano();
        };
    }
}

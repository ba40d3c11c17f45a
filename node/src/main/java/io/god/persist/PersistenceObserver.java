package io.god.persist;

/**
 * Told about the data directory's work as it happens (the node's metrics, {@code io.god.metrics}):
 * log appends, fsyncs and snapshots. Called on the writing threads, so implementations only count.
 */
public interface PersistenceObserver {

    /** Observes nothing. */
    PersistenceObserver NONE = new PersistenceObserver() {
    };

    /** {@code records} framed records appended to the log in {@code nanos}. */
    default void appended(long nanos, int records) {
    }

    /** One fsync of the log took {@code nanos} and made {@code records} records durable. */
    default void synced(long nanos, long records) {
    }

    /** A snapshot of {@code records} records and {@code bytes} bytes was written in {@code nanos}. */
    default void snapshotWritten(long nanos, long bytes, long records) {
    }
}

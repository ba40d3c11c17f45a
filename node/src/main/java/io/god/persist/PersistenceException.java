package io.god.persist;

/**
 * Persistence failed: the data directory is unusable, or a write could not be logged (IO error, full
 * disk). A write that throws it was not acknowledged.
 */
public class PersistenceException extends RuntimeException {

    public PersistenceException(String message) {
        super(message);
    }

    public PersistenceException(String message, Throwable cause) {
        super(message, cause);
    }
}

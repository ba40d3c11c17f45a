package io.god.persist;

/** A record, frame or file on disk is not what was written (torn write, bit flip, foreign file). */
public final class CorruptDataException extends RuntimeException {

    public CorruptDataException(String message) {
        super(message);
    }
}

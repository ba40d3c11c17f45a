package io.god.command;

/**
 * A refused command: an HTTP-like status (400 bad input, 401 no credential, 404 unknown, 503 not now) and a message
 * naming the problem; nothing was changed. Every front end answers it in its own form with the same message.
 */
public final class CommandError extends RuntimeException {

    private final int status;

    public CommandError(int status, String message) {
        super(message, null, false, false);
        this.status = status;
    }

    public int status() {
        return status;
    }
}

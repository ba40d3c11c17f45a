package io.god.client;

/** The node rejected the call (a 4xx-like status: bad arguments, auth); retrying will not help. */
public final class GodRequestException extends GodException {
    private final int status;

    public GodRequestException(int status, String message) {
        super(status + ": " + message, null);
        this.status = status;
    }

    public int status() {
        return status;
    }
}

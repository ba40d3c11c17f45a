package io.god.api.rest;

/** A /v1 client error: the status (400, 401, 404) and a message for {@code {"error": ...}}. */
public final class V1Error extends RuntimeException {

    private final int status;

    public V1Error(int status, String message) {
        super(message, null, false, false);
        this.status = status;
    }

    public int status() {
        return status;
    }
}

package io.god.client;

/** Base of the client's exceptions. */
public class GodException extends RuntimeException {
    public GodException(String message, Throwable cause) {
        super(message, cause);
    }
}

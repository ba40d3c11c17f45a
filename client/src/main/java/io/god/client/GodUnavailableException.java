package io.god.client;

/** No node of the key's replica set (or the gateway) answered within the retries and the deadline. */
public final class GodUnavailableException extends GodException {
    public GodUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}

package io.god.client;

/** No node of the key's replica set (or the gateway) answered within the retries and the deadline. */
public final class GodUnavailableException extends GodException {

    private final int status;

    public GodUnavailableException(String message, Throwable cause) {
        this(message, cause, 0);
    }

    /** @param status the node's answer (e.g. 503: a Sync write confirmed by too few replicas), 0 = no answer */
    public GodUnavailableException(String message, Throwable cause, int status) {
        super(message, cause);
        this.status = status;
    }

    /** The status a node answered (503: retry later), or 0 when no node answered. */
    public int status() {
        return status;
    }
}

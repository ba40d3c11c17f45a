package io.god.limits;

/**
 * A request went over one of the node's {@link Limits}: a client error (HTTP 400, a binary reply
 * status 400) whose message names the limit's config key; nothing was changed.
 */
public final class LimitExceededException extends RuntimeException {

    private final String limit;

    public LimitExceededException(String limit, String message) {
        super(message + " (" + limit + ")", null, false, false);
        this.limit = limit;
    }

    /** The config key of the limit, e.g. {@code god.limits.set-sources}. */
    public String limit() {
        return limit;
    }
}

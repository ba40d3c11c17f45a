package io.god.transport;

/** A call that did not get an answer: unreachable peer, deadline passed, or an error reply. */
public final class TransportException extends RuntimeException {

    public enum Reason {
        /** Could not connect, or the connection broke before the answer: safe to retry idempotent calls. */
        UNREACHABLE,
        /** No answer within the deadline. */
        TIMEOUT,
        /** The peer answered with an error (its message is this exception's message). */
        REMOTE
    }

    private final Reason reason;

    public TransportException(Reason reason, String message) {
        super(message, null, false, false);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }

    /** The TransportException behind a future's failure, or an UNREACHABLE one describing it. */
    public static TransportException of(Throwable t) {
        while ((t instanceof java.util.concurrent.CompletionException
                || t instanceof java.util.concurrent.ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t instanceof TransportException te ? te : new TransportException(Reason.UNREACHABLE, String.valueOf(t));
    }
}

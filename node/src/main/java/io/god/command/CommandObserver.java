package io.god.command;

/** Told about every command the node executes, whatever its front end (metrics: NodeMeters). */
@FunctionalInterface
public interface CommandObserver {

    /** A command (its method name, or "unknown") answered with this status after this long. */
    void completed(String method, int status, long nanos);

    /** A request refused by the limit with this config key (a 400). */
    default void limitRefused(String limit) {
    }

    /** An expensive command refused by the bulkhead (a 503). */
    default void bulkheadRejected() {
    }
}

package io.god.wire;

/** A frame or payload that does not follow the binary protocol (truncated, oversized, unknown kind). */
public final class WireException extends RuntimeException {
    public WireException(String message) {
        super(message);
    }
}

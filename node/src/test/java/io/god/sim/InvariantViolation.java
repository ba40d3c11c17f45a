package io.god.sim;

/** An invariant of the ring or of the data did not hold: the run failed. */
final class InvariantViolation extends RuntimeException {
    InvariantViolation(String message) {
        super(message);
    }
}

package io.god.setop;

/** An arithmetic error in a merge function, e.g. an integer or big-integer division by zero. */
public final class SetOpArithmeticException extends SetOpException {
    private static final long serialVersionUID = 1L;

    public SetOpArithmeticException(String message) {
        super(message);
    }
}

package io.god.setop;

/**
 * Base of every error a set expression can raise: malformed code ({@link SetOpParseException}),
 * an invalid {@code Op} tree, arithmetic errors in merge functions ({@link SetOpArithmeticException}),
 * or a request the evaluator refuses (e.g. the Append merge with a destination). Messages are meant
 * to be shown to the user as they are.
 */
public class SetOpException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public SetOpException(String message) {
        super(message);
    }
}

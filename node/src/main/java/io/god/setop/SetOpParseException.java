package io.god.setop;

/** Malformed set-expression code: carries the offset (in chars of the code) and the bare reason. */
public final class SetOpParseException extends SetOpException {
    private static final long serialVersionUID = 1L;
    private final int position;
    private final String reason;

    SetOpParseException(String reason, int position, String code) {
        this(reason, position, code, "");
    }

    SetOpParseException(String reason, int position, String code, String hint) {
        super(reason + " at " + position + " in " + code + "." + hint);
        this.position = position;
        this.reason = reason;
    }

    /** Offset of the offending character (the code's length for an unexpected end). */
    public int position() {
        return position;
    }

    /** The reason without position and code, e.g. {@code "Unexpected *"}. */
    public String reason() {
        return reason;
    }
}

package io.god.setop;

/**
 * A set expression over a size bound ({@link SetOpParser#parse(String, int, int)}): too many raw
 * sources or nested too deep. Thrown while parsing, before the whole expression is built, so an
 * oversized request costs no more than the bound.
 */
public final class SetOpTooLargeException extends SetOpException {
    private static final long serialVersionUID = 1L;

    /** Which bound was passed. */
    public enum Kind { SOURCES, DEPTH }

    private final Kind kind;
    private final int max;

    public SetOpTooLargeException(Kind kind, int max) {
        super(kind == Kind.SOURCES ? "set expression has more than " + max + " sources"
                : "set expression nested deeper than " + max + " levels");
        this.kind = kind;
        this.max = max;
    }

    public Kind kind() {
        return kind;
    }

    public int max() {
        return max;
    }
}

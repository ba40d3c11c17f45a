package io.god.setop;

/** The four set operations; {@link #code()} is the JSON {@code Type} value. */
public enum SetOpType {
    /** Keys present in any source. */
    UNION('U'),
    /** Keys present in every source. */
    INTERSECTION('I'),
    /** Keys of the first source present in none of the others. */
    DIFFERENCE('D'),
    /** Keys present in exactly one source. */
    XOR('X');

    private static final SetOpType[] VALUES = values();
    private final char letter;

    SetOpType(char letter) {
        this.letter = letter;
    }

    /** The JSON {@code Type}: 0=U, 1=I, 2=D, 3=X. */
    public int code() {
        return ordinal();
    }

    /** The letter used in set-expression code. */
    public char letter() {
        return letter;
    }

    /** The type for a JSON {@code Type} value. */
    public static SetOpType fromCode(int code) {
        if (code < 0 || code >= VALUES.length) {
            throw new SetOpException("Unknown SetOp Type " + code + ". Legal values: 0 (U), 1 (I), 2 (D), 3 (X).");
        }
        return VALUES[code];
    }

    /** The type for a code letter, or null. */
    static SetOpType fromLetter(char c) {
        for (SetOpType t : VALUES) {
            if (t.letter == c) {
                return t;
            }
        }
        return null;
    }
}

package io.god.setop;

import java.util.List;

/**
 * The merge functions of set expressions, in the numeric order that is the JSON {@code Merge}
 * contract (reference §4.3). A merge folds the values of every source that has a key into one value
 * list: the first source contributes {@code apply(null, values, weight)}, each later one
 * {@code apply(accumulated, values, weight)}.
 */
public enum Merge {
    APPEND("Append", Merges::append),
    CONCAT("ConCat", Merges::concat),
    INTEGER_SUM("IntegerSum", Merges::integerSum),
    INTEGER_DIV("IntegerDiv", Merges::integerDiv),
    INTEGER_MUL("IntegerMul", Merges::integerMul),
    FLOAT_SUM("FloatSum", Merges::floatSum),
    FLOAT_DIV("FloatDiv", Merges::floatDiv),
    FLOAT_MUL("FloatMul", Merges::floatMul),
    BIG_INT_AND("BigIntAnd", Merges::bigIntAnd),
    BIG_INT_ADD("BigIntAdd", Merges::bigIntAdd),
    BIG_INT_AND_NOT("BigIntAndNot", Merges::bigIntAndNot),
    BIG_INT_DIV("BigIntDiv", Merges::bigIntDiv),
    BIG_INT_MOD("BigIntMod", Merges::bigIntMod),
    BIG_INT_MUL("BigIntMul", Merges::bigIntMul),
    BIG_INT_OR("BigIntOr", Merges::bigIntOr),
    BIG_INT_REM("BigIntRem", Merges::bigIntRem),
    BIG_INT_XOR("BigIntXor", Merges::bigIntXor),
    FIRST("First", Merges::first),
    LAST("Last", Merges::last);

    /** The merge-name list of the original's error message (its order, not the numeric one). */
    static final String LEGAL_NAMES = "Append, ConCat, IntegerSum, IntegerDiv, IntegerMul, FloatSum, "
            + "FloatDiv, FloatMul, BigIntAdd, BigIntAnd, BigIntAndNot, BigIntDiv, BigIntMod, BigIntMul, "
            + "BigIntOr, BigIntRem, BigIntXor, First, Last";

    private static final Merge[] VALUES = values();

    /** A merge function; {@code old == null} (or empty) means nothing accumulated yet. */
    @FunctionalInterface
    interface Function {
        List<byte[]> apply(List<byte[]> old, List<byte[]> values, double weight);
    }

    private final String label;
    private final Function function;

    Merge(String label, Function function) {
        this.label = label;
        this.function = function;
    }

    /** The name used in code, e.g. {@code ConCat} in {@code (I:ConCat a b)}. */
    public String label() {
        return label;
    }

    /** Whether the merge reads its values as 8-byte numbers (int64 or float64); shorter ones are skipped. */
    public boolean numeric() {
        return this == INTEGER_SUM || this == INTEGER_DIV || this == INTEGER_MUL || this == FLOAT_SUM
                || this == FLOAT_DIV || this == FLOAT_MUL;
    }

    /** The JSON {@code Merge} value. */
    public int code() {
        return ordinal();
    }

    /**
     * Folds {@code values} (weighted by {@code weight}) into {@code old}; {@code old == null} for the
     * first source having the key. Never returns null; may throw {@link SetOpArithmeticException}.
     */
    public List<byte[]> apply(List<byte[]> old, List<byte[]> values, double weight) {
        return function.apply(old, values, weight);
    }

    public static Merge fromCode(int code) {
        if (code < 0 || code >= VALUES.length) {
            throw new SetOpException("Unknown SetOp Merge " + code + ". Legal values: 0-18 (" + LEGAL_NAMES + ").");
        }
        return VALUES[code];
    }

    /** The merge named {@code label} (case-sensitive), or null. */
    public static Merge fromLabel(String label) {
        for (Merge m : VALUES) {
            if (m.label.equals(label)) {
                return m;
            }
        }
        return null;
    }
}

package io.god.setop;

import java.util.Objects;

/**
 * A set expression with its parameters (reference §1.1 {@code setop.SetExpression}): the op (given
 * as {@code Op} or parsed from {@code Code}), an optional key range {@code Min}/{@code Max} with
 * inclusive flags ({@code null} = unbounded), {@code Len} (≤ 0 = unlimited) and {@code Dest} (store
 * the results into that sub tree instead of returning them). Immutable; build with {@link #builder()}.
 */
public final class SetExpression {
    private final SetOp op;
    private final byte[] min;
    private final byte[] max;
    private final boolean minInc;
    private final boolean maxInc;
    private final int len;
    private final byte[] dest;
    private final boolean exactNumbers;

    private SetExpression(Builder b) {
        this.op = Objects.requireNonNull(b.op, "op");
        this.min = b.min;
        this.max = b.max;
        this.minInc = b.minInc;
        this.maxInc = b.maxInc;
        this.len = b.len;
        this.dest = b.dest;
        this.exactNumbers = b.exactNumbers;
    }

    /**
     * The JSON factory: {@code Op} wins when given, otherwise {@code Code} is parsed (a
     * {@link SetOpParseException} when malformed); neither gives a {@link SetOpException}.
     */
    public static SetExpression of(String code, SetOp op, byte[] min, byte[] max, boolean minInc,
            boolean maxInc, int len, byte[] dest) {
        Builder b = builder();
        if (op != null) {
            b.op(op);
        } else if (code != null) {
            b.code(code);
        } else {
            throw new SetOpException("SetExpression needs Code or Op");
        }
        return b.min(min, minInc).max(max, maxInc).len(len).dest(dest).build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public SetOp op() {
        return op;
    }

    public byte[] min() {
        return min;
    }

    public byte[] max() {
        return max;
    }

    public boolean minInc() {
        return minInc;
    }

    public boolean maxInc() {
        return maxInc;
    }

    public int len() {
        return len;
    }

    public byte[] dest() {
        return dest;
    }

    /**
     * Whether a numeric merge (IntegerSum…, FloatSum…) refuses a value that is not 8 bytes, naming its
     * key, instead of skipping it as the original does (the /v1 API; the god JSON contract keeps the
     * original's behaviour).
     */
    public boolean exactNumbers() {
        return exactNumbers;
    }

    /** This expression with {@link #exactNumbers()} on. */
    public SetExpression withExactNumbers() {
        Builder b = builder().op(op).min(min, minInc).max(max, maxInc).len(len).dest(dest);
        b.exactNumbers = true;
        return b.build();
    }

    @Override
    public String toString() {
        return op + (min == null ? "" : " min" + (minInc ? ">=" : ">") + SetEntry.show(min))
                + (max == null ? "" : " max" + (maxInc ? "<=" : "<") + SetEntry.show(max))
                + (len > 0 ? " len=" + len : "") + (dest == null ? "" : " dest=" + SetEntry.show(dest));
    }

    /** Builder of {@link SetExpression}. */
    public static final class Builder {
        private SetOp op;
        private byte[] min;
        private byte[] max;
        private boolean minInc;
        private boolean maxInc;
        private int len;
        private byte[] dest;
        private boolean exactNumbers;

        private Builder() {}

        public Builder op(SetOp op) {
            this.op = op;
            return this;
        }

        /** Parses {@code code}; throws {@link SetOpParseException} when malformed. */
        public Builder code(String code) {
            this.op = SetOpParser.parse(code);
            return this;
        }

        public Builder min(byte[] min, boolean inclusive) {
            this.min = min;
            this.minInc = inclusive;
            return this;
        }

        public Builder max(byte[] max, boolean inclusive) {
            this.max = max;
            this.maxInc = inclusive;
            return this;
        }

        public Builder len(int len) {
            this.len = len;
            return this;
        }

        public Builder dest(byte[] dest) {
            this.dest = dest;
            return this;
        }

        public SetExpression build() {
            return new SetExpression(this);
        }
    }
}

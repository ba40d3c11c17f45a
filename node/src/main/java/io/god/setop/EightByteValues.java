package io.god.setop;

/**
 * A source read by a numeric merge with {@link SetExpression#exactNumbers()}: a value that is not 8
 * bytes (an int64 or float64) is an error naming the key and the source, instead of being skipped as
 * the original does — on /v1 a sum over text values is a mistake to report, not a smaller sum.
 */
final class EightByteValues implements SortedSource {

    private final SortedSource inner;
    private final String source;
    private final Merge merge;

    EightByteValues(SortedSource inner, String source, Merge merge) {
        this.inner = inner;
        this.source = source;
        this.merge = merge;
    }

    @Override
    public SetEntry skip(byte[] min, boolean inclusive) {
        return check(inner.skip(min, inclusive));
    }

    @Override
    public SetEntry next() {
        return check(inner.next());
    }

    private SetEntry check(SetEntry e) {
        if (e != null) {
            for (byte[] v : e.values()) {
                if (v.length != 8) {
                    throw new SetOpException("the value of key " + SetEntry.show(e.key()) + " in " + source + " is "
                            + v.length + " bytes: " + merge.label() + " merges 8-byte numbers (write them with enc="
                            + (merge.label().startsWith("Float") ? "float" : "int") + ")");
                }
            }
        }
        return e;
    }
}

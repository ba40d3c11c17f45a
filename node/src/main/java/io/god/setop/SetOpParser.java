package io.god.setop;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Parser of set-expression code (reference §4.1):
 *
 * <pre>
 * expr    := ' '* '(' OP [':' MERGE] ' '+ source ( ' '+ source )* ' '* ')'     nothing may follow
 * OP      := U | I | D | X
 * MERGE   := a {@link Merge} label, case-sensitive (default Append)
 * source  := ( NAME | expr ) [ '*' WEIGHT ]
 * NAME    := 1+ characters other than ' ', '(', ')', '*'   (its UTF-8 bytes are the source key)
 * WEIGHT  := [+-]? (digits [. digits?] | . digits) ([eE] [+-]? digits)?   finite
 * </pre>
 *
 * Only the ASCII space separates. Every malformed input gives a {@link SetOpParseException} with the
 * offset and the reason (the original's messages, e.g. {@code Unexpected * at 6 in (U a*2*3).});
 * the parser throws nothing else. Nesting is limited to {@link SetOp#MAX_DEPTH}.
 */
public final class SetOpParser {
    private static final Pattern FLOAT =
            Pattern.compile("[+-]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d+)?");

    private final String code;
    private final int maxSources;
    private final int maxDepth;
    private int sourceCount;
    private int pos;

    private SetOpParser(String code, int maxSources, int maxDepth) {
        this.code = code;
        this.maxSources = maxSources;
        this.maxDepth = maxDepth;
    }

    /** Parses {@code code} into an immutable {@link SetOp}. */
    public static SetOp parse(String code) {
        return new SetOpParser(code, Integer.MAX_VALUE, Integer.MAX_VALUE).top();
    }

    /**
     * Parses {@code code}, refusing (with a {@link SetOpTooLargeException}, as soon as the bound is
     * passed) more than {@code maxSources} raw sources or nesting deeper than {@code maxDepth}.
     */
    public static SetOp parse(String code, int maxSources, int maxDepth) {
        return new SetOpParser(code, maxSources, Math.min(maxDepth, SetOp.MAX_DEPTH)).top();
    }

    private SetOp top() {
        if (code == null) {
            throw new SetOpParseException("Unexpected EOF", 0, "");
        }
        SetOpParser p = this;
        p.skipSpaces();
        if (p.eof()) {
            throw p.error("Unexpected EOF");
        }
        if (p.peek() != '(') {
            throw p.error("Expected (");
        }
        SetOp op = p.expr(1);
        if (!p.eof()) {
            throw p.error("Unexpected characters");
        }
        return op;
    }

    private SetOp expr(int depth) {
        if (depth > maxDepth) {
            throw new SetOpTooLargeException(SetOpTooLargeException.Kind.DEPTH, maxDepth);
        }
        if (depth > SetOp.MAX_DEPTH) {
            throw error("Nesting deeper than " + SetOp.MAX_DEPTH + " levels not allowed");
        }
        pos++; // '('
        int start = pos;
        while (!eof() && peek() != ' ' && peek() != ')') {
            pos++;
        }
        if (eof()) {
            throw error("Unexpected EOF");
        }
        String token = code.substring(start, pos);
        if (token.isEmpty()) {
            throw error("Empty operation not allowed", start);
        }
        SetOpType type = SetOpType.fromLetter(token.charAt(0));
        if (type == null || (token.length() > 1 && token.charAt(1) != ':')) {
            String bad = token.length() > 1 && token.charAt(1) != ':' ? token : token.substring(0, 1);
            throw new SetOpParseException("Unknown operation type " + bad, start, code, " Legal values: U,I,X,D.");
        }
        Merge merge = Merge.APPEND;
        if (token.length() > 1) {
            String name = token.substring(2);
            merge = Merge.fromLabel(name);
            if (merge == null) {
                throw new SetOpParseException("Unknown SetOpType " + name, start + 2, code,
                        " Legal values: " + Merge.LEGAL_NAMES + ".");
            }
        }
        if (peek() == ')') {
            throw error("Empty operation not allowed");
        }
        List<SetOpSource> sources = new ArrayList<>();
        skipSpaces();
        while (true) {
            if (eof()) {
                throw error("Unexpected EOF");
            }
            char c = peek();
            if (c == ')') {
                if (sources.isEmpty()) {
                    throw error("Operation without parameters not allowed");
                }
                pos++;
                return new SetOp(type, merge, sources);
            }
            if (c == '*') {
                throw error("Unexpected *");
            }
            SetOpSource source;
            if (c == '(') {
                source = SetOpSource.op(expr(depth + 1));
            } else {
                if (++sourceCount > maxSources) {
                    throw new SetOpTooLargeException(SetOpTooLargeException.Kind.SOURCES, maxSources);
                }
                int nameStart = pos;
                while (!eof() && !delimiter(peek())) {
                    pos++;
                }
                source = SetOpSource.key(code.substring(nameStart, pos).getBytes(StandardCharsets.UTF_8));
            }
            if (!eof() && peek() == '*') {
                pos++;
                source = source.withWeight(weight());
            }
            sources.add(source);
            if (eof()) {
                throw error("Unexpected EOF");
            }
            c = peek();
            if (c == ' ') {
                skipSpaces();
            } else if (c == '(' || c == '*') {
                throw error("Unexpected " + c);
            } else if (c != ')') {
                throw error("Expected space or )");
            }
        }
    }

    private double weight() {
        int start = pos;
        while (!eof() && !delimiter(peek())) {
            pos++;
        }
        String text = code.substring(start, pos);
        if (!FLOAT.matcher(text).matches()) {
            throw error("Unparseable float64", start);
        }
        double w = Double.parseDouble(text);
        if (!Double.isFinite(w)) {
            throw error("Unparseable float64", start);
        }
        return w;
    }

    private static boolean delimiter(char c) {
        return c == ' ' || c == '(' || c == ')' || c == '*';
    }

    private void skipSpaces() {
        while (!eof() && peek() == ' ') {
            pos++;
        }
    }

    private boolean eof() {
        return pos >= code.length();
    }

    private char peek() {
        return code.charAt(pos);
    }

    private SetOpParseException error(String reason) {
        return error(reason, pos);
    }

    private SetOpParseException error(String reason, int at) {
        return new SetOpParseException(reason, at, code);
    }
}

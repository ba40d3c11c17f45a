package io.god.resp;

/**
 * Redis' glob patterns of {@code KEYS} and {@code SCAN MATCH}: {@code *} any run, {@code ?} one byte,
 * {@code [abc]}, {@code [^a]} and {@code [a-z]} a set, {@code \} escapes the next byte. Matched on bytes.
 */
final class Glob {

    private final byte[] pattern;

    /** Stars in one pattern at most: each may retry the rest of the key, so their number bounds the work. */
    static final int MAX_STARS = 16;

    Glob(byte[] pattern) {
        int stars = 0;
        for (byte b : pattern) {
            stars += b == '*' ? 1 : 0;
        }
        if (stars > MAX_STARS) {
            throw new IllegalArgumentException("a pattern may hold at most " + MAX_STARS + " '*', got " + stars);
        }
        this.pattern = pattern;
    }

    /** Whether the pattern is {@code *} (every key): no matching needed. */
    boolean all() {
        return pattern.length == 1 && pattern[0] == '*';
    }

    boolean matches(byte[] s) {
        return match(0, s, 0);
    }

    private boolean match(int p, byte[] s, int i) {
        while (p < pattern.length) {
            byte c = pattern[p];
            if (c == '*') {
                while (p + 1 < pattern.length && pattern[p + 1] == '*') {
                    p++;
                }
                if (p + 1 == pattern.length) {
                    return true;
                }
                for (int j = i; j <= s.length; j++) {
                    if (match(p + 1, s, j)) {
                        return true;
                    }
                }
                return false;
            }
            if (i >= s.length) {
                return false;
            }
            if (c == '?') {
                p++;
                i++;
                continue;
            }
            if (c == '[') {
                int close = p + 1;
                boolean negate = close < pattern.length && pattern[close] == '^';
                if (negate) {
                    close++;
                }
                boolean hit = false;
                while (close < pattern.length && pattern[close] != ']') {
                    if (pattern[close] == '\\' && close + 1 < pattern.length) {
                        close++;
                        hit |= pattern[close] == s[i];
                    } else if (close + 2 < pattern.length && pattern[close + 1] == '-' && pattern[close + 2] != ']') {
                        int lo = Math.min(pattern[close] & 0xFF, pattern[close + 2] & 0xFF);
                        int hi = Math.max(pattern[close] & 0xFF, pattern[close + 2] & 0xFF);
                        hit |= (s[i] & 0xFF) >= lo && (s[i] & 0xFF) <= hi;
                        close += 2;
                    } else {
                        hit |= pattern[close] == s[i];
                    }
                    close++;
                }
                if (hit == negate) {
                    return false;
                }
                p = Math.min(close + 1, pattern.length);
                i++;
                continue;
            }
            if (c == '\\' && p + 1 < pattern.length) {
                p++;
                c = pattern[p];
            }
            if (c != s[i]) {
                return false;
            }
            p++;
            i++;
        }
        return i == s.length;
    }
}

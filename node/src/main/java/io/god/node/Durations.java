package io.god.node;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses durations the way the operator and humans write them: Go style ({@code 24h}, {@code 90m},
 * {@code 1h30m}, {@code 500ms}, {@code 10s}, {@code 250us}, {@code 100ns}) or ISO-8601
 * ({@code PT24H}, {@code P1D}). A bare number is seconds.
 */
public final class Durations {

    private static final Pattern GO_PART = Pattern.compile("(\\d+(?:\\.\\d+)?)(ns|us|µs|ms|s|m|h|d)");

    private Durations() {
    }

    /** The duration, or an IllegalArgumentException whose message says what is accepted. */
    public static Duration parse(String text) {
        String s = text == null ? "" : text.trim();
        if (s.isEmpty()) {
            throw new IllegalArgumentException("empty duration");
        }
        if (s.matches("\\d+")) {
            return Duration.ofSeconds(Long.parseLong(s));
        }
        if (s.startsWith("P") || s.startsWith("p") || s.startsWith("-P")) {
            try {
                return Duration.parse(s.toUpperCase(java.util.Locale.ROOT));
            } catch (DateTimeParseException e) {
                throw bad(text);
            }
        }
        Matcher m = GO_PART.matcher(s);
        int at = 0;
        long nanos = 0;
        while (at < s.length()) {
            if (!m.find(at) || m.start() != at) {
                throw bad(text);
            }
            double amount = Double.parseDouble(m.group(1));
            long unit = switch (m.group(2)) {
                case "ns" -> 1L;
                case "us", "µs" -> 1_000L;
                case "ms" -> 1_000_000L;
                case "s" -> 1_000_000_000L;
                case "m" -> 60_000_000_000L;
                case "h" -> 3_600_000_000_000L;
                default -> 86_400_000_000_000L;
            };
            double part = amount * unit;
            if (part > Long.MAX_VALUE - nanos) {
                throw new IllegalArgumentException("duration too long: '" + text + "'");
            }
            nanos += (long) part;
            at = m.end();
        }
        return Duration.ofNanos(nanos);
    }

    /** Go-style rendering for messages: {@code 24h}, {@code 90m}, {@code 1.5s}, {@code 0s}. */
    public static String format(Duration d) {
        long n = d.toNanos();
        if (n == 0) {
            return "0s";
        }
        if (n % 3_600_000_000_000L == 0) {
            return n / 3_600_000_000_000L + "h";
        }
        if (n % 60_000_000_000L == 0) {
            return n / 60_000_000_000L + "m";
        }
        if (n % 1_000_000L == 0 && n < 1_000_000_000L) {
            return n / 1_000_000L + "ms";
        }
        return d.toMillis() / 1000.0 + "s";
    }

    private static IllegalArgumentException bad(String text) {
        return new IllegalArgumentException("not a duration: '" + text
                + "' (use Go style like 24h, 90m, 1h30m, 500ms, or ISO-8601 like PT24H)");
    }
}

package io.god.operator.model;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.regex.Matcher;

/** Parses Go-style durations ("24h", "1h30m", "90m", "1.5h") the way the node and CEL's duration() read them. */
public final class GoDuration {

    private static final java.util.regex.Pattern WHOLE = java.util.regex.Pattern.compile(GodClusterSpec.DURATION_PATTERN);
    private static final java.util.regex.Pattern PART =
            java.util.regex.Pattern.compile("([0-9]+(?:\\.[0-9]+)?)(ns|us|ms|s|m|h)");

    private GoDuration() {
    }

    /** @throws IllegalArgumentException naming the value when it is not a duration */
    public static Duration parse(String text) {
        if (text == null || !WHOLE.matcher(text).matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a duration like 24h, 90m or 1h30m");
        }
        Matcher m = PART.matcher(text);
        BigDecimal nanos = BigDecimal.ZERO;
        while (m.find()) {
            nanos = nanos.add(new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(nanosPer(m.group(2)))));
        }
        return Duration.ofNanos(nanos.longValue());
    }

    private static long nanosPer(String unit) {
        return switch (unit) {
            case "ns" -> 1L;
            case "us" -> 1_000L;
            case "ms" -> 1_000_000L;
            case "s" -> 1_000_000_000L;
            case "m" -> 60_000_000_000L;
            default -> 3_600_000_000_000L; // h
        };
    }
}

package io.god.node;

import java.time.Duration;

/**
 * Parsing of one setting's value, with errors that name the key ({@code god.x: must be …, was …}).
 * The node's settings and the request limits read their values through these, so every config value
 * is rejected the same way.
 */
public final class SettingValues {

    private SettingValues() {
    }

    public static IllegalArgumentException invalid(String key, String problem) {
        return new IllegalArgumentException(key + ": " + problem);
    }

    public static long number(String key, String v) {
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw invalid(key, "not an integer: '" + v + "'");
        }
    }

    public static long between(String key, long n, long min, long max) {
        if (n < min || n > max) {
            throw invalid(key, "must be between " + min + " and " + max + ", was " + n);
        }
        return n;
    }

    /** A size in bytes or with a binary unit ({@code 64K}, {@code 4M}, {@code 1G}). */
    public static long size(String key, String v) {
        try {
            return Sizes.parse(v);
        } catch (IllegalArgumentException e) {
            throw invalid(key, e.getMessage());
        }
    }

    /** A non-negative duration, Go style ({@code 1h30m}, {@code 500ms}) or ISO-8601. */
    public static Duration duration(String key, String v) {
        Duration d;
        try {
            d = Durations.parse(v);
        } catch (IllegalArgumentException e) {
            throw invalid(key, e.getMessage());
        }
        if (d.isNegative()) {
            throw invalid(key, "must not be negative, was '" + v + "'");
        }
        return d;
    }
}

package io.god.testing;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One factor that stretches every test deadline, so the suite stays green on a busy machine (both cores loaded)
 * without making any test wait longer when things go well: deadlines are upper bounds, awaits return as soon as
 * their condition holds.
 *
 * <p>The factor comes from the system property {@value #PROPERTY} (the parent POM hands {@code -Dgod.test.time-scale=5}
 * to surefire and failsafe), else the environment variable {@value #ENV}, else {@value #DEFAULT}. Child JVMs a test
 * starts get it through {@link #jvmOption()}.
 */
public final class TimeScale {

    public static final String PROPERTY = "god.test.time-scale";
    public static final String ENV = "GOD_TEST_TIME_SCALE";
    /** Chosen so that {@code ./mvnw -B verify} passes on 2 cores with both busy (issue 19). */
    public static final double DEFAULT = 3;

    private static final double FACTOR = resolve(System.getProperty(PROPERTY), System.getenv(ENV));

    private static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d+)?)(ns|us|ms|s|m|h)");

    private TimeScale() {
    }

    /** The factor: property, else environment, else the default; a bad value fails loudly, naming its source. */
    static double resolve(String property, String env) {
        if (property != null && !property.isBlank()) {
            return parse(property, "system property " + PROPERTY);
        }
        if (env != null && !env.isBlank()) {
            return parse(env, "environment variable " + ENV);
        }
        return DEFAULT;
    }

    private static double parse(String value, String source) {
        double f;
        try {
            f = Double.parseDouble(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(source + " must be a number > 0 (e.g. 3 or 1.5), got '" + value + "'");
        }
        if (!(f > 0) || Double.isInfinite(f)) {
            throw new IllegalArgumentException(source + " must be a number > 0 (e.g. 3 or 1.5), got '" + value + "'");
        }
        return f;
    }

    public static double factor() {
        return FACTOR;
    }

    /** {@code d} × factor (never shorter than 1 ms). */
    public static Duration of(Duration d) {
        return scale(d, FACTOR);
    }

    public static Duration seconds(long seconds) {
        return of(Duration.ofSeconds(seconds));
    }

    public static Duration millis(long millis) {
        return of(Duration.ofMillis(millis));
    }

    /**
     * A duration-valued setting scaled, for node and operator configuration in tests: {@code setting("500ms")} is
     * {@code "1500ms"} with the factor 3. Accepts what the node accepts in Go style ({@code 500ms}, {@code 2s},
     * {@code 1m30s}; a bare number is seconds) and answers in milliseconds.
     */
    public static String setting(String durationValue) {
        return scale(parseSetting(durationValue), FACTOR).toMillis() + "ms";
    }

    /** {@code -Dgod.test.time-scale=<factor>}, for the command line of a child JVM a test starts. */
    public static String jvmOption() {
        return "-D" + PROPERTY + "=" + format(FACTOR);
    }

    static Duration scale(Duration d, double factor) {
        long nanos = (long) Math.ceil(d.toNanos() * factor);
        return Duration.ofNanos(Math.max(nanos, 1_000_000L));
    }

    static Duration parseSetting(String value) {
        String s = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
        if (s.matches("\\d+")) {
            return Duration.ofSeconds(Long.parseLong(s));
        }
        Matcher m = PART.matcher(s);
        int at = 0;
        long nanos = 0;
        while (at < s.length()) {
            if (!m.find(at) || m.start() != at) {
                throw new IllegalArgumentException("not a duration setting: '" + value
                        + "' (expected Go style such as 500ms, 2s, 1m30s)");
            }
            long unit = switch (m.group(2)) {
                case "ns" -> 1L;
                case "us" -> 1_000L;
                case "ms" -> 1_000_000L;
                case "s" -> 1_000_000_000L;
                case "m" -> 60_000_000_000L;
                default -> 3_600_000_000_000L;
            };
            nanos += (long) (Double.parseDouble(m.group(1)) * unit);
            at = m.end();
        }
        if (s.isEmpty()) {
            throw new IllegalArgumentException("not a duration setting: empty value");
        }
        return Duration.ofNanos(nanos);
    }

    static String format(double factor) {
        return factor == Math.rint(factor) ? String.valueOf((long) factor) : String.valueOf(factor);
    }
}

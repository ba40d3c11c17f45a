package io.god.limits;

import static io.god.node.SettingValues.between;
import static io.god.node.SettingValues.duration;
import static io.god.node.SettingValues.invalid;
import static io.god.node.SettingValues.number;
import static io.god.node.SettingValues.size;

import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.god.request.BinaryRequests;
import io.god.setop.SetOp;
import io.god.setop.SetOpParser;
import io.god.setop.SetOpSource;
import io.god.setop.SetOpTooLargeException;
import io.god.time.NanoClock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * What one request may cost the node ({@code god.limits.*}, beside the key, value and body sizes of
 * {@link io.god.node.NodeSettings}), and the checks every front end runs: a request over a limit is
 * refused with a {@link LimitExceededException} naming the limit, before anything is executed
 * (sources, depth, JSON shape) or before anything is changed or answered (rows, bytes, time: a
 * result is never truncated).
 *
 * @param setSources raw sources one set expression may name
 * @param setDepth nesting depth of one set expression (at most {@link SetOp#MAX_DEPTH})
 * @param resultRows rows one call may return or store
 * @param resultBytes key and value bytes one call may return or store
 * @param evalTime how long one call may evaluate (checked cooperatively inside the skippers)
 * @param jsonDepth nesting depth of a JSON request body
 * @param jsonString characters of one JSON string (a base64 value is a string)
 * @param expensiveRunning expensive calls (set expressions, slices that are unbounded or span more than 1024 rows) running at once
 * @param expensiveQueue expensive calls waiting for a slot; more are answered 503
 * @param frameBudget bytes of request frames all binary connections together may buffer
 */
public record Limits(int setSources, int setDepth, int resultRows, long resultBytes, Duration evalTime,
                     int jsonDepth, int jsonString, int expensiveRunning, int expensiveQueue, long frameBudget)
        implements BinaryRequests.Bounds { // the binary command codec (client module) checks set expressions by these

    public static final String SET_SOURCES = "god.limits.set-sources";
    public static final String SET_DEPTH = "god.limits.set-depth";
    public static final String RESULT_ROWS = "god.limits.result-rows";
    public static final String RESULT_BYTES = "god.limits.result-bytes";
    public static final String EVAL_TIME = "god.limits.eval-time";
    public static final String JSON_DEPTH = "god.limits.json-depth";
    public static final String JSON_STRING = "god.limits.json-string";
    public static final String EXPENSIVE_RUNNING = "god.limits.expensive-running";
    public static final String EXPENSIVE_QUEUE = "god.limits.expensive-queue";
    public static final String FRAME_BUDGET = "god.limits.frame-budget";

    /** Defaults (docs/configuration.md lists them). */
    public static final Map<String, String> DEFAULTS = defaults();

    private static Map<String, String> defaults() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(SET_SOURCES, "1000");
        m.put(SET_DEPTH, "64");
        m.put(RESULT_ROWS, "100000");
        m.put(RESULT_BYTES, "64M");
        m.put(EVAL_TIME, "10s");
        // a SetOp level is three JSON levels ({"Sources":[{"SetOp":...}]}): 64 levels need 193
        m.put(JSON_DEPTH, "256");
        m.put(JSON_STRING, "16M");
        m.put(EXPENSIVE_RUNNING, "2");
        m.put(EXPENSIVE_QUEUE, "8");
        m.put(FRAME_BUDGET, "256M");
        return Map.copyOf(m);
    }

    /** The defaults. */
    public static Limits defaultLimits() {
        return from(k -> null);
    }

    /**
     * Limits from a lookup of config keys (null or blank = the default); an invalid value fails with an
     * {@link IllegalArgumentException} whose message starts with the key.
     */
    public static Limits from(Function<String, String> config) {
        Function<String, String> get = k -> {
            String v = config.apply(k);
            return v == null || v.isBlank() ? DEFAULTS.get(k) : v.trim();
        };
        return new Limits(
                (int) between(SET_SOURCES, number(SET_SOURCES, get.apply(SET_SOURCES)), 1, 100_000_000),
                (int) between(SET_DEPTH, number(SET_DEPTH, get.apply(SET_DEPTH)), 1, SetOp.MAX_DEPTH),
                (int) between(RESULT_ROWS, number(RESULT_ROWS, get.apply(RESULT_ROWS)), 1, Integer.MAX_VALUE - 1),
                between(RESULT_BYTES, size(RESULT_BYTES, get.apply(RESULT_BYTES)), 1, Long.MAX_VALUE),
                time(EVAL_TIME, get.apply(EVAL_TIME)),
                (int) between(JSON_DEPTH, number(JSON_DEPTH, get.apply(JSON_DEPTH)), 8, 100_000),
                (int) between(JSON_STRING, size(JSON_STRING, get.apply(JSON_STRING)), 64, Integer.MAX_VALUE),
                (int) between(EXPENSIVE_RUNNING, number(EXPENSIVE_RUNNING, get.apply(EXPENSIVE_RUNNING)), 1, 10_000),
                (int) between(EXPENSIVE_QUEUE, number(EXPENSIVE_QUEUE, get.apply(EXPENSIVE_QUEUE)), 0, 100_000),
                between(FRAME_BUDGET, size(FRAME_BUDGET, get.apply(FRAME_BUDGET)), 1 << 16, Long.MAX_VALUE));
    }

    // ------------------------------------------------------------------ checks

    /** Parses set-expression code within the source and depth limits (refused while parsing). */
    public SetOp parse(String code) {
        try {
            return SetOpParser.parse(code, setSources, setDepth);
        } catch (SetOpTooLargeException e) {
            throw tooLarge(e);
        }
    }

    /** Checks an operation tree built from the JSON {@code Op} form against the same limits. */
    public void check(SetOp op) {
        if (op.depth() > setDepth) {
            throw tooLarge(new SetOpTooLargeException(SetOpTooLargeException.Kind.DEPTH, setDepth));
        }
        if (sources(op, 0) > setSources) {
            throw tooLarge(new SetOpTooLargeException(SetOpTooLargeException.Kind.SOURCES, setSources));
        }
    }

    /** Checks the nesting level (1 = the root) of a JSON {@code Op} as it is read. */
    @Override
    public void checkDepth(int depth) {
        if (depth > setDepth) {
            throw tooLarge(new SetOpTooLargeException(SetOpTooLargeException.Kind.DEPTH, setDepth));
        }
    }

    /** Checks the number of sources of one JSON {@code Op} level as it is read (before building it). */
    @Override
    public void checkSourceCount(long count) {
        if (count > setSources) {
            throw tooLarge(new SetOpTooLargeException(SetOpTooLargeException.Kind.SOURCES, setSources));
        }
    }

    private long sources(SetOp op, long sofar) {
        long n = sofar;
        for (SetOpSource s : op.sources()) {
            n = s.op() != null ? sources(s.op(), n) : n + 1;
            if (n > setSources) {
                return n;
            }
        }
        return n;
    }

    private static LimitExceededException tooLarge(SetOpTooLargeException e) {
        return new LimitExceededException(e.kind() == SetOpTooLargeException.Kind.SOURCES ? SET_SOURCES : SET_DEPTH,
                e.getMessage());
    }

    /** The rows, bytes and time budget of one call, started now on {@code clock}. */
    public CallBudget budget(NanoClock clock) {
        return new CallBudget(this, clock);
    }

    /**
     * Applies the JSON limits to a mapper that parses requests (Jackson's
     * {@link StreamReadConstraints}); a body over them fails to parse with a message naming the limit
     * ({@link #describeJsonError}).
     */
    public ObjectMapper constrain(ObjectMapper mapper) {
        mapper.getFactory().setStreamReadConstraints(StreamReadConstraints.builder()
                .maxNestingDepth(jsonDepth).maxStringLength(jsonString).build());
        return mapper;
    }

    /**
     * When a JSON parse failure is one of Jackson's constraint violations, the exception naming our
     * limit; otherwise null.
     */
    public LimitExceededException jsonLimit(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof com.fasterxml.jackson.core.exc.StreamConstraintsException c) {
                String msg = c.getMessage() == null ? "" : c.getMessage();
                if (msg.contains("nesting depth")) {
                    return new LimitExceededException(JSON_DEPTH, "JSON request nested deeper than " + jsonDepth
                            + " levels");
                }
                return new LimitExceededException(JSON_STRING, "JSON string longer than " + jsonString
                        + " characters");
            }
        }
        return null;
    }

    // ------------------------------------------------------------------ parsing helpers

    private static Duration time(String key, String v) {
        Duration d = duration(key, v);
        if (d.compareTo(Duration.ofMillis(1)) < 0) {
            throw invalid(key, "must be at least 1ms, was '" + v + "'");
        }
        return d;
    }
}

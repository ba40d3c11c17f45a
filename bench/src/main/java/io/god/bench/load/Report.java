package io.god.bench.load;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * What one run measured: per operation a latency histogram (nanoseconds, 3 significant digits) and an
 * error count, over {@code seconds} of measurement. Workers fill their own {@link Part}s without
 * sharing; {@link #add} merges them.
 */
public final class Report {

    /** Latencies up to this are recorded exactly to 3 digits; longer ones are clamped. */
    static final long HIGHEST_NANOS = 60_000_000_000L;

    /** One worker's (or the merged) figures of one operation. */
    public static final class Part {
        final Histogram latency = new Histogram(HIGHEST_NANOS, 3);
        long errors;
        String firstError;

        public void ok(long nanos) {
            latency.recordValue(Math.min(Math.max(nanos, 1), HIGHEST_NANOS));
        }

        public void error(Throwable e) {
            errors++;
            if (firstError == null) {
                firstError = e.getClass().getSimpleName() + ": " + e.getMessage();
            }
        }
    }

    private final Map<OpMix.Op, Part> parts = new EnumMap<>(OpMix.Op.class);
    private final Map<String, Object> settings = new LinkedHashMap<>();
    private double seconds;

    public Report setting(String name, Object value) {
        settings.put(name, value);
        return this;
    }

    public void seconds(double s) {
        this.seconds = s;
    }

    public double seconds() {
        return seconds;
    }

    public synchronized void add(OpMix.Op op, Part p) {
        Part into = parts.computeIfAbsent(op, o -> new Part());
        into.latency.add(p.latency);
        into.errors += p.errors;
        if (into.firstError == null) {
            into.firstError = p.firstError;
        }
    }

    public long count(OpMix.Op op) {
        Part p = parts.get(op);
        return p == null ? 0 : p.latency.getTotalCount();
    }

    public long errors(OpMix.Op op) {
        Part p = parts.get(op);
        return p == null ? 0 : p.errors;
    }

    public double opsPerSecond(OpMix.Op op) {
        return seconds <= 0 ? 0 : count(op) / seconds;
    }

    /** Latency at a percentile in microseconds (0 when nothing was recorded). */
    public double micros(OpMix.Op op, double percentile) {
        Part p = parts.get(op);
        return p == null || p.latency.getTotalCount() == 0 ? 0 : p.latency.getValueAtPercentile(percentile) / 1000.0;
    }

    public String text() {
        StringBuilder b = new StringBuilder();
        settings.forEach((k, v) -> b.append(k).append(": ").append(v).append('\n'));
        b.append(String.format(Locale.ROOT, "%-8s %10s %11s %9s %9s %9s %9s %8s%n",
                "op", "ops", "ops/s", "p50 µs", "p99 µs", "p999 µs", "max µs", "errors"));
        long ops = 0;
        long errors = 0;
        for (OpMix.Op op : parts.keySet()) {
            Part p = parts.get(op);
            ops += count(op);
            errors += p.errors;
            b.append(String.format(Locale.ROOT, "%-8s %10d %11.0f %9.1f %9.1f %9.1f %9.1f %8d%n", op.label(), count(op),
                    opsPerSecond(op), micros(op, 50), micros(op, 99), micros(op, 99.9),
                    p.latency.getTotalCount() == 0 ? 0 : p.latency.getMaxValue() / 1000.0, p.errors));
        }
        b.append(String.format(Locale.ROOT, "%-8s %10d %11.0f %47d%n", "total", ops, seconds <= 0 ? 0 : ops / seconds, errors));
        parts.forEach((op, p) -> {
            if (p.firstError != null) {
                b.append("first ").append(op.label()).append(" error: ").append(p.firstError).append('\n');
            }
        });
        return b.toString();
    }

    public String json() {
        ObjectMapper m = new ObjectMapper();
        ObjectNode root = m.createObjectNode();
        ObjectNode s = root.putObject("settings");
        settings.forEach((k, v) -> s.put(k, String.valueOf(v)));
        root.put("seconds", seconds);
        ObjectNode ops = root.putObject("ops");
        parts.forEach((op, p) -> {
            ObjectNode o = ops.putObject(op.label());
            o.put("count", count(op));
            o.put("opsPerSecond", Math.round(opsPerSecond(op)));
            o.put("p50us", micros(op, 50));
            o.put("p99us", micros(op, 99));
            o.put("p999us", micros(op, 99.9));
            o.put("maxUs", p.latency.getTotalCount() == 0 ? 0 : p.latency.getMaxValue() / 1000.0);
            o.put("errors", p.errors);
            if (p.firstError != null) {
                o.put("firstError", p.firstError);
            }
        });
        try {
            return m.writerWithDefaultPrettyPrinter().writeValueAsString(root);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}

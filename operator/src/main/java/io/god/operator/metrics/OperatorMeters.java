package io.god.operator.metrics;

import io.god.operator.model.GodClusterStatus;
import io.god.operator.model.Operation;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The operator's metrics in one place (docs/operations.md "Monitoring"): how long reconciles take,
 * operations (ScaleUp, ScaleDown, Restart, …) by type and outcome, and whether each cluster's
 * operation is past its deadline. Quarantines reported by the nodes are counted by the reconciler
 * ({@code god.operator.member.quarantines}).
 */
public final class OperatorMeters {

    public static final String RECONCILE = "god.operator.reconcile";
    public static final String OPERATIONS = "god.operator.operations";
    public static final String PAST_DEADLINE = "god.operator.operations.past.deadline";
    /** Outcomes: an operation was started, finished (no operation afterwards) or replaced by another one. */
    public static final String STARTED = "started";
    public static final String FINISHED = "finished";
    public static final String REPLACED = "replaced";

    static final Duration[] RECONCILE_SLOS = {Duration.ofMillis(10), Duration.ofMillis(50), Duration.ofMillis(100),
            Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofSeconds(2),
            Duration.ofSeconds(5), Duration.ofSeconds(10)};

    private final MeterRegistry registry;
    private final Timer reconcile;
    private final java.util.Map<String, AtomicInteger> pastDeadline = new java.util.concurrent.ConcurrentHashMap<>();

    public OperatorMeters(MeterRegistry registry) {
        this.registry = registry;
        this.reconcile = Timer.builder(RECONCILE).description("reconciles of GodClusters")
                .serviceLevelObjectives(RECONCILE_SLOS).register(registry);
        for (String type : new String[] {Operation.SCALE_UP, Operation.SCALE_DOWN, Operation.RESTART,
                Operation.REMOVE, Operation.REPLACE}) {
            for (String outcome : new String[] {STARTED, FINISHED, REPLACED}) {
                registry.counter(OPERATIONS, "type", type, "outcome", outcome); // visible (0) before the first one
            }
        }
    }

    /** One reconcile took {@code nanos}. */
    public void reconciled(long nanos) {
        reconcile.record(nanos, TimeUnit.NANOSECONDS);
    }

    /**
     * Counts what changed between the operation in the status before and after a reconcile of one
     * cluster, and sets whether its operation (or its wait with none open) is past its deadline
     * ({@code deadlineExceededAt}).
     */
    public void operations(String namespace, String cluster, GodClusterStatus before, GodClusterStatus after) {
        Operation current = after == null ? null : after.getOperation();
        boolean waitPast = after != null && after.getWaiting() != null
                && after.getWaiting().getDeadlineExceededAt() != null;
        pastDeadline(namespace, cluster).set(waitPast || (current != null && current.getDeadlineExceededAt() != null)
                ? 1 : 0);
        operations(before, after);
    }

    private AtomicInteger pastDeadline(String namespace, String cluster) {
        return pastDeadline.computeIfAbsent(namespace + "/" + cluster, k -> {
            AtomicInteger v = new AtomicInteger();
            Gauge.builder(PAST_DEADLINE, v, AtomicInteger::get).tag("namespace", namespace).tag("cluster", cluster)
                    .description("1 while the cluster's operation or wait is past its deadline (spec.operationTimeout)")
                    .register(registry);
            return v;
        });
    }

    /** Counts what changed between the operation in the status before and after a reconcile. */
    void operations(GodClusterStatus before, GodClusterStatus after) {
        Operation was = before == null ? null : before.getOperation();
        Operation now = after == null ? null : after.getOperation();
        if (same(was, now)) {
            return;
        }
        if (was != null) {
            count(was.getType(), now == null ? FINISHED : REPLACED);
        }
        if (now != null) {
            count(now.getType(), STARTED);
        }
    }

    private void count(String type, String outcome) {
        registry.counter(OPERATIONS, "type", Objects.requireNonNullElse(type, "unknown"), "outcome", outcome).increment();
    }

    /** The same operation: type and start (steps of one operation change, it stays the same one). */
    private static boolean same(Operation a, Operation b) {
        if (a == null || b == null) {
            return a == b;
        }
        return Objects.equals(a.getType(), b.getType()) && Objects.equals(a.getStartedAt(), b.getStartedAt());
    }
}

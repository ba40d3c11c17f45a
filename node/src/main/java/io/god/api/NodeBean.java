package io.god.api;

import io.god.node.GodNode;
import io.god.node.NodeSettings;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.runtime.Startup;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * The Quarkus app's node: settings from Quarkus config (env vars such as {@code GOD_DATA_DIR} work),
 * one {@link GodNode} started at boot (invalid configuration fails the start with a message naming
 * the key) and closed at shutdown, its {@link JsonRpc} and its metrics.
 */
@Startup
@ApplicationScoped
public class NodeBean {

    private static final System.Logger LOG = System.getLogger(NodeBean.class.getName());

    @Inject
    MeterRegistry registry;

    /**
     * The node's environment (clock, loop executors) when a bean provides one: only tests do (a test
     * profile selects an alternative producer); otherwise the real machine.
     */
    @Inject
    jakarta.enterprise.inject.Instance<io.god.node.NodeRuntime> runtime;

    private GodNode node;
    private JsonRpc rpc;
    private final Map<String, Timer> timers = new ConcurrentHashMap<>();

    @PostConstruct
    void start() {
        NodeSettings settings;
        try {
            settings = NodeSettings.from(key -> ConfigProvider.getConfig().getOptionalValue(key, String.class));
            node = runtime.isResolvable() ? GodNode.start(settings, runtime.get()) : GodNode.start(settings);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.ERROR, "god node cannot start: " + e.getMessage());
            throw e;
        }
        rpc = new JsonRpc(node, this::record);
        Gauge.builder("god.tree.entries", node, n -> n.store().state().size())
                .description("live values plus live sub-tree entries").register(registry);
        Gauge.builder("god.tree.real.entries", node, n -> n.store().state().realSize())
                .description("every marker including tombstones and sub-tree holders").register(registry);
        Gauge.builder("god.tree.tombstone.markers", node,
                        n -> n.store().state().realSize() - n.store().state().size())
                .description("markers that are not live entries (tombstones, sub-tree holders)").register(registry);
        Gauge.builder("god.data.bytes", node, n -> n.closed() ? 0 : n.store().dataBytes())
                .description("bytes of logs and snapshots in the data directory").baseUnit("bytes").register(registry);
        Gauge.builder("god.gc.collected.up.to.seconds", node, n -> n.store().collectedUpTo() / 1e9)
                .description("newest collected tombstone's timestamp").register(registry);
        io.micrometer.core.instrument.FunctionCounter.builder("god.sync.rounds", node,
                n -> n.antiEntropy() == null ? 0 : n.antiEntropy().rounds()).description("anti-entropy rounds").register(registry);
        io.micrometer.core.instrument.FunctionCounter.builder("god.sync.pulled", node,
                n -> n.antiEntropy() == null ? 0 : n.antiEntropy().pulled()).description("records pulled by anti-entropy").register(registry);
        io.micrometer.core.instrument.FunctionCounter.builder("god.sync.pushed", node,
                n -> n.antiEntropy() == null ? 0 : n.antiEntropy().pushed()).description("records pushed by anti-entropy").register(registry);
        io.micrometer.core.instrument.FunctionCounter.builder("god.clean.entries", node,
                n -> n.cleaner() == null ? 0 : n.cleaner().cleaned()).description("entries handed to their owners and removed").register(registry);
        io.micrometer.core.instrument.FunctionCounter.builder("god.migrations", node,
                n -> n.migrator() == null ? 0 : n.migrator().migrations()).description("position moves by migration").register(registry);
        io.micrometer.core.instrument.FunctionCounter.builder("god.quarantines", node,
                n -> n.quarantine() == null ? 0 : n.quarantine().quarantines())
                .description("stale data directories moved to quarantine/ at join").register(registry);
        Gauge.builder("god.leave.ranges.confirmed", node, n -> n.drain() == null ? 0 : n.drain().progress().rangesConfirmed())
                .description("ranges of the current leave pass confirmed by their future holders").register(registry);
        Gauge.builder("god.time.error.seconds", node, n -> n.timeNet() == null || n.timeNet().error() < 0 ? 0
                        : n.timeNet().error() / 1e9).description("RMS of the last clock error per peer").register(registry);
        io.micrometer.core.instrument.FunctionCounter.builder("god.time.clamps", node,
                n -> n.timestamps().bound().clamps())
                .description("outside stamps, clock samples or offsets limited by god.time.max-skew").register(registry);
        LOG.log(System.Logger.Level.INFO, "god JSON API on POST /rpc/DHash.<Name>; auth "
                + (settings.authToken() == null ? "off" : "on"));
    }

    private void record(String method, int status, long nanos) {
        String outcome = switch (status / 100) {
            case 2 -> "ok";
            case 5 -> "server_error";
            default -> status == 401 ? "unauthorized" : status == 404 ? "not_found" : "client_error";
        };
        timers.computeIfAbsent(method + "/" + outcome, k -> Timer.builder("god.rpc")
                .description("god JSON calls by method and outcome").tag("method", method).tag("outcome", outcome)
                .publishPercentileHistogram().minimumExpectedValue(Duration.ofNanos(10_000))
                .maximumExpectedValue(Duration.ofSeconds(10)).register(registry)).record(Duration.ofNanos(nanos));
    }

    @PreDestroy
    void stop() {
        if (node != null) {
            node.close();
        }
    }

    public GodNode node() {
        return node;
    }

    public JsonRpc rpc() {
        return rpc;
    }
}

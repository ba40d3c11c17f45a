package io.god.api;

import io.god.node.GodNode;
import io.god.node.NodeSettings;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
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

    @Inject
    io.vertx.core.Vertx vertx;

    /**
     * The node's environment (clock, loop executors) when a bean provides one: only tests do (a test
     * profile selects an alternative producer); otherwise the real machine.
     */
    @Inject
    jakarta.enterprise.inject.Instance<io.god.node.NodeRuntime> runtime;

    /** The members the ring should have, for the metric god_ring_expected_members (optional). */
    public static final String EXPECTED_RING_SIZE = "god.metrics.expected-ring-size";

    private GodNode node;
    private io.god.metrics.NodeMeters meters;
    private JsonRpc rpc;
    private io.god.resp.RespServer resp;

    @PostConstruct
    void start() {
        NodeSettings settings;
        java.util.OptionalInt expected;
        try {
            settings = NodeSettings.from(key -> ConfigProvider.getConfig().getOptionalValue(key, String.class));
            expected = expectedRingSize();
            io.god.node.NodeRuntime env = runtime.isResolvable() ? runtime.get()
                    : io.god.node.NodeRuntime.production(io.god.time.NanoClock.system(), null);
            // the handlers exist before the node joins: the ring routes calls to a member as soon as it is in
            node = GodNode.start(settings, env, n -> {
                n.httpAddress(() -> httpAddress(settings.advertise()));
                meters = io.god.metrics.NodeMeters.bind(n, registry, expected);
                rpc = new JsonRpc(n, meters);
            });
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.ERROR, "god node cannot start: " + e.getMessage());
            throw e;
        }
        LOG.log(System.Logger.Level.INFO, "god JSON API on POST /rpc/DHash.<Name>; auth "
                + (settings.authToken() == null ? "off" : "on"));
        startResp(settings);
    }

    /** The RESP listener (god.resp.*): port 6379 unless set; -1 switches it off. */
    private void startResp(NodeSettings settings) {
        RespSettings r = RespSettings.from(key -> ConfigProvider.getConfig().getOptionalValue(key, String.class));
        if (r.port() < 0) {
            return;
        }
        resp = new io.god.resp.RespServer(vertx, rpc, r.sync(), r.maxConnections(), r.threads(),
                r.eventLoops()).secure(node.tls());
        resp.loopbackOnly(settings.protectedMode());
        String host = r.host() != null ? r.host() : settings.cluster().bindHost();
        try {
            resp.start(host, r.port());
        } catch (IllegalStateException e) {
            resp.close();
            resp = null;
            if (r.portSet()) {
                throw e; // a port asked for must be served
            }
            LOG.log(System.Logger.Level.WARNING, e.getMessage() + "; this node serves no RESP (set god.resp.port to"
                    + " another port, or -1 to say so)");
        }
    }

    /**
     * Where this node serves HTTP, as peers and browsers reach it: the advertise host and the port
     * the HTTP server listens on (Quarkus publishes a random test port as a system property).
     */
    static String httpAddress(String advertise) {
        String host = advertise.substring(0, advertise.lastIndexOf(':'));
        // with god.tls.* the data plane is HTTPS only, on quarkus.http.ssl-port (HttpTls)
        boolean tls = ConfigProvider.getConfig().getOptionalValue(io.god.node.TlsSettings.CERT_FILE, String.class)
                .filter(v -> !v.isBlank()).isPresent();
        String key = "quarkus.http." + (io.quarkus.runtime.LaunchMode.current() == io.quarkus.runtime.LaunchMode.TEST
                ? "test-" : "") + (tls ? "ssl-port" : "port");
        String port = System.getProperty(key);
        if (port == null) {
            port = ConfigProvider.getConfig().getOptionalValue(key, String.class).orElse(null);
        }
        return port == null || port.equals("0") ? null : (tls ? "https://" : "http://") + host + ":" + port.trim();
    }

    /** {@code god.metrics.expected-ring-size}: the members the ring should have (set by the operator). */
    static java.util.OptionalInt expectedRingSize() {
        var v = ConfigProvider.getConfig().getOptionalValue(EXPECTED_RING_SIZE, String.class).map(String::trim)
                .filter(x -> !x.isEmpty());
        if (v.isEmpty()) {
            return java.util.OptionalInt.empty();
        }
        try {
            int n = Integer.parseInt(v.get());
            if (n >= 1) {
                return java.util.OptionalInt.of(n);
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new IllegalArgumentException(EXPECTED_RING_SIZE + " must be a whole number >= 1, got '" + v.get() + "'");
    }

    @PreDestroy
    void stop() {
        if (resp != null) {
            resp.close();
        }
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

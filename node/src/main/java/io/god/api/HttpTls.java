package io.god.api;

import io.god.node.TlsSettings;
import io.smallrye.config.ConfigSourceContext;
import io.smallrye.config.ConfigSourceFactory;
import io.smallrye.config.ConfigValue;
import io.smallrye.config.common.MapBackedConfigSource;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.eclipse.microprofile.config.spi.ConfigSource;

/**
 * HTTP over TLS from the node's {@code god.tls.*} settings, so one set of settings (what the operator sets) covers
 * every port: when {@code god.tls.cert-file} is set, the TLS registry configuration {@code god} gets the same PEM
 * files and reload period, and the data-plane port ({@code quarkus.http.port}, 9192) serves HTTPS only with it.
 * The management port stays plain (pod-internal). The derived keys sit below application.properties (ordinal 240),
 * so any {@code quarkus.tls.*} or {@code quarkus.http.*} key set explicitly wins. Registered as a service
 * (META-INF/services/io.smallrye.config.ConfigSourceFactory).
 */
public final class HttpTls implements ConfigSourceFactory {

    static final int ORDINAL = 240;
    /** The TLS registry configuration of the data-plane HTTP server. */
    static final String NAME = "god";

    @Override
    public Iterable<ConfigSource> getConfigSources(ConfigSourceContext context) {
        String cert = value(context, TlsSettings.CERT_FILE);
        if (cert == null) {
            return List.of();
        }
        Map<String, String> derived = new HashMap<>();
        // a named configuration, used by the data-plane server alone: the default one would also put the
        // management interface (probes, metrics) on TLS
        derived.put("quarkus.tls." + NAME + ".key-store.pem.node.cert", cert);
        String key = value(context, TlsSettings.KEY_FILE);
        if (key != null) {
            derived.put("quarkus.tls." + NAME + ".key-store.pem.node.key", key);
        }
        String reload = value(context, TlsSettings.RELOAD_INTERVAL);
        derived.put("quarkus.tls." + NAME + ".reload-period", millis(reload) + "ms");
        derived.put("quarkus.http.tls-configuration-name", NAME);
        derived.put("quarkus.http.insecure-requests", "disabled");
        derived.put("quarkus.http.ssl-port", orDefault(value(context, "quarkus.http.port"), "9192"));
        derived.put("quarkus.http.test-ssl-port", orDefault(value(context, "quarkus.http.test-port"), "0"));
        return List.of(new MapBackedConfigSource("god.tls (HttpTls)", derived, ORDINAL) {
        });
    }

    @Override
    public OptionalInt getPriority() {
        return OptionalInt.of(ORDINAL);
    }

    private static String value(ConfigSourceContext context, String key) {
        ConfigValue v = context.getValue(key);
        return v == null || v.getValue() == null || v.getValue().isBlank() ? null : v.getValue().trim();
    }

    /** The reload period; an invalid value is reported by the node's settings (naming the key), not here. */
    private static long millis(String reload) {
        try {
            return reload == null ? 60_000 : Math.max(10, io.god.node.Durations.parse(reload).toMillis());
        } catch (IllegalArgumentException e) {
            return 60_000;
        }
    }

    private static String orDefault(String v, String fallback) {
        return v == null ? fallback : v;
    }
}

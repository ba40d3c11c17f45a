package io.god.operator.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.god.operator.resources.Ports;
import io.quarkus.arc.DefaultBean;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** {@link NodeAdmin} over HTTP with the JDK client: {@code http://<host>:9000/admin/status}. */
@DefaultBean
@ApplicationScoped
public class HttpNodeAdmin implements NodeAdmin {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http;
    private final Duration timeout;
    private final int port;
    private final Optional<String> token;

    public HttpNodeAdmin(@ConfigProperty(name = "god.operator.admin-timeout", defaultValue = "2s") Duration timeout,
            @ConfigProperty(name = "god.operator.admin-port", defaultValue = "" + Ports.MANAGEMENT) int port,
            @ConfigProperty(name = "god.operator.node-auth-token") Optional<String> token) {
        this.timeout = timeout;
        this.port = port;
        this.token = token.filter(t -> !t.isBlank());
        this.http = HttpClient.newBuilder().connectTimeout(timeout).version(HttpClient.Version.HTTP_1_1).build();
    }

    @Override
    public CompletionStage<NodeStatus> status(String host) {
        URI uri = URI.create("http://" + hostPart(host) + ":" + port + "/admin/status");
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(timeout).header("Accept", "application/json").GET();
        token.ifPresent(t -> request.header("Authorization", "Bearer " + t));
        return http.sendAsync(request.build(), HttpResponse.BodyHandlers.ofString())
                .thenCompose(response -> {
                    if (response.statusCode() != 200) {
                        return CompletableFuture.failedFuture(new IOException(
                                uri + " answered " + response.statusCode()));
                    }
                    try {
                        return CompletableFuture.completedFuture(parse(response.body()));
                    } catch (IOException e) {
                        return CompletableFuture.failedFuture(e);
                    }
                });
    }

    private static String hostPart(String host) {
        return host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host; // IPv6 pod IPs
    }

    /** Lenient: unknown fields are ignored, missing ones become null/0/false. */
    public static NodeStatus parse(String body) throws IOException {
        JsonNode n = JSON.readTree(body);
        if (n == null || !n.isObject() || !n.hasNonNull("state")) {
            throw new IOException("not an /admin/status document (no state): " + abbreviate(body));
        }
        JsonNode ring = n.get("ring");
        return new NodeStatus(text(n, "state"), text(n, "position"), text(n, "ringHash"),
                ring != null && ring.isArray() ? ring.size() : 0,
                n.path("replicated").asBoolean(false),
                n.path("ownedEntries").asLong(0), n.path("heldEntries").asLong(0), n.path("dataBytes").asLong(0),
                text(n, "lastSyncAt"), text(n, "lastAliveAt"), text(n, "collectedUpTo"), text(n, "quarantinedAt"));
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }

    private static String abbreviate(String s) {
        return s == null ? "null" : s.length() > 120 ? s.substring(0, 120) + "..." : s;
    }
}

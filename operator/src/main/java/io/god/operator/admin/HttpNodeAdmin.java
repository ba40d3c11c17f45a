package io.god.operator.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.god.operator.resources.Ports;
import io.quarkus.arc.DefaultBean;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
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

/** {@link NodeAdmin} over HTTP with the JDK client: {@code http://<host>:9000/admin/status} and {@code /admin/leave}. */
@DefaultBean
@ApplicationScoped
public class HttpNodeAdmin implements NodeAdmin {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http;
    private final Duration timeout;
    private final int port;
    private final Optional<String> token;

    /** Without a token: each cluster's calls take theirs through {@link #withToken}. */
    @Inject
    public HttpNodeAdmin(@ConfigProperty(name = "god.operator.admin-timeout", defaultValue = "2s") Duration timeout,
            @ConfigProperty(name = "god.operator.admin-port", defaultValue = "" + Ports.MANAGEMENT) int port) {
        this(HttpClient.newBuilder().connectTimeout(timeout).version(HttpClient.Version.HTTP_1_1).build(), timeout, port,
                Optional.empty());
    }

    public HttpNodeAdmin(Duration timeout, int port, Optional<String> token) {
        this(HttpClient.newBuilder().connectTimeout(timeout).version(HttpClient.Version.HTTP_1_1).build(), timeout, port,
                token);
    }

    private HttpNodeAdmin(HttpClient http, Duration timeout, int port, Optional<String> token) {
        this.http = http;
        this.timeout = timeout;
        this.port = port;
        this.token = token.filter(t -> !t.isBlank());
    }

    /** Shares this one's HTTP client (its connection pool). */
    @Override
    public NodeAdmin withToken(String token) {
        return new HttpNodeAdmin(http, timeout, port, Optional.ofNullable(token));
    }

    @Override
    public CompletionStage<NodeStatus> status(String host) {
        return send(host, "GET", "/admin/status").thenCompose(r -> r.code() == 200 ? parsed(r.body())
                : CompletableFuture.failedFuture(new IOException(r.uri() + " answered " + r.code())));
    }

    @Override
    public CompletionStage<LeaveAnswer> leave(String host) {
        return send(host, "POST", "/admin/leave").thenCompose(HttpNodeAdmin::leaveAnswer);
    }

    @Override
    public CompletionStage<LeaveAnswer> cancelLeave(String host) {
        return send(host, "DELETE", "/admin/leave").thenCompose(HttpNodeAdmin::leaveAnswer);
    }

    /** 200/202/204: removed; 404: a node without the call (tolerated); 409: refused with its reason. */
    @Override
    public CompletionStage<RemoveAnswer> removeMember(String host, String address, String position) {
        // the node names a member by its position (hex), or else its advertised address
        var body = JSON.createObjectNode().put("member", position != null ? position : address);
        return send(host, "POST", "/admin/remove-member", body.toString()).thenCompose(r -> {
            if (r.code() == 200 || r.code() == 202 || r.code() == 204) {
                return CompletableFuture.completedFuture(RemoveAnswer.removed());
            }
            if (r.code() == 404) {
                return CompletableFuture.completedFuture(RemoveAnswer.unsupported(r.uri() + " answered 404"));
            }
            if (r.code() == 409) {
                return CompletableFuture.completedFuture(RemoveAnswer.refused(abbreviate(r.body())));
            }
            return CompletableFuture.failedFuture(new IOException(r.uri() + " answered " + r.code()));
        });
    }

    /** 200/202 carry the status document, 409 an {"error"} refusal; anything else is a failure. */
    private static CompletionStage<LeaveAnswer> leaveAnswer(Answer r) {
        if (r.code() == 200 || r.code() == 202) {
            return parsed(r.body()).thenApply(LeaveAnswer::accepted);
        }
        if (r.code() == 409) {
            String reason;
            try {
                reason = JSON.readTree(r.body()).path("error").asText("");
            } catch (IOException e) {
                reason = "";
            }
            return CompletableFuture.completedFuture(
                    LeaveAnswer.refused(reason.isBlank() ? "409 " + abbreviate(r.body()) : reason));
        }
        return CompletableFuture.failedFuture(new IOException(r.uri() + " answered " + r.code()));
    }

    private record Answer(URI uri, int code, String body) {
    }

    private CompletableFuture<Answer> send(String host, String method, String path) {
        return send(host, method, path, null);
    }

    private CompletableFuture<Answer> send(String host, String method, String path, String json) {
        URI uri = URI.create("http://" + hostPart(host) + ":" + port + path);
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(timeout).header("Accept", "application/json")
                .method(method, json == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(json));
        if (json != null) {
            request.header("Content-Type", "application/json");
        }
        token.ifPresent(t -> request.header("Authorization", "Bearer " + t));
        return http.sendAsync(request.build(), HttpResponse.BodyHandlers.ofString())
                .thenApply(response -> new Answer(uri, response.statusCode(), response.body()));
    }

    private static CompletableFuture<NodeStatus> parsed(String body) {
        try {
            return CompletableFuture.completedFuture(parse(body));
        } catch (IOException e) {
            return CompletableFuture.failedFuture(e);
        }
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
                text(n, "lastSyncAt"), text(n, "lastAliveAt"), text(n, "collectedUpTo"), text(n, "quarantinedAt"),
                leave(n.get("leave")), ring(ring), n.path("redundancy").isInt() ? n.get("redundancy").asInt() : null);
    }

    private static NodeStatus.LeaveProgress leave(JsonNode l) {
        return l == null || !l.isObject() ? null : new NodeStatus.LeaveProgress(text(l, "phase"), text(l, "startedAt"),
                l.path("rangesTotal").asLong(0), l.path("rangesConfirmed").asLong(0), text(l, "lastError"));
    }

    private static java.util.List<NodeStatus.RingMember> ring(JsonNode ring) {
        java.util.List<NodeStatus.RingMember> members = new java.util.ArrayList<>();
        if (ring != null && ring.isArray()) {
            ring.forEach(m -> members.add(new NodeStatus.RingMember(text(m, "position"), text(m, "address"))));
        }
        return members;
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }

    private static String abbreviate(String s) {
        return s == null ? "null" : s.length() > 120 ? s.substring(0, 120) + "..." : s;
    }
}

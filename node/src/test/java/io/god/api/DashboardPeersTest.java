package io.god.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.god.api.web.DashboardRoutes;
import io.god.cluster.Rings;
import io.god.node.GodNode;
import io.god.testing.ScaledTimeout;
import io.god.testing.TimeScale;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /api/peers} on a 3-node ring whose HTTP ports have nothing to do with their binary
 * ports (as with {@code bin/god-ring}): every member is listed at the HTTP address it reports
 * itself over the binary protocol; a member that stopped is left out.
 */
@ScaledTimeout(120)
class DashboardPeersTest {

    @Test
    void everyMemberIsListedAtItsOwnHttpAddress() throws Exception {
        Vertx vertx = Vertx.vertx();
        List<HttpServer> servers = new ArrayList<>();
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        try (Rings rings = new Rings()) {
            Map<String, String> expected = new TreeMap<>();
            for (int i = 0; i < 3; i++) {
                GodNode node = rings.start(i, null, rings.address(0));
                Router router = Router.router(vertx);
                DashboardRoutes.mount(router, vertx, () -> node);
                expected.put(node.address(), serve(vertx, router, i, node, servers));
            }
            await().atMost(TimeScale.seconds(30)).until(() -> rings.converged()
                    && rings.nodes.get(0).membership().ring().size() == 3);
            String base = "http://127.0.0.2:" + servers.get(0).actualPort();
            assertThat(peers(http, base)).isEqualTo(expected);
            // the relay serves ring members only: anything else is a 404 naming it, no connection is made
            HttpResponse<String> bogus = http.send(HttpRequest.newBuilder(URI.create(base + "/ws/peer?addr=example.org:80"))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertThat(bogus.statusCode()).isEqualTo(404);
            assertThat(bogus.body()).contains("not a ring member: example.org:80");

            // a member that stopped answering is left out; the others are still listed
            String gone = rings.nodes.get(2).address();
            rings.nodes.get(2).close();
            expected.remove(gone);
            assertThat(peers(http, base)).isEqualTo(expected);
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(TimeScale.seconds(10).toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /**
     * The feed a peer relays to a browser (Ops.EVENTS, node to node over the binary port): a RingChange for a
     * new relay, then the bus's frames by cursor; a node that serves no feed refuses the call.
     */
    @Test
    void theRelayFeedGivesFramesByCursorOverTheBinaryPort() throws Exception {
        Vertx vertx = Vertx.vertx();
        try (Rings rings = new Rings()) {
            GodNode fed = rings.start(0, null, rings.address(0));
            GodNode asker = rings.start(1, null, rings.address(0));
            new io.god.api.ws.EventStream(vertx, fed.events(), new JsonRpc(fed), 500).serveFeed();
            await().atMost(TimeScale.seconds(30)).until(() -> rings.converged() && fed.membership().ring().size() == 2);

            JsonNode first = poll(asker, fed.address(), 0);
            long cursor = first.get("next").asLong();
            assertThat(first.get("frames")).singleElement().satisfies(f -> assertThat(f.get("type").asText())
                    .isEqualTo("RingChange"));
            fed.events().publish(new io.god.events.Event.Comm(new io.god.events.Event.NodeRef(fed.position(),
                    fed.address()), new io.god.events.Event.NodeRef(asker.position(), asker.address()),
                    "feed".getBytes(), null, "DHash.SlavePut"));
            JsonNode later = poll(asker, fed.address(), cursor);
            List<String> types = new ArrayList<>();
            later.get("frames").forEach(f -> types.add(f.get("type").asText() + " " + f.path("data").path("type").asText()));
            assertThat(types).contains("Comm DHash.SlavePut");
            long next = later.get("next").asLong();
            assertThat(next).isGreaterThan(cursor);
            assertThat(poll(asker, fed.address(), next + 1_000_000).get("frames")).as("a cursor from before a restart")
                    .isEmpty();
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> poll(fed, asker.address(), 0))
                    .hasMessageContaining("no event feed here");
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(TimeScale.seconds(10).toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /** One Ops.EVENTS call from {@code from} to {@code to}: {next, frames: [...]}. */
    private static JsonNode poll(GodNode from, String to, long cursor) throws Exception {
        byte[] reply = from.transport().call(to, io.god.wire.Ops.EVENTS,
                new io.god.wire.WireWriter().varint(cursor).varint(64).toBytes(), java.time.Duration.ofSeconds(5))
                .get(TimeScale.seconds(10).toMillis(), TimeUnit.MILLISECONDS);
        io.god.wire.WireReader r = new io.god.wire.WireReader(reply);
        ObjectMapper json = new ObjectMapper();
        com.fasterxml.jackson.databind.node.ObjectNode out = json.createObjectNode().put("next", r.varint());
        com.fasterxml.jackson.databind.node.ArrayNode frames = out.putArray("frames");
        int n = r.count(64);
        for (int i = 0; i < n; i++) {
            frames.add(json.readTree(r.string()));
        }
        return out;
    }

    private static Map<String, String> peers(HttpClient http, String base) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/api/peers")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        JsonNode json = new ObjectMapper().readTree(r.body());
        Map<String, String> out = new TreeMap<>();
        json.fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText()));
        return out;
    }

    /**
     * Serves {@code router} for ring member i on its own loopback host (127.0.0.(2+i), as {@link Rings}),
     * on a free port unrelated to its binary port, and makes the node report that URL as its HTTP address.
     */
    static String serve(Vertx vertx, Router router, int i, GodNode node, List<HttpServer> servers) throws Exception {
        String host = "127.0.0." + (2 + i);
        HttpServer server = vertx.createHttpServer().requestHandler(router).listen(0, host)
                .toCompletionStage().toCompletableFuture().get(TimeScale.seconds(10).toMillis(), TimeUnit.MILLISECONDS);
        servers.add(server);
        String url = "http://" + host + ":" + server.actualPort();
        node.httpAddress(() -> url);
        return url;
    }
}

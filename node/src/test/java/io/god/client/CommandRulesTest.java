package io.god.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.god.api.JsonRpc;
import io.god.command.CommandError;
import io.god.node.GodNode;
import io.god.request.Command;
import io.god.wire.Call;
import io.god.wire.DataCall;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The rules of the command core are one rule each, whatever the front end: every command through every codec that
 * carries it — the JSON contract ({@code /rpc}), the typed execution {@code /v1} uses, and the binary data calls —
 * is refused the same way, with the same message: a mutating command without the credential (401), any command but
 * the node's own while it joins its ring (503; the ring view too), an oversize key (400, reads included).
 */
class CommandRulesTest {

    static final ObjectMapper JSON = JsonRpc.mapper();

    static String b64(String s) {
        return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
    }

    /** A valid body of each command's shape. */
    static String body(Command c, String key) {
        return switch (c.shape()) {
            case CONFIGURATION -> "{\"TreeKey\":\"" + b64(key) + "\",\"Key\":\"mirrored\",\"Value\":\"yes\"}";
            case SET_EXPRESSION -> "{\"Code\":\"(U " + key + ")\"}";
            case KEYED -> "{\"Key\":\"" + b64(key) + "\",\"SubKey\":\"" + b64("s") + "\",\"Value\":\"" + b64("v")
                    + "\"}";
        };
    }

    /** The binary data call of a command, when it has one. */
    static DataCall binary(Command c, String key) {
        int kind = switch (c) {
            case GET -> DataCall.GET;
            case PUT -> DataCall.PUT;
            case DEL -> DataCall.DEL;
            case SUB_GET -> DataCall.SUB_GET;
            case SUB_PUT -> DataCall.SUB_PUT;
            case SUB_DEL -> DataCall.SUB_DEL;
            default -> 0;
        };
        if (kind == 0) {
            return null;
        }
        byte[] k = key.getBytes(StandardCharsets.UTF_8);
        byte[] sub = kind >= DataCall.SUB_GET ? "s".getBytes(StandardCharsets.UTF_8) : null;
        byte[] v = kind == DataCall.PUT || kind == DataCall.SUB_PUT ? "v".getBytes(StandardCharsets.UTF_8) : null;
        return new DataCall(kind, k, sub, v, false, null, 0, Call.ROUTE, 0);
    }

    /** Runs the command through each codec without a credential; each must answer {@code status} with {@code message}. */
    static void refusedEverywhere(JsonRpc rpc, String address, String token, Command c, String key, int status,
            String message) throws Exception {
        JsonRpc.Response json = rpc.handle("DHash." + c.method(), body(c, key).getBytes(StandardCharsets.UTF_8), null);
        assertThat(json.status()).as(c + " over /rpc: " + json.text()).isEqualTo(status);
        assertThat(JSON.readValue(json.body(), String.class)).as(c + " over /rpc").isEqualTo(message);

        io.god.request.Request request = io.god.command.JsonRequests.of(c,
                JSON.readValue(body(c, key), io.god.command.JsonRequests.wireType(c)));
        assertThatThrownBy(() -> rpc.execute(request, null)).as(c + " typed (/v1)")
                .isInstanceOfSatisfying(CommandError.class, e -> {
                    assertThat(e.status()).isEqualTo(status);
                    assertThat(e.getMessage()).isEqualTo(message);
                });

        DataCall call = binary(c, key);
        if (call != null) {
            DataCall.Reply r = GodClientDataOpsTest.raw(address, token, call);
            assertThat(r.status()).as(c + " binary").isEqualTo(status);
            assertThat(r.message()).as(c + " binary").isEqualTo(message);
        }
    }

    @Test
    void aMutatingCommandWithoutTheCredentialIsRefusedByEveryCodecAlike() throws Exception {
        try (ClientRings rings = new ClientRings()) {
            rings.extra.put("god.auth.token", "s3cret-token");
            rings.start(1);
            GodNode node = rings.nodes.get(0);
            JsonRpc rpc = new JsonRpc(node);
            int mutating = 0;
            for (Command c : Command.values()) {
                if (c.is(Command.Flag.MUTATING)) {
                    mutating++;
                    refusedEverywhere(rpc, rings.address(0), "s3cret-token", c, "k", 401,
                            "DHash." + c.method() + " needs Authorization: Bearer <god.auth.token>");
                }
            }
            assertThat(mutating).isEqualTo(9);
            assertThat(node.store().state().size()).as("nothing changed").isZero();
        }
    }

    /**
     * god.auth.reads: every command but the ring view needs the credential, on every codec alike; the GodClient,
     * which sends its token with every call, reads; the dashboard's /ws streams (they carry keys) answer 401 without
     * it.
     */
    @Test
    void withProtectedReadsEveryCommandButTheRingViewNeedsTheCredential() throws Exception {
        try (ClientRings rings = new ClientRings()) {
            rings.extra.put("god.auth.token", "s3cret-token");
            rings.extra.put("god.auth.reads", "true");
            rings.start(1);
            GodNode node = rings.nodes.get(0);
            JsonRpc rpc = new JsonRpc(node);
            for (Command c : Command.values()) {
                if (c.is(Command.Flag.RING_VIEW)) {
                    assertThat(rpc.handle("DHash." + c.method(), "{}".getBytes(StandardCharsets.UTF_8), null).status())
                            .as(c + ": clients route with it").isEqualTo(200);
                } else {
                    refusedEverywhere(rpc, rings.address(0), "s3cret-token", c, "k", 401,
                            "DHash." + c.method() + " needs Authorization: Bearer <god.auth.token>");
                }
            }
            try (GodClient client = GodClient.builder().endpoints(rings.address(0)).token("s3cret-token").build()) {
                client.put(GodClient.utf8("k"), GodClient.utf8("v"));
                assertThat(new String(client.get(GodClient.utf8("k")).value(), StandardCharsets.UTF_8)).isEqualTo("v");
            }
            io.vertx.core.Vertx vertx = io.vertx.core.Vertx.vertx();
            try {
                io.vertx.ext.web.Router router = io.vertx.ext.web.Router.router(vertx);
                io.god.api.ws.EventStream.mount(router, vertx, () -> rpc, 500);
                io.god.api.web.DashboardRoutes.mount(router, vertx, () -> node);
                int port = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1")
                        .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS).actualPort();
                java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
                for (String path : new String[] {"/ws", "/ws/peer?addr=" + rings.address(0)}) {
                    var r = http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + port
                            + path)).build(), java.net.http.HttpResponse.BodyHandlers.ofString());
                    assertThat(r.statusCode()).as(path).isEqualTo(401);
                    assertThat(r.body()).contains("needs Authorization: Bearer <god.auth.token> (god.auth.reads is on)");
                }
            } finally {
                vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            }
        }
    }

    /**
     * A rotation: a ring whose nodes took the new token and still accept the old one serves callers of both, over
     * JSON and over the binary protocol (its hello); a third token is refused. Once the old token is dropped from
     * the settings, it is refused too.
     */
    @Test
    void duringARotationTheOldAndTheNewTokenAreAccepted() throws Exception {
        String put = "{\"Key\":\"" + b64("k") + "\",\"Value\":\"" + b64("v") + "\"}";
        try (ClientRings rings = new ClientRings()) {
            rings.extra.put("god.auth.token", "new-token-2");
            rings.extra.put("god.auth.previous-tokens", "old-token-1");
            rings.start(2);
            JsonRpc rpc = new JsonRpc(rings.nodes.get(0));
            for (String token : new String[] {"old-token-1", "new-token-2"}) {
                assertThat(rpc.handle("DHash.Put", put.getBytes(StandardCharsets.UTF_8), "Bearer " + token).status())
                        .as(token).isEqualTo(200);
                try (GodClient client = GodClient.builder().endpoints(rings.address(1)).token(token).build()) {
                    client.put(GodClient.utf8("by-" + token), GodClient.utf8("v"), true);
                }
            }
            assertThat(rpc.handle("DHash.Put", put.getBytes(StandardCharsets.UTF_8), "Bearer third-token").status())
                    .isEqualTo(401);
        }
        try (ClientRings rings = new ClientRings()) {
            rings.extra.put("god.auth.token", "new-token-2");
            rings.start(1);
            assertThat(new JsonRpc(rings.nodes.get(0)).handle("DHash.Put", put.getBytes(StandardCharsets.UTF_8),
                    "Bearer old-token-1").status()).as("the old token after the rotation").isEqualTo(401);
            try (GodClient old = GodClient.builder().endpoints(rings.address(0)).token("old-token-1").gateway(true)
                    .build()) {
                assertThatThrownBy(() -> old.put(GodClient.utf8("k"), GodClient.utf8("v")))
                        .as("its hello is refused").isInstanceOf(RuntimeException.class);
            }
        }
    }

    static final String CLIENT = "client-token-1";
    static final String PEER = "peer-token-22";
    static final String ADMIN = "admin-token-333";
    static final String METRICS = "metrics-token-4444";

    /** The outcome of one raw binary request: "200", a DataCall status, or "refused: <message>". */
    static String binary(String address, String hello, int op, byte[] payload) {
        try (NodeConnection c = new NodeConnection(address, hello, 2000)) {
            byte[] r = c.call(op, payload, TimeUnit.SECONDS.toNanos(5));
            return op == io.god.wire.Ops.DATA ? String.valueOf(DataCall.Reply.decode(r).status()) : "200";
        } catch (Exception e) {
            return "refused: " + e.getMessage();
        }
    }

    static byte[] put(String key, String authorization, int hops, long stamp) {
        return new DataCall(DataCall.PUT, key.getBytes(StandardCharsets.UTF_8), null,
                "v".getBytes(StandardCharsets.UTF_8), false, authorization, hops, Call.ROUTE, stamp).encode();
    }

    /** The status code of a GET on the management routes with this token (null: none). */
    static String management(java.net.http.HttpClient http, int port, String path, String token) throws Exception {
        var request = java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + port + path));
        if (token != null) {
            request.header("Authorization", bearer(token));
        }
        return String.valueOf(http.send(request.build(), java.net.http.HttpResponse.BodyHandlers.ofString())
                .statusCode());
    }

    static String bearer(String token) {
        return token == null ? null : "Bearer " + token;
    }

    /**
     * Three credentials apart (issue 32): the table over front end × credential — none, client, peer, admin. Data
     * commands take the client (or admin) credential, never the peer's; ring traffic and forwarded calls (a write
     * stamp, hops) take the peer's only; the management port and, with god.auth.clear=admin, Clear take the admin's
     * (403 for a credential of another kind, 401 for none). A call through a forwarding node is authorised by the
     * client credential it carries: the forwarding peer adds no rights. The metrics credential (issue 34) reads
     * {@code GET /q/metrics} and nothing else: no data call, no hello on the binary port, no /admin route.
     */
    @Test
    void eachCredentialOpensItsOwnKindOfCallOnEveryFrontEnd() throws Exception {
        try (ClientRings rings = new ClientRings()) {
            rings.extra.put("god.auth.token", CLIENT);
            rings.extra.put("god.auth.peer-token", PEER);
            rings.extra.put("god.auth.admin-token", ADMIN);
            rings.extra.put("god.auth.metrics-token", METRICS);
            rings.extra.put("god.auth.clear", "admin");
            rings.start(3);
            GodNode node = rings.nodes.get(0);
            JsonRpc rpc = new JsonRpc(node);
            String[] tokens = {null, CLIENT, PEER, ADMIN, METRICS};
            String put = body(Command.PUT, "k");
            long stamp = node.timestamps().next();
            io.vertx.core.Vertx vertx = io.vertx.core.Vertx.vertx();
            try {
                io.vertx.ext.web.Router router = io.vertx.ext.web.Router.router(vertx);
                io.god.api.AdminRoutes.mount(router, () -> node);
                // stands for Micrometer's route: the admission filter comes first on the real port too
                router.get("/q/metrics").handler(ctx -> ctx.end("god_ring_members 3"));
                int port = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1")
                        .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS).actualPort();
                java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
                java.util.Map<String, java.util.List<String>> table = new java.util.LinkedHashMap<>();
                for (String token : tokens) {
                    java.util.List<String> row = new java.util.ArrayList<>();
                    row.add(String.valueOf(rpc.handle("DHash.Put", put.getBytes(StandardCharsets.UTF_8),
                            bearer(token)).status()));
                    row.add(binary(rings.address(0), token, io.god.wire.Ops.DATA, put("k", bearer(token), 0, 0)));
                    // a write stamp (or hops) says "forwarded by a ring member": the connection must be a peer's
                    row.add(binary(rings.address(0), token, io.god.wire.Ops.DATA, put("k", bearer(CLIENT), 1, stamp)));
                    row.add(binary(rings.address(0), token, io.god.wire.Ops.DATA, put("k", bearer(CLIENT), 1, 0)));
                    // ring traffic: the time network (harmless) and a join
                    row.add(binary(rings.address(0), token, io.god.wire.Ops.TIME, new byte[0]));
                    row.add(binary(rings.address(0), token, io.god.wire.Ops.GOSSIP, new byte[0]));
                    // god-backup's calls: a backup's INFO question, a restore's replication (of no records)
                    row.add(binary(rings.address(0), token, io.god.wire.Ops.BACKUP, new byte[] {2}));
                    row.add(binary(rings.address(0), token, io.god.wire.Ops.REPLICATE, new byte[] {0}));
                    row.add(management(http, port, "/admin/status", token));
                    row.add(String.valueOf(rpc.handle("DHash.Clear", "{}".getBytes(StandardCharsets.UTF_8),
                            bearer(token)).status()));
                    row.add(management(http, port, "/q/metrics", token));
                    table.put(token == null ? "none" : token, row);
                }
                String refused = "refused: " + rings.address(0) + ": ";
                String ring = " is ring traffic, refused (403): it needs the peer credential (god.auth.peer-token)";
                String backup = " is ring traffic, refused (403): it needs the peer credential (god.auth.peer-token) "
                        + "or the admin credential (god.auth.admin-token)";
                // columns: /rpc Put, binary Put, stamped Put, Put with hops, TIME, GOSSIP, BACKUP, REPLICATE,
                // /admin/status, Clear, GET /q/metrics
                java.util.List<String> none = table.get("none");
                assertThat(none.get(0)).isEqualTo("401");
                assertThat(none.subList(1, 8)).as("no hello accepted").allSatisfy(c -> assertThat(c)
                        .startsWith("refused:").contains("god.auth.token"));
                assertThat(none.subList(8, 11)).containsExactly("401", "401", "401");
                java.util.List<String> client = table.get(CLIENT);
                assertThat(client).containsExactly("200", "200", "403", "403", refused + "Timenet.ActualTime" + ring,
                        refused + "Discord.Gossip" + ring, refused + "DHash.Backup" + backup,
                        refused + "DHash.Replicate" + backup, "403", "403", "403");
                java.util.List<String> peer = table.get(PEER);
                assertThat(peer.subList(0, 5)).as("peer: ring traffic and forwarding, no data rights of its own")
                        .containsExactly("401", "401", "200", "200", "200");
                // past the gate: its payload is no members list ("(403)": a bare 403 was once the node's port, 40355)
                assertThat(peer.get(5)).doesNotContain("(403)");
                assertThat(peer.subList(6, 11)).containsExactly("200", "200", "403", "403", "403");
                java.util.List<String> admin = table.get(ADMIN);
                assertThat(admin).as("admin: data and management, backup and restore, no other ring traffic")
                        .containsExactly("200", "200", "403", "403", refused + "Timenet.ActualTime" + ring,
                                refused + "Discord.Gossip" + ring, "200", "200", "200", "200", "200");
                java.util.List<String> metrics = table.get(METRICS);
                assertThat(metrics.get(0)).as("metrics: no data write").isEqualTo("401");
                assertThat(metrics.subList(1, 8)).as("metrics: no hello on the binary port")
                        .allSatisfy(c -> assertThat(c).startsWith("refused:"));
                assertThat(metrics.subList(8, 11)).as("metrics: /q/metrics only").containsExactly("403", "403", "200");
            } finally {
                vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            }
            // a peer carrying no client credential in a forwarded write adds no rights: 401 at the owner
            assertThat(binary(rings.address(0), PEER, io.god.wire.Ops.DATA, put("k", bearer(PEER), 1, stamp)))
                    .isEqualTo("401");
            // through a forwarding node: node 0 forwards to each key's owner over its peer connection; the owner
            // authorises the client credential the call carries
            int forwarded = 0;
            try (GodClient client = GodClient.builder().endpoints(rings.address(0)).token(CLIENT).gateway(true)
                    .build(); GodClient peer = GodClient.builder().endpoints(rings.address(0)).token(PEER)
                    .gateway(true).build()) {
                for (int i = 0; i < 20; i++) {
                    byte[] key = {(byte) (i * 12), 'f', 'w', 'd'}; // raw keys: spread over the ring's arcs
                    String owner = node.cluster().ring().replicas(key, 3).get(0).address();
                    if (!owner.equals(rings.address(0))) {
                        forwarded++;
                        client.put(key, GodClient.utf8("v" + i), true);
                        assertThat(rings.byAddress(owner).store().state().get(key).exists()).as(owner).isTrue();
                        assertThatThrownBy(() -> peer.put(key, GodClient.utf8("x"), true))
                                .isInstanceOfSatisfying(GodRequestException.class,
                                        e -> assertThat(e.status()).isEqualTo(401));
                        assertThat(new String(client.get(key).value(), StandardCharsets.UTF_8)).isEqualTo("v" + i);
                    }
                }
            }
            assertThat(forwarded).as("keys owned by another node").isPositive();
        }
    }

    @Test
    void aJoiningNodeRefusesEveryCommandButItsOwnByEveryCodecAlike() throws Exception {
        try (ClientRings rings = new ClientRings()) {
            GodNode joining = rings.startJoining(1); // its seed, node 0, never starts
            JsonRpc rpc = new JsonRpc(joining);
            assertThat(joining.state()).isEqualTo(GodNode.State.JOINING);
            for (Command c : Command.values()) {
                if (c.is(Command.Flag.RING_VIEW)) {
                    refusedEverywhere(rpc, rings.address(1), null, c, "k", 503,
                            "this node is still joining the ring (god.seeds); ask another member");
                } else if (c.is(Command.Flag.LOCAL)) {
                    JsonRpc.Response r = rpc.handle("DHash." + c.method(), "{}".getBytes(StandardCharsets.UTF_8), null);
                    assertThat(r.status()).as(c + " is the node's own: " + r.text()).isEqualTo(200);
                } else {
                    refusedEverywhere(rpc, rings.address(1), null, c, "k", 503,
                            "this node is still joining the ring (god.seeds); retry shortly");
                }
            }
        }
    }

    @Test
    void anOversizeKeyIsRefusedByEveryCodecAlike() throws Exception {
        try (ClientRings rings = new ClientRings()) {
            rings.extra.put("god.limits.key-size", "8");
            rings.start(1);
            JsonRpc rpc = new JsonRpc(rings.nodes.get(0));
            String key = "nine-byte";
            for (Command c : new Command[] {Command.PUT, Command.GET, Command.SUB_PUT, Command.DEL}) {
                refusedEverywhere(rpc, rings.address(0), null, c, key, 400,
                        "Key of 9 bytes exceeds god.limits.key-size (8 bytes)");
            }
            assertThat(rings.nodes.get(0).store().state().size()).as("nothing changed").isZero();
        }
    }
}

package io.god.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.god.client.GodClient;
import io.god.command.ProtectedMode;
import io.god.node.GodNode;
import io.god.node.NodeSettings;
import io.god.resp.RespServer;
import io.god.testing.ScaledTimeout;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Protected mode (issue 32, after Redis): a node started with no credential and no {@code god.node.host} keeps
 * listening but refuses a client on another machine — here a network namespace joined to this one by a veth pair
 * with 10.78.x addresses the test creates — on every port with an explanation: the binary port an error frame,
 * RESP {@code -DENIED}, HTTP 403 {@code {"error": ...}}; loopback clients are served. Needs root and ip.
 */
@ScaledTimeout(120)
class ProtectedModeTest {

    static final long ID = ProcessHandle.current().pid() % 200;
    static final String NS = "godpm" + ID;
    static final String HOST_LINK = "gpmh" + ID;
    static final String NS_LINK = "gpmn" + ID;
    static final String HOST_IP = "10.78." + (20 + ID) + ".1";
    static final String NS_IP = "10.78." + (20 + ID) + ".2";

    @Test
    void aNodeWithoutTokenOrBindAddressServesOnlyLoopbackClients() throws Exception {
        String missing = unavailable();
        assumeTrue(missing == null, missing);
        int port = freePort();
        GodNode node = null;
        RespServer resp = null;
        Vertx vertx = Vertx.vertx();
        try {
            createNamespace();
            node = GodNode.start(NodeSettings.of(Map.of("god.node.port", String.valueOf(port),
                    "god.node.advertise", "0.0.0.0:" + port)));
            assertThat(node.settings().protectedMode()).isTrue();
            assertThat(node.settings().credentialsNote()).contains("protected mode");
            resp = new RespServer(vertx, new JsonRpc(node), true, 10, 2, 1);
            resp.loopbackOnly(node.settings().protectedMode());
            int respPort = resp.start("0.0.0.0", 0);
            Router router = Router.router(vertx);
            ProtectedModeRoutes.mount(router, node.settings().protectedMode());
            router.route("/hello").handler(ctx -> ctx.end("route-reached"));
            int httpPort = vertx.createHttpServer().requestHandler(router).listen(0, "0.0.0.0").toCompletionStage()
                    .toCompletableFuture().get(10, TimeUnit.SECONDS).actualPort();
            String get = "GET /hello HTTP/1.1\r\nHost: node\r\nConnection: close\r\n\r\n";

            // from the other machine: refused, saying why and what to set
            assertThat(fromNamespace(port, "")).as("binary port").contains(ProtectedMode.MESSAGE);
            assertThat(fromNamespace(respPort, "PING\r\n")).as("RESP")
                    .isEqualTo("-DENIED " + ProtectedMode.MESSAGE + "\r\n");
            assertThat(fromNamespace(httpPort, get)).as("HTTP").startsWith("HTTP/1.1 403")
                    .contains("{\"error\":\"" + ProtectedMode.MESSAGE + "\"}").doesNotContain("route-reached");

            // from this machine (loopback): served
            try (GodClient client = GodClient.builder().endpoints("127.0.0.1:" + port).gateway(true).build()) {
                client.put(GodClient.utf8("k"), GodClient.utf8("v"), true);
                assertThat(new String(client.get(GodClient.utf8("k")).value(), StandardCharsets.UTF_8)).isEqualTo("v");
            }
            assertThat(local(respPort, "PING\r\n")).isEqualTo("+PONG\r\n");
            assertThat(local(httpPort, get)).startsWith("HTTP/1.1 200").endsWith("route-reached");
        } finally {
            if (resp != null) {
                resp.close();
            }
            if (node != null) {
                node.close();
            }
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            deleteNamespace();
        }
    }

    @Test
    void aTokenOrABindAddressSwitchesProtectedModeOff() {
        assertThat(NodeSettings.of(Map.of()).protectedMode()).isTrue();
        assertThat(NodeSettings.of(Map.of("god.auth.token", "s3cret-token")).protectedMode()).isFalse();
        assertThat(NodeSettings.of(Map.of("god.auth.peer-token", "peer-token-22")).protectedMode()).isFalse();
        assertThat(NodeSettings.of(Map.of("god.node.host", "0.0.0.0")).protectedMode()).isFalse();
        assertThat(NodeSettings.of(Map.of("god.auth.token", "s3cret-token")).credentialsNote())
                .contains("god.auth.peer-token unset").contains("god.auth.admin-token unset");
        assertThat(NodeSettings.of(Map.of("god.auth.token", "s3cret-token", "god.auth.peer-token", "peer-token-22",
                "god.auth.admin-token", "admin-token-333")).credentialsNote()).isNull();
    }

    // ------------------------------------------------------------------ the other machine

    static String unavailable() {
        if (!"root".equals(System.getProperty("user.name"))) {
            return "protected mode's test needs root to create a network namespace";
        }
        try {
            return sh(List.of("ip", "netns", "list")).exit == 0 ? null : "ip netns is unavailable";
        } catch (IOException e) {
            return "ip is missing: " + e.getMessage();
        }
    }

    static void createNamespace() throws IOException {
        deleteNamespace(); // a previous run's, killed before its cleanup
        for (List<String> cmd : List.of(List.of("ip", "netns", "add", NS),
                List.of("ip", "link", "add", HOST_LINK, "type", "veth", "peer", "name", NS_LINK),
                List.of("ip", "link", "set", NS_LINK, "netns", NS),
                List.of("ip", "addr", "add", HOST_IP + "/30", "dev", HOST_LINK),
                List.of("ip", "link", "set", HOST_LINK, "up"),
                List.of("ip", "netns", "exec", NS, "ip", "addr", "add", NS_IP + "/30", "dev", NS_LINK),
                List.of("ip", "netns", "exec", NS, "ip", "link", "set", NS_LINK, "up"))) {
            Sh r = sh(cmd);
            if (r.exit != 0) {
                throw new IOException(String.join(" ", cmd) + ": " + r.output);
            }
        }
    }

    static void deleteNamespace() throws IOException {
        sh(List.of("ip", "netns", "delete", NS));
        sh(List.of("ip", "link", "delete", HOST_LINK)); // gone with the namespace, unless that failed half way
    }

    /** What a client in the namespace reads after sending {@code request} to this machine's veth address. */
    static String fromNamespace(int port, String request) throws IOException {
        Sh r = sh(List.of("ip", "netns", "exec", NS, "timeout", "10", "bash", "-c",
                "exec 3<>/dev/tcp/" + HOST_IP + "/" + port + " && printf '%s' \"$REQ\" >&3 && timeout 3 cat <&3"),
                Map.of("REQ", request));
        return r.output;
    }

    static String local(int port, String request) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
            s.setSoTimeout(5000);
            OutputStream out = s.getOutputStream();
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = s.getInputStream();
            StringBuilder b = new StringBuilder();
            byte[] buf = new byte[4096];
            try {
                for (int n; (n = in.read(buf)) > 0; ) {
                    b.append(new String(buf, 0, n, StandardCharsets.ISO_8859_1));
                    if (request.startsWith("PING") && b.indexOf("\r\n") >= 0) {
                        break;
                    }
                }
            } catch (java.net.SocketTimeoutException e) {
                // what came is the answer
            }
            return b.toString();
        }
    }

    record Sh(int exit, String output) {
    }

    static Sh sh(List<String> cmd) throws IOException {
        return sh(cmd, Map.of());
    }

    static Sh sh(List<String> cmd, Map<String, String> env) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().putAll(env);
        Process p = pb.start();
        try {
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(20, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
            return new Sh(p.exitValue(), new String(out, StandardCharsets.ISO_8859_1));
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}

package io.god.limits;

import static org.awaitility.Awaitility.await;

import io.god.api.JsonRpc;
import io.god.api.RpcRoutes;
import io.god.node.GodNode;
import io.god.node.NodeSettings;
import io.god.testing.TimeScale;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A node in a child JVM (OutOfMemoryExitTest, PausedWriteTest): one in-memory node behind its own HTTP
 * server with the settings given as {@code key=value} arguments; prints {@code PORT <n>} and serves
 * until killed. {@link #start} launches it with output to a file and waits for the port.
 */
public final class NodeChild {

    private static final Pattern PORT_LINE = Pattern.compile("PORT (\\d+)");
    /** Not a node setting: starts a RESP listener too (value: its max-connections) and prints {@code RESP <n>}. */
    public static final String RESP = "child.resp.max-connections";

    /** The child process and the port of its god JSON contract. */
    public record Started(Process process, int port) {
    }

    private NodeChild() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> settings = new HashMap<>();
        for (String a : args) {
            int eq = a.indexOf('=');
            settings.put(a.substring(0, eq), a.substring(eq + 1));
        }
        String resp = settings.remove(RESP);
        GodNode node = GodNode.start(NodeSettings.of(settings));
        JsonRpc rpc = new JsonRpc(node);
        Vertx vertx = Vertx.vertx();
        if (resp != null) { // its RESP listener too, with this many connections at most
            int respPort = new io.god.resp.RespServer(vertx, rpc, true, Integer.parseInt(resp), 4, 2).start("127.0.0.1", 0);
            System.out.println("RESP " + respPort);
        }
        Router router = Router.router(vertx);
        RpcRoutes.mount(router, () -> rpc, node.settings().bodySize());
        int port = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1").toCompletionStage()
                .toCompletableFuture().get(30, TimeUnit.SECONDS).actualPort();
        System.out.println("PORT " + port);
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }

    /**
     * Starts a child with {@code heap} (e.g. {@code -Xmx96m}), exiting on OutOfMemoryError as every launch
     * path does, its output in {@code out}; waits (bounded) until it serves. The caller destroys it.
     */
    public static Started start(Path out, String heap, String... settings) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java, heap, "-XX:+ExitOnOutOfMemoryError", "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"), NodeChild.class.getName(),
                "god.node.advertise=127.0.0.1:9191", "god.node.port=0"));
        cmd.addAll(List.of(settings));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        try {
            int port = await().atMost(TimeScale.seconds(60)).pollInterval(Duration.ofMillis(100))
                    .until(() -> port(out), n -> n > 0);
            return new Started(p, port);
        } catch (RuntimeException | Error e) {
            p.destroyForcibly();
            throw e;
        }
    }

    /** The RESP port a child started with {@link #RESP} printed (it prints it before its PORT line). */
    public static int respPort(Path out) throws IOException {
        return number(out, Pattern.compile("RESP (\\d+)"));
    }

    private static int port(Path out) throws IOException {
        return number(out, PORT_LINE);
    }

    private static int number(Path out, Pattern line) throws IOException {
        if (!Files.exists(out)) {
            return 0;
        }
        for (String l : Files.readAllLines(out, StandardCharsets.UTF_8)) {
            Matcher m = line.matcher(l);
            if (m.matches()) {
                return Integer.parseInt(m.group(1));
            }
        }
        return 0;
    }
}

package io.god.time;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.god.limits.NodeChild;
import io.god.testing.TimeScale;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real node process stopped with SIGSTOP while a client's put waits in its socket: on SIGCONT the put
 * is refused (503, nothing written) instead of being stamped after the pause — its client may have
 * written elsewhere and deleted the key meanwhile (the chaos campaign's delayed write through a paused
 * owner). Writes that come after the pause are stamped as usual.
 */
class PausedWriteTest {

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @Test
    void aWriteThatWaitedInAPauseIsRefusedAndWritesNothing(@TempDir Path dir) throws Exception {
        NodeChild.Started child = NodeChild.start(dir.resolve("child.log"), "-Xmx128m");
        Process p = child.process();
        int port = child.port();
        try {
            assertThat(putUntilStored(port, "before")).isEqualTo(200);

            signal("STOP", p.pid());
            CompletableFuture<HttpResponse<String>> late;
            try {
                late = HTTP.sendAsync(put(port, "late"), HttpResponse.BodyHandlers.ofString());
                Thread.sleep(2_000); // the fault: a pause longer than a client's one-second attempt
            } finally {
                signal("CONT", p.pid());
            }
            HttpResponse<String> refused = late.get(TimeScale.seconds(30).toMillis(), TimeUnit.MILLISECONDS);
            assertThat(refused.statusCode()).as(refused.body()).isEqualTo(503);
            assertThat(refused.body()).contains("this node was paused");
            assertThat(get(port, "late")).as("the refused write changed nothing").contains("\"Exists\":false");

            assertThat(putUntilStored(port, "after")).as("a write after the pause").isEqualTo(200);
            assertThat(get(port, "after")).contains("\"Exists\":true");
        } finally {
            p.destroyForcibly();
            p.waitFor(TimeScale.seconds(10).toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /** A put, retried while the node says it was just paused (a loaded machine may stall its watch too). */
    private static int putUntilStored(int port, String key) {
        return await().atMost(TimeScale.seconds(20)).pollInterval(Duration.ofMillis(200))
                .until(() -> HTTP.send(put(port, key), HttpResponse.BodyHandlers.ofString()).statusCode(),
                        status -> status != 503);
    }

    private static HttpRequest put(int port, String key) {
        String body = "{\"Key\":\"" + b64(key) + "\",\"Value\":\"" + b64("v-" + key) + "\"}";
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/rpc/DHash.Put"))
                .timeout(TimeScale.seconds(30)).POST(HttpRequest.BodyPublishers.ofString(body)).build();
    }

    private static String get(int port, String key) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/rpc/DHash.Get"))
                .timeout(TimeScale.seconds(30)).POST(HttpRequest.BodyPublishers.ofString(
                        "{\"Key\":\"" + b64(key) + "\"}")).build(), HttpResponse.BodyHandlers.ofString()).body();
    }

    private static String b64(String s) {
        return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
    }

    private static void signal(String name, long pid) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(pid)).inheritIO().start();
        assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(kill.exitValue()).as("kill -" + name).isZero();
    }
}

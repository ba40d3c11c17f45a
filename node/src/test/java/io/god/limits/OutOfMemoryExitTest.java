package io.god.limits;

import static org.assertj.core.api.Assertions.assertThat;

import io.god.testing.TimeScale;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node whose limits were raised far beyond its heap dies cleanly on OutOfMemoryError (the JVM's
 * exit code 3 and its log line, from {@code -XX:+ExitOnOutOfMemoryError} as every launch path sets
 * it) instead of staying half-alive with dead background threads.
 */
class OutOfMemoryExitTest {

    @Test
    void aNodeWithRaisedLimitsExitsWithTheOomCodeInsteadOfStayingHalfAlive(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("child.log");
        NodeChild.Started child = NodeChild.start(out, "-Xmx96m", "god.limits.body-size=64M",
                "god.limits.set-sources=100000000", "god.limits.json-string=1G", "god.limits.eval-time=10m");
        Process p = child.process();
        int port = child.port();
        try {
            // 4 M sources in 8 MB: within the raised limits, far beyond a 96 MB heap
            String code = "(U " + "a ".repeat(4_000_000) + ")";
            HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            try {
                http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/rpc/DHash.SetExpression"))
                        .timeout(TimeScale.seconds(60))
                        .POST(HttpRequest.BodyPublishers.ofString("{\"Code\":\"" + code + "\"}")).build(),
                        HttpResponse.BodyHandlers.ofString());
            } catch (IOException e) {
                // expected: the node is gone before it answers
            }
            assertThat(p.waitFor(TimeScale.seconds(60).toMillis(), TimeUnit.MILLISECONDS)).as("the child exited").isTrue();
            assertThat(p.exitValue()).as(Files.readString(out)).isEqualTo(3);
            assertThat(Files.readString(out)).contains("Terminating due to java.lang.OutOfMemoryError");
        } finally {
            p.destroyForcibly();
            p.waitFor(TimeScale.seconds(10).toMillis(), TimeUnit.MILLISECONDS);
        }
    }
}

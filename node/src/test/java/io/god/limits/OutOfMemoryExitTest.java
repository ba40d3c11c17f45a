package io.god.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.god.testing.TimeScale;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path out = dir.resolve("child.log");
        Process p = new ProcessBuilder(java, "-Xmx96m", "-XX:+ExitOnOutOfMemoryError", "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"), OomChild.class.getName(),
                "god.node.advertise=127.0.0.1:9191", "god.node.port=0", "god.limits.body-size=64M",
                "god.limits.set-sources=100000000", "god.limits.json-string=1G", "god.limits.eval-time=10m")
                .redirectErrorStream(true).redirectOutput(out.toFile()).start();
        try {
            Pattern portLine = Pattern.compile("PORT (\\d+)");
            int port = await().atMost(TimeScale.seconds(60)).pollInterval(Duration.ofMillis(100))
                    .until(() -> port(out, portLine), n -> n > 0);
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

    private static int port(Path out, Pattern line) throws IOException {
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

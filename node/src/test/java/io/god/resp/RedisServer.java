package io.god.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.god.testing.TimeScale;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import redis.clients.jedis.Jedis;

/**
 * A real {@code redis-server} for differential tests: loopback, an ephemeral port, no persistence, its output in a
 * file, stopped by its PID. Without redis-server on PATH the test is skipped saying so, except under {@code CI=true},
 * where it fails.
 */
final class RedisServer implements AutoCloseable {

    final int port;
    private final Process process;
    private final Path log;

    private RedisServer(int port, Process process, Path log) {
        this.port = port;
        this.process = process;
        this.log = log;
    }

    static RedisServer start(Path dir) throws Exception {
        Path server = Stream.of(System.getenv("PATH").split(java.io.File.pathSeparator))
                .map(d -> Path.of(d, "redis-server")).filter(Files::isExecutable).findFirst().orElse(null);
        if (server == null) {
            assertThat(System.getenv("CI")).as("CI installs redis-server").isNotEqualTo("true");
            Assumptions.abort("no redis-server on PATH (Debian package redis-server)");
        }
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Path log = dir.resolve("redis-server.log");
        Process p = new ProcessBuilder(List.of(server.toString(), "--port", String.valueOf(port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no", "--dir", dir.toString())).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        RedisServer r = new RedisServer(port, p, log);
        try {
            await().atMost(TimeScale.seconds(20)).ignoreExceptions().until(() -> {
                try (Jedis j = new Jedis("127.0.0.1", port)) {
                    return "PONG".equals(j.ping());
                }
            });
        } catch (RuntimeException e) {
            r.close();
            throw new AssertionError("redis-server did not answer: " + Files.readString(log), e);
        }
        return r;
    }

    @Override
    public void close() {
        process.destroyForcibly();
        try {
            process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

package io.god.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.god.testing.TimeScale;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;

/**
 * A client that pipelines faster than its commands are answered is not read beyond {@link RespServer#MAX_PENDING}
 * waiting commands (and what the read under way brings): the server's memory stays bounded, the client's writes wait
 * in its socket, and once the commands are answered the connection is read again and every command answered in order.
 */
class RespBackPressureTest {

    private static final int SETS = 100_000;
    private static final String VALUE = "v".repeat(100);

    @Test
    void aConnectionWhoseCommandsWaitIsNotReadUntilTheyAreAnswered(@TempDir Path dir) throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        try (RespNodes n = new RespNodes(Map.of("god.data-dir", dir.toString(), "god.persistence.fsync", "always"))
                .start(1)) {
            // under fsync always a SET runs on a RESP worker: held there until released, the connection's commands
            // wait behind it
            io.god.api.JsonRpc held = new io.god.api.JsonRpc(n.rings.nodes.get(0), (method, status, nanos) -> {
                if (Thread.currentThread().getName().startsWith("god-resp-")) {
                    try {
                        release.await(TimeScale.seconds(60).toMillis(), TimeUnit.MILLISECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            });
            ExecutorService writer = Executors.newSingleThreadExecutor();
            try (RespServer server = new RespServer(n.vertx, held, true, 10, 2, 1);
                    Socket client = new Socket("127.0.0.1", server.start("127.0.0.1", 0))) {
                client.setSoTimeout((int) TimeScale.seconds(60).toMillis());
                OutputStream out = client.getOutputStream();
                Future<?> written = writer.submit(() -> {
                    for (int i = 0; i < SETS; i += 1000) {
                        ByteArrayOutputStream chunk = new ByteArrayOutputStream();
                        for (int k = i; k < i + 1000; k++) {
                            chunk.writeBytes(command("SET", "k" + k, VALUE));
                        }
                        out.write(chunk.toByteArray());
                    }
                    out.flush();
                    return null;
                });
                // 13.6 MB sent: more than the sockets' buffers hold; read on, the server would read every command
                long bound = RespServer.MAX_PENDING + 16 * 65_536 / 100; // one read loop: 16 reads of 64 KiB at most
                await().atMost(TimeScale.seconds(30)).until(() -> server.commandsRead() > RespServer.MAX_PENDING);
                await().during(Duration.ofSeconds(2)).atMost(TimeScale.seconds(10))
                        .until(() -> server.commandsRead() <= bound && !written.isDone());
                release.countDown();
                InputStream in = new BufferedInputStream(client.getInputStream());
                for (int i = 0; i < SETS; i++) {
                    assertThat(line(in)).as("reply %d", i).isEqualTo("+OK");
                }
                written.get(TimeScale.seconds(30).toMillis(), TimeUnit.MILLISECONDS);
                assertThat(server.commandsRead()).isEqualTo(SETS);
            } finally {
                release.countDown();
                writer.shutdownNow();
            }
            try (Jedis j = RespTest.jedis(n, 0)) {
                assertThat(j.get("k0")).isEqualTo(VALUE);
                assertThat(j.get("k" + (SETS - 1))).isEqualTo(VALUE);
                assertThat(j.dbSize()).isEqualTo(SETS);
            }
        }
    }

    private static byte[] command(String... args) {
        StringBuilder b = new StringBuilder("*").append(args.length).append("\r\n");
        for (String a : args) {
            b.append('$').append(a.getBytes(StandardCharsets.UTF_8).length).append("\r\n").append(a).append("\r\n");
        }
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static String line(InputStream in) throws java.io.IOException {
        StringBuilder b = new StringBuilder();
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) {
                throw new java.io.EOFException("connection closed after " + b);
            }
            if (c != '\r') {
                b.append((char) c);
            }
        }
        return b.toString();
    }
}

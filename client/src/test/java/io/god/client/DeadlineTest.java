package io.god.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.god.testing.ScaledTimeout;
import io.god.testing.TimeScale;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A node that accepts connections and never answers: retries are bounded and the deadline holds. */
@ScaledTimeout(20)
class DeadlineTest {

    static final class BlackHole implements AutoCloseable {
        final ServerSocket server;
        final AtomicInteger connections = new AtomicInteger();

        BlackHole() throws Exception {
            server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            Thread t = new Thread(() -> {
                while (!server.isClosed()) {
                    try {
                        Socket s = server.accept();
                        connections.incrementAndGet();
                        Thread r = new Thread(() -> {
                            try (InputStream in = s.getInputStream()) {
                                in.transferTo(java.io.OutputStream.nullOutputStream());
                            } catch (Exception ignored) {
                                // closed
                            }
                        });
                        r.setDaemon(true);
                        r.start();
                    } catch (Exception e) {
                        return;
                    }
                }
            });
            t.setDaemon(true);
            t.start();
        }

        String address() {
            return "127.0.0.1:" + server.getLocalPort();
        }

        @Override
        public void close() throws Exception {
            server.close();
        }
    }

    @Test
    void attemptsAreBounded() throws Exception {
        try (BlackHole hole = new BlackHole();
             GodClient c = GodClient.builder().endpoints(hole.address()).gateway(true).attempts(3)
                     .attemptTimeout(Duration.ofMillis(150)).deadline(Duration.ofSeconds(10)).build()) {
            long t0 = System.nanoTime();
            assertThatThrownBy(() -> c.get(new byte[] {1})).isInstanceOf(GodUnavailableException.class)
                    .hasMessageContaining("did not answer");
            long ms = (System.nanoTime() - t0) / 1_000_000;
            // 3 attempts of 150 ms and 10 + 20 ms of backoff
            assertThat(ms).isBetween(450L, TimeScale.seconds(2).toMillis());
        }
    }

    @Test
    void theDeadlineCutsTheLastAttemptShort() throws Exception {
        try (BlackHole hole = new BlackHole();
             GodClient c = GodClient.builder().endpoints(hole.address()).gateway(true).attempts(10)
                     .attemptTimeout(Duration.ofSeconds(5)).deadline(Duration.ofMillis(400)).build()) {
            long t0 = System.nanoTime();
            assertThatThrownBy(() -> c.put(new byte[] {1}, new byte[] {2}, true))
                    .isInstanceOf(GodUnavailableException.class);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertThat(ms).isBetween(350L, TimeScale.millis(1500).toMillis());
        }
    }
}

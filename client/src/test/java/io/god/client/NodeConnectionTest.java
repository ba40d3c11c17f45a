package io.god.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.god.testing.ScaledTimeout;
import io.god.testing.TimeScale;
import io.god.wire.Frame;
import io.god.wire.FrameDecoder;
import io.god.wire.Ops;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The reader-less connection: callers sharing it read each other's replies (leader/followers), replies
 * arriving in any order reach their own callers, a silent node times a call out without breaking the
 * others, and a closed socket fails every waiting call.
 */
@ScaledTimeout(30)
class NodeConnectionTest {

    /** A fake node on 127.0.0.7: answers each request with its payload reversed, in shuffled batches. */
    private static final class FakeNode implements AutoCloseable {
        final ServerSocket server;
        final AtomicInteger served = new AtomicInteger();
        volatile boolean silent;
        volatile Socket peer;

        FakeNode(int batch) throws IOException {
            server = new ServerSocket(0, 8, InetAddress.getByName("127.0.0.7"));
            Thread t = new Thread(() -> serve(batch), "fake-node");
            t.setDaemon(true);
            t.start();
        }

        String address() {
            return "127.0.0.7:" + server.getLocalPort();
        }

        private void serve(int batch) {
            try (Socket s = server.accept()) {
                peer = s;
                InputStream in = s.getInputStream();
                OutputStream out = s.getOutputStream();
                FrameDecoder d = new FrameDecoder(1 << 20);
                Random rnd = new Random(3);
                List<Frame> held = new ArrayList<>();
                byte[] buf = new byte[4096];
                int n;
                while ((n = in.read(buf)) >= 0) {
                    for (Frame f : d.feed(buf, 0, n)) {
                        if (f.kind() != Frame.REQUEST || silent) {
                            continue;
                        }
                        held.add(f);
                    }
                    // answer what has arrived once batch requests wait or nothing more is buffered
                    if (held.size() >= batch || !held.isEmpty() && in.available() == 0) {
                        Collections.shuffle(held, rnd); // replies in any order
                        for (Frame h : held) {
                            byte[] p = h.payload().clone();
                            for (int i = 0; i < p.length / 2; i++) {
                                byte x = p[i];
                                p[i] = p[p.length - 1 - i];
                                p[p.length - 1 - i] = x;
                            }
                            served.incrementAndGet(); // before the reply: its caller may check at once
                            out.write(h.response(p).encode());
                        }
                        held.clear();
                    }
                }
            } catch (IOException e) {
                // test over
            }
        }

        @Override
        public void close() throws IOException {
            server.close();
            Socket p = peer;
            if (p != null) {
                p.close();
            }
        }
    }

    @Test
    void sharedConnectionDeliversEveryReplyToItsCaller() throws Exception {
        try (FakeNode node = new FakeNode(4); NodeConnection c = new NodeConnection(node.address(), null, 2000)) {
            List<Thread> threads = new ArrayList<>();
            List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
            for (int t = 0; t < 8; t++) {
                int me = t;
                threads.add(new Thread(() -> {
                    try {
                        for (int i = 0; i < 500; i++) {
                            byte[] p = ByteBuffer.allocate(8).putInt(me).putInt(i).array();
                            byte[] r = c.call(Ops.DATA, p, TimeUnit.SECONDS.toNanos(10));
                            assertThat(ByteBuffer.wrap(r).getInt()).isEqualTo(Integer.reverseBytes(i));
                            assertThat(ByteBuffer.wrap(r).getInt(4)).isEqualTo(Integer.reverseBytes(me));
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                }));
            }
            threads.forEach(Thread::start);
            for (Thread t : threads) {
                t.join();
            }
            assertThat(failures).isEmpty();
            assertThat(node.served.get()).isEqualTo(8 * 500);
        }
    }

    @Test
    void aSilentNodeTimesOutAndAClosedOneFailsTheCall() throws Exception {
        try (FakeNode node = new FakeNode(1); NodeConnection c = new NodeConnection(node.address(), null, 2000)) {
            assertThat(c.call(Ops.DATA, new byte[] {1, 2}, TimeUnit.SECONDS.toNanos(5))).containsExactly(2, 1);
            node.silent = true;
            long t0 = System.nanoTime();
            assertThatThrownBy(() -> c.call(Ops.DATA, new byte[] {1}, TimeUnit.MILLISECONDS.toNanos(200)))
                    .isInstanceOf(TimeoutException.class);
            assertThat(System.nanoTime() - t0).isLessThan(TimeScale.seconds(3).toNanos());
            assertThat(c.broken()).isFalse();
            node.close();
            assertThatThrownBy(() -> c.call(Ops.DATA, new byte[] {1}, TimeUnit.SECONDS.toNanos(5)))
                    .isInstanceOf(IOException.class);
            assertThat(c.broken()).isTrue();
        }
    }
}

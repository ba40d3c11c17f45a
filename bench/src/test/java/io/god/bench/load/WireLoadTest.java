package io.god.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import io.god.testing.ScaledTimeout;
import io.god.wire.Call;
import io.god.wire.DataCall;
import io.god.wire.Frame;
import io.god.wire.FrameDecoder;
import io.god.wire.Ops;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The light generator against a fake node: every connection keeps one call in flight; errors are counted. */
@ScaledTimeout(30)
class WireLoadTest {

    /** Answers DATA calls on 127.0.0.8: Put 200, Get 200 (found) or 400 when {@code refuseGets}. */
    private static final class FakeNode implements AutoCloseable {
        final ServerSocket server;
        final AtomicInteger puts = new AtomicInteger();
        final AtomicInteger gets = new AtomicInteger();
        final AtomicInteger connections = new AtomicInteger();
        final AtomicInteger inFlightMax = new AtomicInteger();
        final boolean refuseGets;

        FakeNode(boolean refuseGets) throws IOException {
            this.refuseGets = refuseGets;
            server = new ServerSocket(0, 16, InetAddress.getByName("127.0.0.8"));
            Thread t = new Thread(this::accept, "fake-accept");
            t.setDaemon(true);
            t.start();
        }

        String address() {
            return "127.0.0.8:" + server.getLocalPort();
        }

        private void accept() {
            try {
                while (true) {
                    Socket s = server.accept();
                    connections.incrementAndGet();
                    Thread t = new Thread(() -> serve(s), "fake-conn");
                    t.setDaemon(true);
                    t.start();
                }
            } catch (IOException e) {
                // closed
            }
        }

        private void serve(Socket s) {
            try (s; InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
                FrameDecoder d = new FrameDecoder(1 << 20);
                byte[] buf = new byte[4096];
                int n;
                while ((n = in.read(buf)) >= 0) {
                    List<Frame> frames = d.feed(buf, 0, n);
                    long requests = frames.stream().filter(f -> f.kind() == Frame.REQUEST).count();
                    inFlightMax.accumulateAndGet((int) requests, Math::max);
                    for (Frame f : frames) {
                        if (f.kind() == Frame.HELLO) {
                            out.write(f.response(new byte[0]).encode());
                            continue;
                        }
                        DataCall c = DataCall.decode(f.payload());
                        DataCall.Reply r;
                        if (c.kind() == DataCall.PUT) {
                            puts.incrementAndGet();
                            r = c.mode() == Call.ROUTE ? DataCall.Reply.ok() : DataCall.Reply.error(500, "not routed");
                        } else {
                            gets.incrementAndGet();
                            r = refuseGets ? DataCall.Reply.error(400, "no gets here")
                                    : DataCall.Reply.found(true, 1, new byte[] {1});
                        }
                        out.write(f.response(r.encode()).encode());
                    }
                }
            } catch (IOException e) {
                // generator done
            }
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }

    private static Report run(FakeNode node, String mix) throws IOException {
        Report report = new Report();
        new WireLoad(List.of(node.address()), null, 4, OpMix.parse(mix),
                new KeySpace(1000, KeySpace.Distribution.UNIFORM, 0.5, true), new byte[16], 1)
                .run(0, 0.3, report);
        return report;
    }

    @Test
    void everyConnectionKeepsOneCallInFlightAndEveryAnswerIsCounted() throws Exception {
        try (FakeNode node = new FakeNode(false)) {
            Report r = run(node, "put=1,get=1");
            assertThat(node.connections.get()).isEqualTo(4);
            assertThat(node.inFlightMax.get()).isEqualTo(1); // no pipelining on a connection
            assertThat(r.count(OpMix.Op.PUT)).isPositive().isEqualTo(node.puts.get());
            assertThat(r.count(OpMix.Op.GET)).isPositive().isEqualTo(node.gets.get());
            assertThat(r.errors(OpMix.Op.PUT) + r.errors(OpMix.Op.GET)).isZero();
        }
    }

    @Test
    void errorRepliesAreCountedAsErrors() throws Exception {
        try (FakeNode node = new FakeNode(true)) {
            Report r = run(node, "get=1");
            assertThat(r.count(OpMix.Op.GET)).isZero();
            assertThat(r.errors(OpMix.Op.GET)).isPositive().isEqualTo(node.gets.get());
            assertThat(r.text()).contains("400 no gets here");
        }
    }
}

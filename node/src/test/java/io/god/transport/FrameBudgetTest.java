package io.god.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.god.limits.ByteBudget;
import io.god.testing.TimeScale;
import io.god.wire.Frame;
import io.god.wire.FrameDecoder;
import io.god.wire.Ops;
import io.vertx.core.Vertx;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The global budget of buffered request frames across binary connections: a connection whose
 * bytes would pass it is refused with an error naming god.limits.frame-budget; the others go on,
 * and the budget is returned when frames are answered and connections close.
 */
class FrameBudgetTest {

    @Test
    void aConnectionOverTheSharedBudgetIsRefusedWhileTheOthersAreServed() throws Exception {
        Vertx vertx = Vertx.vertx();
        ExecutorService pool = Executors.newCachedThreadPool();
        ByteBudget budget = new ByteBudget(100_000);
        TcpTransport server = new TcpTransport(vertx, "127.0.0.1", 0, "127.0.0.1:0", null, 1 << 20,
                Duration.ofSeconds(5), pool, budget);
        server.serve((op, payload) -> CompletableFuture.completedFuture(new byte[] {(byte) payload.length}));
        try (Socket a = new Socket("127.0.0.1", server.boundPort()); Socket b = new Socket("127.0.0.1", server.boundPort())) {
            a.setSoTimeout(10_000);
            b.setSoTimeout(10_000);
            byte[] big = Frame.request(1, Ops.PING, new byte[80_000]).encode();
            // a: most of one large frame, held by the server while it waits for the rest
            a.getOutputStream().write(big, 0, 70_000);
            a.getOutputStream().flush();
            await().atMost(TimeScale.seconds(10)).until(() -> budget.used() >= 70_000);
            // b: 40 000 more bytes would pass the budget: refused with a clear error, then closed
            b.getOutputStream().write(Frame.request(7, Ops.PING, new byte[40_000]).encode());
            b.getOutputStream().flush();
            List<Frame> refusal = read(b.getInputStream(), 1);
            assertThat(refusal.get(0).kind()).isEqualTo(Frame.ERROR);
            assertThat(refusal.get(0).id()).isZero();
            assertThat(refusal.get(0).errorMessage()).contains("god.limits.frame-budget");
            assertThat(b.getInputStream().read()).isEqualTo(-1);
            // a completes its frame and is answered; everything is returned to the budget
            a.getOutputStream().write(Arrays.copyOfRange(big, 70_000, big.length));
            a.getOutputStream().flush();
            Frame reply = read(a.getInputStream(), 1).get(0);
            assertThat(reply.kind()).isEqualTo(Frame.RESPONSE);
            assertThat(reply.id()).isEqualTo(1);
        }
        await().atMost(TimeScale.seconds(10)).until(() -> budget.used() == 0);
        server.close();
        pool.shutdownNow();
        vertx.close().toCompletionStage().toCompletableFuture().get(TimeScale.seconds(10).toMillis(), TimeUnit.MILLISECONDS);
    }

    private static List<Frame> read(InputStream in, int n) throws Exception {
        FrameDecoder d = new FrameDecoder(1 << 20);
        List<Frame> out = new ArrayList<>();
        byte[] buf = new byte[4096];
        while (out.size() < n) {
            int r = in.read(buf);
            if (r < 0) {
                throw new AssertionError("connection closed after " + out.size() + " frames");
            }
            out.addAll(d.feed(buf, 0, r));
        }
        return out;
    }
}

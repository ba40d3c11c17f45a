package io.god.transport;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * Request/response messaging between nodes (DESIGN §4's seam): the ring and the cluster code talk
 * to peers only through this, so the same code runs on TCP ({@link TcpTransport}) and in memory
 * ({@link InMemoryNetwork}) with injected delay, loss and partitions.
 */
public interface Transport extends AutoCloseable {

    /** Serves requests addressed to this node; the returned future completes with the reply payload. */
    @FunctionalInterface
    interface Handler {
        CompletableFuture<byte[]> handle(int op, byte[] payload);
    }

    /**
     * Answers a request on the network thread when that needs no waiting: the reply payload, or null to
     * hand the request to {@link Handler} on the handler pool. Must not block.
     */
    @FunctionalInterface
    interface InlineHandler {
        byte[] handle(int op, byte[] payload);
    }

    /** As {@link Handler}, told who sent the request: the caller its connection's hello made it (issue 32). */
    @FunctionalInterface
    interface CallerHandler {
        CompletableFuture<byte[]> handle(io.god.command.Caller caller, int op, byte[] payload);
    }

    /** As {@link InlineHandler}, told who sent the request. */
    @FunctionalInterface
    interface CallerInlineHandler {
        byte[] handle(io.god.command.Caller caller, int op, byte[] payload);
    }

    /**
     * As {@link #serve(Handler, InlineHandler)}, telling the handlers who sent each request. Transports without
     * credentials (the in-memory network: peers only) tell {@link io.god.command.Caller#ANYONE}.
     */
    default void serve(CallerHandler handler, CallerInlineHandler inline) {
        serve((op, p) -> handler.handle(io.god.command.Caller.ANYONE, op, p),
                (op, p) -> inline.handle(io.god.command.Caller.ANYONE, op, p));
    }

    /** The address peers reach this node at ({@code host:port}). */
    String address();

    /** Starts serving requests with {@code handler} (once). */
    void serve(Handler handler);

    /**
     * As {@link #serve(Handler)}, trying {@code inline} first on the network thread (transports without
     * one, like the in-memory network, ignore it: every request then goes to {@code handler}).
     */
    default void serve(Handler handler, InlineHandler inline) {
        serve(handler);
    }

    /**
     * Sends one request. The future fails with a {@link TransportException}: UNREACHABLE, TIMEOUT when
     * no answer came within {@code deadline}, or REMOTE with the peer's error message. Never blocks.
     */
    CompletableFuture<byte[]> call(String address, int op, byte[] payload, Duration deadline);

    @Override
    void close();
}

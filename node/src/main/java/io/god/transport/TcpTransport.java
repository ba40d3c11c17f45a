package io.god.transport;

import io.god.wire.Frame;
import io.god.wire.FrameDecoder;
import io.god.wire.Ops;
import io.god.wire.WireException;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.ClientAuth;
import io.vertx.core.net.JdkSSLEngineOptions;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.NetSocket;
import io.vertx.core.net.SSLOptions;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The binary protocol over TCP with Vert.x: a server on {@code bindHost:port}, and one pipelined
 * client connection per peer address (opened on first use, re-opened after it breaks). Every call
 * has a deadline; a connection that breaks fails its outstanding calls as UNREACHABLE. A peer that
 * sends a malformed or oversized frame gets its connection closed (logged); the node stays up.
 * Requests are handled on {@code handlers} (they may block), except those the {@link InlineHandler}
 * answers on the event loop (non-blocking local data calls: no thread hop); the replies to the
 * requests of one read are written together.
 */
public final class TcpTransport implements Transport {

    private static final System.Logger LOG = System.getLogger(TcpTransport.class.getName());

    private final Vertx vertx;
    private final String bindHost;
    private final int port;
    private final String advertise;
    private final byte[] token;
    private final int maxFrame;
    /**
     * The largest frame a connection may send before it presents the token: an unauthenticated peer cannot make the
     * node buffer more than this per connection (and all connections together stay within the frame budget).
     */
    public static final int PRE_AUTH_FRAME = 64 * 1024;
    private final Executor handlers;
    private final io.god.limits.ByteBudget frameBudget;
    private volatile NetClient client;
    private final int connectTimeoutMillis;
    /** TLS on both sides ({@code god.tls.*}), or null for plain TCP. */
    private volatile NodeTls tls;
    private final Map<String, Connection> connections = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();
    private volatile NetServer server;
    private volatile boolean closed;

    /**
     * @param token the shared secret every connection must present in its hello, or null for none
     * @param maxFrame the largest frame accepted from a peer (bytes after the length field)
     */
    public TcpTransport(Vertx vertx, String bindHost, int port, String advertise, String token, int maxFrame,
                        Duration connectTimeout, Executor handlers) {
        this(vertx, bindHost, port, advertise, token, maxFrame, connectTimeout, handlers,
                io.god.limits.ByteBudget.unlimited());
    }

    /**
     * @param frameBudget bytes of request frames all server connections together may hold (received and
     *     not yet answered); a connection whose next read would pass it is refused with an error naming
     *     {@code god.limits.frame-budget} and closed
     */
    public TcpTransport(Vertx vertx, String bindHost, int port, String advertise, String token, int maxFrame,
                        Duration connectTimeout, Executor handlers, io.god.limits.ByteBudget frameBudget) {
        this.frameBudget = frameBudget;
        this.vertx = vertx;
        this.bindHost = bindHost;
        this.port = port;
        this.advertise = advertise;
        this.token = token == null ? null : token.getBytes(StandardCharsets.UTF_8);
        this.helloRequired = token != null;
        this.maxFrame = maxFrame;
        this.handlers = handlers;
        this.connectTimeoutMillis = (int) Math.max(1, connectTimeout.toMillis());
        this.client = vertx.createNetClient(clientOptions());
    }

    private NetClientOptions clientOptions() {
        NetClientOptions o = new NetClientOptions().setConnectTimeout(connectTimeoutMillis).setTcpNoDelay(true);
        if (tls != null) {
            // a peer is verified against the name it is reached by (its advertise address) and as a peer
            o.setSsl(true).setHostnameVerificationAlgorithm("HTTPS").setSslEngineOptions(new JdkSSLEngineOptions());
            SSLOptions ssl = tls.peerClientOptions();
            o.setKeyCertOptions(ssl.getKeyCertOptions()).setTrustOptions(ssl.getTrustOptions());
        }
        return o;
    }

    /**
     * TLS on the server (clients and peers; a peer operation needs a peer's certificate, {@link NodeTls#peerRefusal})
     * and on every connection to a peer; a rotation of the files reaches new connections, open ones go on. Call
     * before {@link #serve}.
     */
    public void secure(NodeTls nodeTls) {
        this.tls = nodeTls;
        NetClient plain = client;
        client = vertx.createNetClient(clientOptions());
        plain.close();
        nodeTls.onReload(() -> {
            NetServer s = server;
            if (s != null) {
                s.updateSSLOptions(nodeTls.serverOptions(), true);
            }
            client.updateSSLOptions(nodeTls.peerClientOptions(), true);
        });
    }

    @Override
    public String address() {
        return advertise;
    }

    /** The port actually bound (useful with port 0). */
    public int boundPort() {
        return server == null ? -1 : server.actualPort();
    }

    @Override
    public void serve(Handler handler) {
        serve(handler, (op, payload) -> null);
    }

    @Override
    public void serve(Handler handler, InlineHandler inline) {
        serve((CallerHandler) (c, op, p) -> handler.handle(op, p), (c, op, p) -> inline.handle(op, p));
    }

    @Override
    public void serve(CallerHandler handler, CallerInlineHandler inline) {
        NetServerOptions options = new NetServerOptions().setHost(bindHost).setPort(port).setTcpNoDelay(true);
        NodeTls t = tls;
        if (t != null) { // clients may present a certificate; a peer must (checked per connection)
            SSLOptions ssl = t.serverOptions();
            options.setSsl(true).setClientAuth(ClientAuth.REQUEST).setSslEngineOptions(new JdkSSLEngineOptions())
                    .setKeyCertOptions(ssl.getKeyCertOptions()).setTrustOptions(ssl.getTrustOptions());
        }
        NetServer s = vertx.createNetServer(options);
        s.connectHandler(socket -> {
            if (loopbackOnly && io.god.command.ProtectedMode.refuses(socket.remoteAddress().hostAddress())) {
                socket.write(Buffer.buffer(new Frame(0, Frame.HELLO, Ops.HELLO, new byte[0])
                        .error(io.god.command.ProtectedMode.MESSAGE).encode())).onComplete(v -> socket.close());
                return;
            }
            if (serverConnections.incrementAndGet() > maxConnections) {
                serverConnections.decrementAndGet();
                String why = "node busy: more than " + maxConnections + " connections (god.limits.connections)";
                socket.write(Buffer.buffer(new Frame(0, Frame.HELLO, Ops.HELLO, new byte[0]).error(why).encode()))
                        .onComplete(v -> socket.close());
                return;
            }
            new ServerConnection(socket, handler, inline);
        });
        try {
            s.listen().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("god.node.port: cannot listen on " + bindHost + ":" + port + ": "
                    + InMemoryNetwork.messageOf(e), e);
        }
        server = s;
    }

    @Override
    public CompletableFuture<byte[]> call(String address, int op, byte[] payload, Duration deadline) {
        CompletableFuture<byte[]> result = new CompletableFuture<>();
        if (closed) {
            result.completeExceptionally(new TransportException(TransportException.Reason.UNREACHABLE, "transport closed"));
            return result;
        }
        long id = ids.incrementAndGet();
        long ms = Math.max(1, deadline.toMillis());
        long timer = vertx.setTimer(ms, t -> result.completeExceptionally(new TransportException(
                TransportException.Reason.TIMEOUT, "no answer from " + address + " within " + ms + " ms")));
        result.whenComplete((r, e) -> vertx.cancelTimer(timer));
        Connection c = connections.computeIfAbsent(address, Connection::new);
        c.send(Frame.request(id, op, payload), result);
        return result;
    }

    @Override
    public void close() {
        closed = true;
        NetServer s = server;
        if (s != null) {
            s.close();
        }
        for (Connection c : connections.values()) {
            c.fail("transport closed");
        }
        client.close();
    }

    /** How long a connection may stay without presenting the token before it is closed (when a token is set). */
    private volatile Duration authDeadline = Duration.ofSeconds(10);
    /** Server connections at most (peers and clients together); more are refused with an error frame. */
    private volatile int maxConnections = 10_000;
    private final java.util.concurrent.atomic.AtomicInteger serverConnections = new java.util.concurrent.atomic.AtomicInteger();

    private volatile boolean loopbackOnly;

    /** Protected mode ({@link io.god.command.ProtectedMode}): refuse connections from other machines. */
    public void loopbackOnly(boolean on) {
        this.loopbackOnly = on;
    }

    /** Bounds of the server side: the hello deadline and the connection cap (god.limits.auth-timeout, .connections). */
    public void bounds(Duration authDeadline, int maxConnections) {
        this.authDeadline = authDeadline;
        this.maxConnections = maxConnections;
    }

    /** Tokens accepted besides the current one (a rotation's previous tokens). */
    private volatile List<byte[]> previous = List.of();

    /** Accept these tokens too (the previous ones of a rotation); the current one is the one this node sends. */
    public void acceptAlso(List<String> tokens) {
        this.previous = tokens.stream().map(t -> t.getBytes(StandardCharsets.UTF_8)).toList();
    }

    /**
     * Who a hello makes its connection (null: refused); by default the current or a previous token gives every
     * right. With {@code required} false a connection needs no hello and may do anything.
     */
    private volatile java.util.function.Function<byte[], io.god.command.Caller> callers =
            presented -> tokenMatches(presented) ? io.god.command.Caller.ANYONE : null;
    private volatile boolean helloRequired;

    /** Judge hellos with {@code callers} (the node's credentials); {@code required}: a hello must come first. */
    public void callers(java.util.function.Function<byte[], io.god.command.Caller> callers, boolean required) {
        this.callers = callers;
        this.helloRequired = required;
    }

    private boolean tokenMatches(byte[] presented) {
        if (token == null) {
            return true;
        }
        boolean match = MessageDigest.isEqual(token, presented);
        for (byte[] p : previous) {
            match |= MessageDigest.isEqual(p, presented);
        }
        return match;
    }

    // ------------------------------------------------------------------ client side

    private final class Connection {
        private final String address;
        private final Map<Long, CompletableFuture<byte[]>> pending = new ConcurrentHashMap<>();
        private final FrameDecoder decoder = new FrameDecoder(maxFrame);
        private final CompletableFuture<NetSocket> socket = new CompletableFuture<>();
        /** Why this connection broke (set once, before its calls are failed); null while it works. */
        private volatile TransportException failure;

        Connection(String address) {
            this.address = address;
            int colon = address.lastIndexOf(':');
            String host;
            int p;
            try {
                host = address.substring(0, colon).replace("[", "").replace("]", "");
                p = Integer.parseInt(address.substring(colon + 1));
            } catch (RuntimeException e) {
                socket.completeExceptionally(new TransportException(TransportException.Reason.UNREACHABLE,
                        "bad address '" + address + "'"));
                return;
            }
            client.connect(p, host).onComplete(ar -> {
                if (ar.failed()) {
                    fail("cannot connect to " + address + ": " + ar.cause().getMessage());
                    return;
                }
                NetSocket s = ar.result();
                s.handler(this::received);
                s.closeHandler(v -> fail("connection to " + address + " closed"));
                s.exceptionHandler(e -> LOG.log(System.Logger.Level.DEBUG, "connection to " + address + ": " + e));
                s.write(Buffer.buffer(new Frame(0, Frame.HELLO, Ops.HELLO, token == null ? new byte[0] : token).encode()));
                socket.complete(s);
            });
        }

        void send(Frame f, CompletableFuture<byte[]> result) {
            pending.put(f.id(), result);
            result.whenComplete((r, e) -> pending.remove(f.id()));
            TransportException failed = failure;
            if (failed != null) { // broke while this call was being added: fail it now, not at its deadline
                result.completeExceptionally(failed);
                return;
            }
            socket.whenComplete((s, e) -> {
                if (e != null) {
                    result.completeExceptionally(TransportException.of(e));
                } else {
                    s.write(Buffer.buffer(f.encode()));
                }
            });
        }

        private void received(Buffer b) {
            List<Frame> frames;
            try {
                frames = feed(decoder, b);
            } catch (WireException e) {
                LOG.log(System.Logger.Level.WARNING, "malformed reply from " + address + ", closing: " + e.getMessage());
                socket.thenAccept(NetSocket::close);
                fail("malformed reply from " + address + ": " + e.getMessage());
                return;
            }
            for (Frame f : frames) {
                if (f.kind() == Frame.ERROR && f.id() == 0) {
                    fail("rejected by " + address + ": " + f.errorMessage());
                    continue;
                }
                CompletableFuture<byte[]> r = pending.remove(f.id());
                if (r == null) {
                    continue;
                }
                if (f.kind() == Frame.RESPONSE) {
                    r.complete(f.payload());
                } else {
                    r.completeExceptionally(new TransportException(TransportException.Reason.REMOTE, f.errorMessage()));
                }
            }
        }

        /**
         * Fails every outstanding call as UNREACHABLE (a retry opens a new connection). A call that {@link #send}
         * registers concurrently is failed by one side or the other: send checks {@link #failure} after registering,
         * and this sets it before it looks at what is registered.
         */
        void fail(String why) {
            TransportException e = new TransportException(TransportException.Reason.UNREACHABLE, why);
            if (failure == null) {
                failure = e;
            }
            connections.remove(address, this);
            socket.completeExceptionally(e);
            for (CompletableFuture<byte[]> r : pending.values()) {
                r.completeExceptionally(failure);
            }
        }
    }

    // ------------------------------------------------------------------ server side

    /** Feeds a decoder from the buffer's own array when it has one (Vert.x reads into heap buffers): no copy. */
    private static List<Frame> feed(FrameDecoder decoder, Buffer b) {
        io.netty.buffer.ByteBuf bb = b.getByteBuf();
        return bb.hasArray() ? decoder.feed(bb.array(), bb.arrayOffset() + bb.readerIndex(), bb.readableBytes())
                : decoder.feed(b.getBytes());
    }

    private final class ServerConnection {
        private final NetSocket socket;
        private final CallerHandler handler;
        private final CallerInlineHandler inline;
        /** With a token, at most {@link #PRE_AUTH_FRAME} bytes per frame until the peer sent it (issue 32). */
        private final FrameDecoder decoder = !helloRequired ? new FrameDecoder(maxFrame)
                : FrameDecoder.beforeAuth(Math.min(maxFrame, PRE_AUTH_FRAME));
        /** Who the hello made this connection; null until an accepted hello when one is required. */
        private volatile io.god.command.Caller caller = helloRequired ? null : io.god.command.Caller.ANYONE;
        private volatile boolean authenticated = !helloRequired;
        /** With TLS: null when the connection presented a peer's certificate, else why it is no peer. */
        private final String notAPeer;
        /** Bytes of the frame budget held by the decoder's partial frame (event loop only). */
        private long held;
        /** When this connection was last read (nanoTime, event loop only): its next bytes arrived after ({@link Arrival}). */
        private long lastRead = System.nanoTime();
        private boolean refused;

        ServerConnection(NetSocket socket, CallerHandler handler, CallerInlineHandler inline) {
            this.socket = socket;
            this.handler = handler;
            this.inline = inline;
            this.notAPeer = notAPeer(socket);
            socket.handler(this::received);
            socket.closeHandler(v -> {
                frameBudget.release(held);
                held = 0;
                serverConnections.decrementAndGet();
            });
            if (!authenticated) { // a connection that never presents the token holds no resources for long
                vertx.setTimer(Math.max(1, authDeadline.toMillis()), t -> {
                    if (!authenticated) {
                        LOG.log(System.Logger.Level.DEBUG, "peer " + socket.remoteAddress() + " sent no token within "
                                + authDeadline.toMillis() + " ms; closing");
                        socket.close();
                    }
                });
            }
            socket.exceptionHandler(e -> LOG.log(System.Logger.Level.DEBUG, "peer " + socket.remoteAddress() + ": " + e));
        }

        private void received(Buffer b) {
            if (refused) {
                return;
            }
            long arrivedAfter = lastRead;
            lastRead = System.nanoTime();
            int incoming = b.length();
            if (!frameBudget.tryReserve(incoming)) {
                refused = true;
                String why = "node busy: request frames buffered across connections would exceed "
                        + io.god.limits.Limits.FRAME_BUDGET + " (" + frameBudget.max() + " bytes); retry later";
                LOG.log(System.Logger.Level.WARNING, "refusing peer " + socket.remoteAddress() + ": " + why);
                socket.write(Buffer.buffer(new Frame(0, Frame.HELLO, Ops.HELLO, new byte[0]).error(why).encode()))
                        .onComplete(v -> socket.close());
                return;
            }
            List<Frame> frames;
            try {
                frames = feed(decoder, b);
                if (decoder.beforeAuth() && frames.stream()
                        .anyMatch(f -> f.kind() == Frame.HELLO && callers.apply(f.payload()) != null)) {
                    decoder.raise(maxFrame); // what follows the accepted credential may be as large as any frame
                    frames = new java.util.ArrayList<>(frames);
                    frames.addAll(decoder.feed(new byte[0]));
                }
            } catch (WireException e) {
                frameBudget.release(incoming);
                LOG.log(System.Logger.Level.WARNING, "malformed frame from " + socket.remoteAddress()
                        + ", closing the connection: " + e.getMessage());
                socket.close();
                return;
            }
            // the bytes that became frames: those handed to the pool stay reserved until answered
            long consumed = held + incoming - decoder.buffered();
            held = decoder.buffered();
            long kept = 0;
            Buffer replies = null; // inline answers of this read, written at once
            for (Frame f : frames) {
                switch (f.kind()) {
                    case Frame.HELLO -> {
                        io.god.command.Caller who = callers.apply(f.payload());
                        if (who != null) {
                            caller = who;
                            authenticated = true;
                            socket.write(Buffer.buffer(f.response(new byte[0]).encode()));
                        } else {
                            LOG.log(System.Logger.Level.WARNING, "peer " + socket.remoteAddress()
                                    + " presented a wrong god.auth.token; closing");
                            socket.write(Buffer.buffer(f.error("bad god.auth.token").encode())).onComplete(v -> socket.close());
                            frameBudget.release(consumed - kept);
                            return;
                        }
                    }
                    case Frame.REQUEST -> {
                        if (notAPeer != null && f.op() != Ops.CALL && f.op() != Ops.DATA && f.op() != Ops.COMMAND) {
                            replies = append(replies, f.error("peer operation " + Ops.name(f.op())
                                    + " refused: this connection is no peer's (" + notAPeer + ")").encode());
                            continue;
                        }
                        if (!authenticated) {
                            socket.write(Buffer.buffer(f.error("god.auth.token required: send a hello first").encode()))
                                    .onComplete(v -> socket.close());
                            frameBudget.release(consumed - kept);
                            return;
                        }
                        byte[] answer = answerInline(f, arrivedAfter);
                        if (answer == null) {
                            kept += f.payload().length;
                            handlers.execute(() -> handle(f, arrivedAfter));
                        } else {
                            replies = replies == null ? Buffer.buffer(answer) : replies.appendBytes(answer);
                        }
                    }
                    default -> {
                        // responses are not expected on a server connection: ignore
                    }
                }
            }
            frameBudget.release(consumed - kept);
            if (replies != null) {
                socket.write(replies);
            }
        }

        private static Buffer append(Buffer replies, byte[] reply) {
            return replies == null ? Buffer.buffer(reply) : replies.appendBytes(reply);
        }

        /** Without TLS every connection may be a peer's (the token decides); with TLS its certificate decides. */
        private String notAPeer(NetSocket socket) {
            NodeTls t = tls;
            if (t == null) {
                return null;
            }
            try {
                return t.peerRefusal(socket.peerCertificates());
            } catch (javax.net.ssl.SSLPeerUnverifiedException e) {
                return "it presented no certificate";
            }
        }

        /** The encoded reply frame when the inline handler answers on this thread, else null. */
        private byte[] answerInline(Frame f, long arrivedAfter) {
            byte[] r;
            try {
                r = Arrival.during(arrivedAfter, () -> inline.handle(caller, f.op(), f.payload()));
            } catch (RuntimeException e) {
                return f.error(InMemoryNetwork.messageOf(e)).encode();
            }
            return r == null ? null : bounded(f, f.response(r).encode());
        }

        private byte[] bounded(Frame f, byte[] bytes) {
            return bytes.length - 4 > maxFrame
                    ? f.error("reply of " + bytes.length + " bytes exceeds the frame limit").encode() : bytes;
        }

        private void handle(Frame f, long arrivedAfter) {
            CompletableFuture<byte[]> reply;
            try {
                reply = Arrival.during(arrivedAfter, () -> handler.handle(caller, f.op(), f.payload()));
            } catch (RuntimeException e) {
                reply = CompletableFuture.failedFuture(e);
            }
            reply.whenComplete((r, e) -> {
                frameBudget.release(f.payload().length);
                Frame out;
                if (e == null) {
                    out = f.response(r);
                } else {
                    out = f.error(InMemoryNetwork.messageOf(e));
                }
                socket.write(Buffer.buffer(bounded(f, out.encode())));
            });
        }
    }
}

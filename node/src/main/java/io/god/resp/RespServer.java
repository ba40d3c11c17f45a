package io.god.resp;

import io.god.api.JsonRpc;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.NetSocket;
import java.util.List;
import io.god.wire.DataCall;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The Redis protocol listener ({@code god.resp.port}): RESP2 and RESP3, pipelining, inline commands. Each
 * connection's commands run one after another, in order, and are answered in order: on the network event loop as
 * far as they never wait ({@link RespCommands#executeAtOnce}: GET, a plain SET and PING on a node alone in its ring,
 * and on a ring a GET this node answers from its own copy), from the first that may wait on a worker pool. On a ring,
 * a GET or SET forwarded to its key's member holds no thread while that member answers
 * ({@link RespCommands#start}): the connection's next commands run when the answer comes. The port has one listener
 * per event loop ({@code god.resp.event-loops}), so connections are served on several cores. A connection with more
 * than {@link #MAX_PENDING} commands waiting stops being read until they are
 * answered. A protocol error is answered and closes the connection.
 */
public final class RespServer implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(RespServer.class.getName());
    /** Commands read ahead of their replies per connection (pipelining) before the socket is paused. */
    static final int MAX_PENDING = 1024;
    /** Commands of one connection in flight at once on a ring (forwarded GETs and SETs to different keys). */
    static final int MAX_WINDOW = 64;
    /** The negative ports (Vert.x: a shared random port each) the servers of this JVM asked for when told port 0. */
    private static final AtomicInteger ANY_PORT = new AtomicInteger();

    private final Vertx vertx;
    private final JsonRpc rpc;
    private final boolean sync;
    private final int maxConnections;
    private final ExecutorService workers;
    private final AtomicInteger connections = new AtomicInteger();
    /** The sessions of the connections open now (CLIENT LIST, CLIENT KILL). */
    private final java.util.Map<Long, RespSession> sessions = new java.util.concurrent.ConcurrentHashMap<>();
    /** Each event loop's SETs and GETs of a turn, run together ({@link LoopTurn}). */
    private final java.util.Map<io.vertx.core.Context, LoopTurn> loopTurns =
            new java.util.concurrent.ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();
    /** Commands read from clients since start (tests: a paused connection is not read). */
    private final AtomicLong commandsRead = new AtomicLong();
    /** One listener per event loop, all on the same port: Vert.x spreads the connections over them. */
    private final List<NetServer> servers = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final int loops;
    /** The verticles holding the listeners (undeployed on close). */
    private final List<String> deployments = new java.util.concurrent.CopyOnWriteArrayList<>();
    private io.god.transport.NodeTls tls;
    private volatile RespCommands commands;

    /**
     * @param sync whether writes are Sync (god.resp.sync)
     * @param maxConnections connections served at once (god.resp.max-connections); more are refused with an error
     */
    public RespServer(Vertx vertx, JsonRpc rpc, boolean sync, int maxConnections, int threads, int loops) {
        this.vertx = vertx;
        this.loops = loops;
        this.rpc = rpc;
        this.sync = sync;
        this.maxConnections = maxConnections;
        AtomicInteger n = new AtomicInteger();
        this.workers = new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(r, "god-resp-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /** TLS with the node's certificate ({@code god.tls.*}, rotated with it); call before {@link #start}. */
    public RespServer secure(io.god.transport.NodeTls nodeTls) {
        this.tls = nodeTls;
        return this;
    }

    /**
     * Listens on host:port (0: any free port) and returns the bound port.
     *
     * @throws IllegalStateException naming the port and the setting when the bind fails
     */
    public int start(String host, int port) {
        NetServerOptions options = new NetServerOptions().setHost(host).setPort(port).setTcpNoDelay(true);
        io.god.transport.NodeTls t = tls;
        if (t != null) { // redis-cli --tls: the node's certificate, no client certificate asked for
            var ssl = t.serverOptions();
            options.setSsl(true).setSslEngineOptions(new io.vertx.core.net.JdkSSLEngineOptions())
                    .setKeyCertOptions(ssl.getKeyCertOptions());
        }
        // the command table exists before the first connection can be accepted: a client connecting while the
        // listen completed but the table was not yet built hit a null table and never got an answer (bench/resp.sh's
        // PING under load)
        commands = new RespCommands(rpc, sync, () -> sessions.values().stream()
                .sorted(java.util.Comparator.comparingLong(x -> x.id)).toList(), port);
        // one listener per event loop, each in a verticle instance of its own (consecutive instances get
        // consecutive event loops; listeners created from one outside thread would all share its one loop): Vert.x
        // spreads a port's connections over its listeners, so commands of different connections run on several
        // cores (Redis serves every connection from one thread). Port 0 (any) is asked as a negative port of this
        // server's own: Vert.x's "one random port shared by the listeners that ask for this negative port", where 0
        // would give each listener a port of its own — and one -1 for all was one port for every server of the
        // Vertx instance (several nodes in one JVM answered on one port, a connection served by any of them).
        int bound;
        try {
            listen(new NetServerOptions(options).setPort(port == 0 ? -ANY_PORT.incrementAndGet() : port), loops);
            bound = servers.get(0).actualPort();
        } catch (Exception e) {
            close();
            throw new IllegalStateException("cannot listen for RESP on " + host + ":" + port + " (god.resp.port): "
                    + (e.getCause() == null ? e : e.getCause()).getMessage(), e);
        }
        commands.port = bound;
        if (t != null) {
            t.onReload(() -> servers.forEach(s -> s.updateSSLOptions(new io.vertx.core.net.SSLOptions()
                    .setKeyCertOptions(t.serverOptions().getKeyCertOptions()), true)));
        }
        LOG.log(System.Logger.Level.INFO, "Redis protocol (RESP2/RESP3" + (t == null ? "" : " over TLS") + ") on "
                + host + ":" + bound + " on " + loops + " event loop(s)"
                + (sync ? ", writes Sync" : ", writes asynchronous"));
        return bound;
    }

    /** Deploys {@code instances} listeners with these options, each on its own event loop. */
    private void listen(NetServerOptions options, int instances) throws Exception {
        deployments.add(vertx.deployVerticle(() -> new io.vertx.core.AbstractVerticle() {
            @Override
            public void start(io.vertx.core.Promise<Void> started) {
                NetServer s = vertx.createNetServer(options).connectHandler(RespServer.this::connected);
                s.listen().onSuccess(x -> servers.add(s)).<Void>mapEmpty().onComplete(started);
            }
        }, new io.vertx.core.DeploymentOptions().setInstances(instances))
                .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS));
    }

    /** Commands read from all clients since start, for tests. */
    long commandsRead() {
        return commandsRead.get();
    }

    /** How many keys this server's loop turns prefetched together ({@link LoopTurn}), for tests. */
    long keysPrefetchedInTurns() {
        return loopTurns.values().stream().mapToLong(LoopTurn::keysPrefetched).sum();
    }

    private volatile boolean loopbackOnly;

    /** Protected mode ({@link io.god.command.ProtectedMode}): refuse clients of other machines with -DENIED. */
    public void loopbackOnly(boolean on) {
        this.loopbackOnly = on;
    }

    private void connected(NetSocket socket) {
        if (loopbackOnly && io.god.command.ProtectedMode.refuses(socket.remoteAddress().hostAddress())) {
            socket.write("-DENIED " + io.god.command.ProtectedMode.MESSAGE + "\r\n").onComplete(v -> socket.close());
            return;
        }
        if (connections.incrementAndGet() > maxConnections) {
            connections.decrementAndGet();
            socket.write("-ERR max number of clients reached (god.resp.max-connections)\r\n")
                    .onComplete(v -> socket.close());
            return;
        }
        new Connection(socket);
    }

    /** One client: its reader, its session and the chain of its commands. */
    private final class Connection {
        private final NetSocket socket;
        private final RespReader reader;
        private final RespSession session;
        /** The SETs and GETs of this connection's event loop's turn ({@link #together}); null off a Vert.x context. */
        private final LoopTurn loop;
        /** The GET the chain goes on with waited in its loop's turn ({@link LoopTurn#read}): it runs now. */
        private boolean readInTurn;
        private final AtomicInteger pending = new AtomicInteger();
        private CompletableFuture<Void> tail = CompletableFuture.completedFuture(null);
        private volatile boolean paused;
        private boolean broken;
        /** What {@link RespCommands#prefetch} read, kept so that its reads are not optimised away; never read. */
        private int prefetched;

        Connection(NetSocket socket) {
            this.socket = socket;
            var settings = rpc.node().settings();
            this.reader = new RespReader(1024 * 1024, Math.max(settings.keySize(), settings.valueSize()),
                    settings.bodySize());
            this.session = new RespSession(ids.incrementAndGet(), String.valueOf(socket.remoteAddress()),
                    this::kill);
            sessions.put(session.id, session);
            io.vertx.core.Context context = vertx.getOrCreateContext();
            this.loop = context.isEventLoopContext()
                    ? loopTurns.computeIfAbsent(context, c -> new LoopTurn(rpc.executor(), c)) : null;
            // the received bytes as Netty read them (pooled, direct), parsed straight into the reader's buffer: a
            // NetSocket data handler gets each read copied to a new heap buffer first
            ((io.vertx.core.net.impl.NetSocketInternal) socket).messageHandler(this::message);
            socket.closeHandler(v -> {
                connections.decrementAndGet();
                sessions.remove(session.id);
            });
            socket.exceptionHandler(e -> LOG.log(System.Logger.Level.DEBUG, "RESP client " + session.address + ": " + e));
        }

        /**
         * CLIENT KILL: closes the connection, and off an event loop waits (bounded) until it is closed — the
         * connection may live on another event loop, and the killer's next command must not find it still open.
         */
        private void kill() {
            var closed = socket.close();
            if (!io.vertx.core.Context.isOnEventLoopThread()) {
                try {
                    closed.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
                } catch (Exception e) {
                    LOG.log(System.Logger.Level.DEBUG, "RESP client " + session.address + " not closed: " + e);
                }
            }
        }

        private void message(Object m) {
            if (m instanceof io.netty.buffer.ByteBuf b) {
                try {
                    received(b);
                } finally {
                    b.release();
                }
            } else {
                io.netty.util.ReferenceCountUtil.release(m);
            }
        }

        /** On the event loop: parse, and queue each complete command behind the ones before it. */
        private void received(io.netty.buffer.ByteBuf b) {
            if (broken) {
                return;
            }
            List<List<byte[]>> commandsRead;
            try {
                commandsRead = reader.feed(b);
            } catch (RespReader.ProtocolError e) {
                broken = true;
                tail.whenComplete((v, x) -> socket.write("-ERR Protocol error: " + e.getMessage() + "\r\n")
                        .onComplete(w -> socket.close()));
                return;
            }
            if (commandsRead.isEmpty()) {
                return;
            }
            RespServer.this.commandsRead.addAndGet(commandsRead.size());
            if (pending.addAndGet(commandsRead.size()) > MAX_PENDING && !paused) {
                paused = true;
                autoRead(false);
            }
            // nothing of the connection queued: the commands run here, as far as they go without waiting; else after
            // the queued ones: here too when those end on this loop (SETs applied with the loop's others), else on a
            // worker
            List<List<byte[]>> batch = commandsRead;
            if (batch.size() > 1 && tail.isDone()) {
                prefetched += commands.prefetch(batch);
            }
            tail = guarded(tail.isDone() ? drive(batch, 0, false) : tail.thenCompose(v -> loop != null && loop.current()
                    ? drive(batch, 0, false)
                    : CompletableFuture.supplyAsync(() -> drive(batch, 0, true), workers).thenCompose(f -> f)));
        }

        /**
         * Runs the batch's commands from {@code from} in order, writing their replies in order, and returns when
         * the last is answered. A command that would wait where this thread must not ({@code mayWait} false: an
         * event loop) goes to a worker with the rest; a forwarded GET or SET ({@link RespCommands#start}) holds no
         * thread while its member answers: the rest continues on the thread its answer arrives on.
         */
        private CompletableFuture<Void> drive(List<List<byte[]>> batch, int from, boolean mayWait) {
            Buffer out = Buffer.buffer();
            int i = from;
            for (; i < batch.size() && !session.closing; i++) { // a loop, not a stream: this runs for every read
                List<byte[]> command = batch.get(i);
                if (!mayWait && loop != null && loop.current()) {
                    List<DataCall> sets = commands.plainSets(session, batch, i, false);
                    if (sets != null) {
                        written(out, i - from);
                        return together(batch, i, sets);
                    }
                    if (readInTurn) {
                        readInTurn = false;
                    } else if (batch.size() == 1 && commands.isPlainGet(command)) {
                        // a read of one GET waits for its turn's others, their keys read side by side (a pipelined
                        // read's keys were read together already: its last GET waiting cost a second flush)
                        return loop.read(command.get(1)).thenCompose(v -> {
                            readInTurn = true;
                            return drive(batch, 0, false);
                        });
                    }
                }
                RespWriter w = new RespWriter(out, session);
                int sets = commands.setsTogether(session, batch, i, w, mayWait); // a run of SETs: one tree version, one append
                if (sets > 0) {
                    i += sets - 1;
                    continue;
                }
                CompletableFuture<DataCall.Reply> started = commands.start(session, command, workers);
                if (started != null && started.isDone()) {
                    if (!commands.finish(session, command, started.join(), w, mayWait)) {
                        return onWorker(out, batch, from, i, started.join());
                    }
                } else if (started != null) {
                    written(out, i - from);
                    // the commands after it that go to other keys start now too (a window of them in flight at
                    // once); their replies are written in order as they come, the rest of the batch after the last
                    List<CompletableFuture<DataCall.Reply>> window = new java.util.ArrayList<>();
                    window.add(started);
                    int end = startAfter(batch, i, window);
                    CompletableFuture<Void> answered = DONE;
                    for (int k = i; k < end; k++) {
                        List<byte[]> c = batch.get(k);
                        CompletableFuture<DataCall.Reply> f = window.get(k - i);
                        answered = answered.thenCompose(v -> answer(c, f));
                    }
                    return answered.thenCompose(v -> drive(batch, end, false));
                } else if (mayWait) {
                    commands.execute(session, command, w);
                } else if (!commands.executeAtOnce(session, command, w)) {
                    written(out, i - from);
                    int next = i;
                    return CompletableFuture.supplyAsync(() -> drive(batch, next, true), workers).thenCompose(f -> f);
                }
            }
            written(out, i - from);
            if (session.closing) {
                socket.close();
                answered(batch.size() - i); // after QUIT the rest is not run
            }
            return DONE;
        }

        /**
         * The plain SETs from the batch's command {@code at} join the ones its event loop read in this turn
         * ({@link LoopTurn}: one tree version, one log append); their replies and the rest of the batch follow once
         * they are applied — or, when they could not be applied together (the ring changed), run one by one on a
         * worker.
         */
        private CompletableFuture<Void> together(List<List<byte[]>> batch, int at, List<DataCall> sets) {
            return loop.add(sets).thenCompose(replies -> {
                if (replies == null) {
                    return CompletableFuture.supplyAsync(() -> drive(batch, at, true), workers).thenCompose(f -> f);
                }
                if (RespCommands.allOk(replies)) {
                    RespCommands.setNoted(session);
                    writtenOks(replies.size());
                } else {
                    Buffer out = Buffer.buffer();
                    commands.setsAnswered(session, replies, new RespWriter(out, session));
                    written(out, replies.size());
                }
                return drive(batch, at + replies.size(), false);
            });
        }

        /**
         * Starts the GETs and SETs after the batch's command {@code at} (started, first in {@code window}) as long as
         * each goes to a key no command in the window touches (a command on the same key waits for the one before
         * it: a GET sees the SET before it) and {@link RespCommands#start} starts it; adds their futures to the window
         * and returns the index after the last started. On a ring, a pipeline's commands for different keys are
         * then in flight at once instead of one forwarded call after another.
         */
        private int startAfter(List<List<byte[]>> batch, int at, List<CompletableFuture<DataCall.Reply>> window) {
            int j = at + 1;
            for (; j < batch.size() && window.size() < MAX_WINDOW; j++) {
                List<byte[]> next = batch.get(j);
                if (next.size() < 2 || next.size() > 3 || touchedBefore(batch, at, j)) {
                    break;
                }
                CompletableFuture<DataCall.Reply> f = commands.start(session, next, workers);
                if (f == null) {
                    break;
                }
                window.add(f);
            }
            return j;
        }

        /** Whether a command from {@code from} before {@code j} names the key of command j. */
        private static boolean touchedBefore(List<List<byte[]>> batch, int from, int j) {
            byte[] key = batch.get(j).get(1);
            for (int k = from; k < j; k++) {
                if (java.util.Arrays.equals(batch.get(k).get(1), key)) {
                    return true;
                }
            }
            return false;
        }

        /** Writes the reply of a started command when it comes: finished on a worker when that may wait. */
        private CompletableFuture<Void> answer(List<byte[]> command, CompletableFuture<DataCall.Reply> started) {
            return started.thenCompose(r -> {
                Buffer reply = Buffer.buffer();
                if (commands.finish(session, command, r, new RespWriter(reply, session), false)) {
                    written(reply, 1);
                    return DONE;
                }
                return CompletableFuture.runAsync(() -> {
                    Buffer b = Buffer.buffer();
                    commands.finish(session, command, r, new RespWriter(b, session), true);
                    written(b, 1);
                }, workers);
            });
        }

        /**
         * The batch's command {@code at} finished on a worker (its reply came; writing it waits) after the replies
         * in {@code out} of the commands from {@code from}, then the rest of the batch.
         */
        private CompletableFuture<Void> onWorker(Buffer out, List<List<byte[]>> batch, int from, int at,
                                                 DataCall.Reply reply) {
            written(out, at - from);
            return CompletableFuture.supplyAsync(() -> {
                Buffer b = Buffer.buffer();
                commands.finish(session, batch.get(at), reply, new RespWriter(b, session), true);
                written(b, 1);
                return drive(batch, at + 1, true);
            }, workers).thenCompose(f -> f);
        }

        /** Writes {@code count} OK replies from the shared direct buffer of them (no copy, no allocation). */
        private void writtenOks(int count) {
            var raw = (io.vertx.core.net.impl.NetSocketInternal) socket;
            for (int left = count; left > 0; left -= OKS_AT_ONCE) {
                raw.writeMessage(OKS.retainedSlice(0, OK.length * Math.min(left, OKS_AT_ONCE)));
            }
            answered(count);
        }

        /** Writes the replies of {@code count} commands (none: nothing to write) and counts them answered. */
        private void written(Buffer out, int count) {
            if (count > 0) {
                socket.write(out);
                answered(count);
            }
        }

        /** Stops or resumes reading the socket (thread-safe in Netty: the read is scheduled on the loop). */
        private void autoRead(boolean on) {
            ((io.vertx.core.net.impl.NetSocketInternal) socket).channelHandlerContext().channel().config()
                    .setAutoRead(on);
        }

        private void answered(int count) {
            if (pending.addAndGet(-count) < MAX_PENDING / 2 && paused) {
                paused = false;
                autoRead(true);
            }
        }

        /** A fault of the chain itself (not a command's: those are error replies) closes the connection, logged. */
        private CompletableFuture<Void> guarded(CompletableFuture<Void> chain) {
            return chain.exceptionally(e -> {
                LOG.log(System.Logger.Level.WARNING, "RESP client " + session.address + ": closed after a fault", e);
                socket.close();
                return null;
            });
        }
    }

    private static final CompletableFuture<Void> DONE = CompletableFuture.completedFuture(null);
    private static final byte[] OK = {'+', 'O', 'K', '\r', '\n'};
    private static final int OKS_AT_ONCE = 256;
    /** OKS_AT_ONCE OK replies in direct memory, never freed: a write of SETs' OKs sends a slice of it. */
    private static final io.netty.buffer.ByteBuf OKS;

    static {
        io.netty.buffer.ByteBuf oks = io.netty.buffer.Unpooled.directBuffer(OK.length * OKS_AT_ONCE);
        for (int i = 0; i < OKS_AT_ONCE; i++) {
            oks.writeBytes(OK);
        }
        OKS = io.netty.buffer.Unpooled.unreleasableBuffer(oks.asReadOnly());
    }

    public int connections() {
        return connections.get();
    }

    @Override
    public void close() {
        servers.forEach(NetServer::close); // at once: undeploying closes them too, but later
        for (String d : deployments) { // waited for off an event loop: a Vertx closed next must not undeploy them again
            var undeployed = vertx.undeploy(d).toCompletionStage().toCompletableFuture();
            if (!io.vertx.core.Context.isOnEventLoopThread()) {
                try {
                    undeployed.get(10, TimeUnit.SECONDS);
                } catch (Exception e) {
                    LOG.log(System.Logger.Level.DEBUG, "RESP listener not undeployed: " + e);
                }
            }
        }
        deployments.clear();
        workers.shutdownNow();
    }
}

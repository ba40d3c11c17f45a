package io.god.resp;

import io.god.api.JsonRpc;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.NetSocket;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The Redis protocol listener ({@code god.resp.port}): RESP2 and RESP3, pipelining, inline commands. Each
 * connection's commands run one after another on a worker pool (they may wait for the key's owner or for Sync) and
 * are answered in order; when nothing of the connection is queued, the commands at the head of a read that never wait
 * run on the network event loop instead ({@link RespCommands#executeAtOnce}: GET, a plain SET and PING on a node alone
 * in its ring, and on a ring a GET this node answers from its own copy). The port has one listener per event loop
 * ({@code god.resp.event-loops}), so connections are served on several cores. A connection with more than {@link #MAX_PENDING} commands waiting stops being read until they are
 * answered. A protocol error is answered and closes the connection.
 */
public final class RespServer implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(RespServer.class.getName());
    /** Commands read ahead of their replies per connection (pipelining) before the socket is paused. */
    static final int MAX_PENDING = 1024;
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
    private final AtomicLong ids = new AtomicLong();
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
        private final AtomicInteger pending = new AtomicInteger();
        private CompletableFuture<Void> tail = CompletableFuture.completedFuture(null);
        private volatile boolean paused;
        private boolean broken;

        Connection(NetSocket socket) {
            this.socket = socket;
            var settings = rpc.node().settings();
            this.reader = new RespReader(1024 * 1024, Math.max(settings.keySize(), settings.valueSize()),
                    settings.bodySize());
            this.session = new RespSession(ids.incrementAndGet(), String.valueOf(socket.remoteAddress()),
                    this::kill);
            sessions.put(session.id, session);
            socket.handler(this::received);
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

        /** On the event loop: parse, and queue each complete command behind the ones before it. */
        private void received(Buffer b) {
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
            if (pending.addAndGet(commandsRead.size()) > MAX_PENDING && !paused) {
                paused = true;
                socket.pause();
            }
            List<List<byte[]>> rest = commandsRead;
            if (tail.isDone()) { // nothing of the connection queued: what answers at once is answered here, in order
                int answered = answer(commandsRead, true);
                if (answered == commandsRead.size() || session.closing) {
                    return;
                }
                rest = commandsRead.subList(answered, commandsRead.size());
            }
            // the commands left run as one task and are answered with one write (pipelining)
            List<List<byte[]>> queued = rest;
            tail = tail.thenRunAsync(() -> answer(queued, false), workers);
        }

        /**
         * Runs the batch's commands in order and writes their replies at once; {@code atOnce} (on the event loop)
         * stops at the first command that would wait ({@link RespCommands#executeAtOnce}). Returns how many ran.
         */
        private int answer(List<List<byte[]>> batch, boolean atOnce) {
            Buffer out = Buffer.buffer();
            int ran = 0;
            for (List<byte[]> command : batch) { // a loop, not a stream: this runs for every read of every connection
                if (session.closing) {
                    break;
                }
                RespWriter w = new RespWriter(out, session);
                if (!atOnce) {
                    commands.execute(session, command, w);
                } else if (!commands.executeAtOnce(session, command, w)) {
                    break;
                }
                ran++;
            }
            if (ran == 0 && atOnce) {
                return 0;
            }
            socket.write(out);
            if (session.closing) {
                socket.close();
            }
            int done = session.closing ? batch.size() : ran; // after QUIT the rest is not run
            if (pending.addAndGet(-done) < MAX_PENDING / 2 && paused) {
                paused = false;
                socket.resume();
            }
            return ran;
        }
    }

    public int connections() {
        return connections.get();
    }

    @Override
    public void close() {
        servers.forEach(NetServer::close); // at once: undeploying closes them too, but later
        deployments.forEach(vertx::undeploy);
        workers.shutdownNow();
    }
}

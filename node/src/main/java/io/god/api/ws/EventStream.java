package io.god.api.ws;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.god.api.JsonRpc;
import io.god.command.Wire;
import io.god.events.Event;
import io.god.events.EventBus;
import io.god.request.Result;
import io.vertx.core.Vertx;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.ext.web.Router;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The node's events on {@code GET /ws} (reference §2.4): text frames {@code {"type": T, "data": D}}.
 * On connect a {@code RingChange} (this node's {@code Describe} and the ring as {@code routes}), then
 * one every second (one shared timer, running only while connections are open) and every event of
 * the node's {@link EventBus}. Each connection registers one listener, removed when the connection
 * closes or fails. A connection that cannot keep up loses events: at most {@link #MAX_IN_FLIGHT}
 * frames are queued per connection, later ones are dropped (and counted). Incoming messages are
 * ignored.
 *
 * <p>The same frames go to peers that relay them to a browser over the binary protocol
 * ({@link io.god.wire.Ops#EVENTS}, {@link #serveFeed}): a bounded buffer that listens to the bus from the
 * first poll until no poll came for {@link #FEED_IDLE_MILLIS}.
 */
public final class EventStream {

    /** Frames written to a connection and not yet flushed, beyond which events are dropped. */
    public static final int MAX_IN_FLIGHT = 64;
    /** Frames the relay buffer keeps (older ones are dropped for a relay that polls too slowly). */
    public static final int FEED_SIZE = 256;
    /** Without a poll for this long the relay buffer stops listening. */
    public static final long FEED_IDLE_MILLIS = 10_000;

    private static final System.Logger LOG = System.getLogger(EventStream.class.getName());

    private final Vertx vertx;
    private final EventBus bus;
    private final JsonRpc rpc;
    private final long intervalMillis;
    private final ObjectMapper json = JsonRpc.mapper();
    private final Set<Connection> connections = ConcurrentHashMap.newKeySet();
    private final AtomicLong dropped = new AtomicLong();
    private long timer = -1; // guarded by this

    public EventStream(Vertx vertx, EventBus bus, JsonRpc rpc, long intervalMillis) {
        this.vertx = vertx;
        this.bus = bus;
        this.rpc = rpc;
        this.intervalMillis = intervalMillis;
    }

    /** Mounts {@code GET /ws} (a websocket upgrade) on a router and serves the node's relay feed. */
    public static EventStream mount(Router router, Vertx vertx, Supplier<JsonRpc> rpc, long intervalMillis) {
        JsonRpc r = rpc.get();
        EventStream stream = new EventStream(vertx, r.node().events(), r, intervalMillis);
        stream.serveFeed();
        io.god.command.Admission admission = new io.god.command.Admission(r.node());
        router.get("/ws").handler(ctx -> {
            String refused = admission.refuseRead("/ws", io.god.api.RequestCredential.of(ctx.request()));
            if (refused != null) {
                ctx.response().setStatusCode(401).end(refused);
            } else {
                ctx.next();
            }
        });
        router.get("/ws").handler(ctx -> ctx.request().toWebSocket()
                .onSuccess(stream::open)
                .onFailure(e -> {
                    if (!ctx.response().ended()) {
                        ctx.response().setStatusCode(400).end("websocket upgrade expected: " + e.getMessage());
                    }
                }));
        return stream;
    }

    /** Open connections (tests check it returns to 0). */
    public int connections() {
        return connections.size();
    }

    /** Whether the once-a-second RingChange timer runs (only while connections are open). */
    public synchronized boolean timerRunning() {
        return timer >= 0;
    }

    /** Events dropped because a connection could not keep up. */
    public long dropped() {
        return dropped.get();
    }

    /** Starts streaming to an accepted websocket. */
    public void open(ServerWebSocket ws) {
        Connection c = new Connection(ws);
        connections.add(c);
        ws.handler(buffer -> { });
        ws.closeHandler(v -> c.close());
        ws.exceptionHandler(e -> c.close());
        c.subscription = bus.subscribe(c::event);
        if (c.closed.get()) {
            c.subscription.close();
            return;
        }
        startTimer();
        ringChange(null).onSuccess(c::send);
        if (ws.isClosed()) {
            c.close();
        }
    }

    private void tick() {
        feed.idleCheck();
        ringChange(null).onSuccess(frame -> {
            connections.forEach(c -> c.send(frame));
            feed.append(frame);
        });
    }

    private synchronized void removed(Connection c) {
        connections.remove(c);
        stopTimerIfIdle();
    }

    private synchronized void startTimer() {
        if (timer < 0) {
            timer = vertx.setPeriodic(intervalMillis, id -> tick());
        }
    }

    private synchronized void stopTimerIfIdle() {
        if (connections.isEmpty() && !feed.listening() && timer >= 0) {
            vertx.cancelTimer(timer);
            timer = -1;
        }
    }

    // ------------------------------------------------------------------ the relay feed (Ops.EVENTS)

    private final Feed feed = new Feed();

    /** Serves {@link io.god.wire.Ops#EVENTS} for this stream's node. */
    public void serveFeed() {
        rpc.node().installEventsHandler(this::events);
    }

    private java.util.concurrent.CompletableFuture<byte[]> events(byte[] payload) {
        io.god.wire.WireReader r = new io.god.wire.WireReader(payload);
        long cursor = r.varint();
        int max = Math.max(1, r.count(FEED_SIZE));
        r.atEnd();
        feed.polled();
        startTimer();
        if (cursor == 0) { // a new relay: where the feed is now, and the node's RingChange first
            long next = feed.next();
            return ringChange(null).toCompletionStage().toCompletableFuture()
                    .thenApply(frame -> encode(next, List.of(frame)));
        }
        List<String> frames = new ArrayList<>();
        long next = feed.since(cursor, max, frames);
        return java.util.concurrent.CompletableFuture.completedFuture(encode(next, frames));
    }

    private static byte[] encode(long next, List<String> frames) {
        io.god.wire.WireWriter w = new io.god.wire.WireWriter().varint(next).varint(frames.size());
        frames.forEach(w::string);
        return w.toBytes();
    }

    /** The last {@link #FEED_SIZE} frames with their sequence numbers; listens to the bus while polled. */
    private final class Feed {
        private final String[] frames = new String[FEED_SIZE];
        private long next = 1; // sequence number of the next frame (0 means "a new relay")
        private long lastPoll;
        private EventBus.Subscription subscription;

        synchronized void polled() {
            lastPoll = System.nanoTime();
            if (subscription == null) {
                subscription = bus.subscribe(this::event);
            }
        }

        synchronized boolean listening() {
            return subscription != null;
        }

        synchronized void idleCheck() {
            if (subscription != null && System.nanoTime() - lastPoll > FEED_IDLE_MILLIS * 1_000_000) {
                subscription.close();
                subscription = null;
                stopTimerIfIdle();
            }
        }

        private void event(Event e) {
            if (e instanceof Event.RingChange r) {
                ringChange(r.ring()).onSuccess(this::append);
            } else {
                append(frame(e));
            }
        }

        synchronized void append(String frame) {
            if (subscription != null) {
                frames[(int) (next % FEED_SIZE)] = frame;
                next++;
            }
        }

        synchronized long next() {
            return next;
        }

        /** Adds the frames from {@code cursor} on (at most {@code max}; the oldest are gone); returns the next cursor. */
        synchronized long since(long cursor, int max, List<String> out) {
            long from = Math.max(cursor, Math.max(1, next - FEED_SIZE));
            long to = Math.min(next, from + max);
            for (long i = from; i < to; i++) {
                out.add(frames[(int) (i % FEED_SIZE)]);
            }
            return to;
        }
    }

    /** A RingChange frame; Describe runs off the event loop (with the ring it may ask peers). */
    private io.vertx.core.Future<String> ringChange(List<Event.NodeRef> ring) {
        return vertx.executeBlocking(() -> {
            Result.Description d = (Result.Description) rpc.execute(new io.god.request.Request.Describe(), null);
            List<Result.Remote> routes = d.nodes();
            if (ring != null) {
                routes = new ArrayList<>();
                for (Event.NodeRef n : ring) {
                    routes.add(remote(n));
                }
            }
            Map<String, Object> data = new LinkedHashMap<>();
            data.put("description", d);
            data.put("routes", routes);
            return frame("RingChange", data);
        }, false);
    }

    private static Result.Remote remote(Event.NodeRef n) {
        return n == null ? null : new Result.Remote(n.position(), n.address());
    }

    /** The JSON frame of an event other than RingChange (reference §2.4 field names). */
    String frame(Event e) {
        Map<String, Object> data = new LinkedHashMap<>();
        if (e instanceof Event.Comm c) {
            data.put("source", remote(c.source()));
            data.put("destination", remote(c.destination()));
            data.put("key", c.key());
            data.put("sub_key", c.subKey());
            data.put("type", c.operation());
        } else if (e instanceof Event.Sync s) {
            data.put("source", remote(s.source()));
            data.put("destination", remote(s.destination()));
            data.put("pulled", s.pulled());
            data.put("pushed", s.pushed());
        } else if (e instanceof Event.Clean c) {
            data.put("source", remote(c.source()));
            data.put("destination", remote(c.destination()));
            data.put("cleaned", c.cleaned());
            data.put("pushed", c.pushed());
        } else if (e instanceof Event.Migrate m) {
            data.put("node", remote(m.node()));
            data.put("from", m.from());
            data.put("to", m.to());
        } else {
            throw new IllegalArgumentException(e.type() + " frames are built elsewhere");
        }
        return frame(e.type(), data);
    }

    private String frame(String type, Object data) {
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("type", type);
        f.put("data", data);
        try {
            return json.writeValueAsString(f);
        } catch (JsonProcessingException ex) {
            throw new IllegalStateException(ex);
        }
    }

    /** One websocket. */
    private final class Connection {
        final ServerWebSocket ws;
        final AtomicInteger inFlight = new AtomicInteger();
        final AtomicBoolean closed = new AtomicBoolean();
        volatile EventBus.Subscription subscription;

        Connection(ServerWebSocket ws) {
            this.ws = ws;
        }

        /** A bus listener: never blocks the publisher. */
        void event(Event e) {
            if (closed.get()) {
                return;
            }
            if (e instanceof Event.RingChange r) {
                ringChange(r.ring()).onSuccess(this::send);
            } else {
                send(frame(e));
            }
        }

        void send(String frame) {
            if (closed.get()) {
                return;
            }
            if (inFlight.get() >= MAX_IN_FLIGHT || ws.writeQueueFull()) {
                dropped.incrementAndGet();
                return;
            }
            inFlight.incrementAndGet();
            ws.writeTextMessage(frame).onComplete(ar -> {
                inFlight.decrementAndGet();
                if (ar.failed()) {
                    close();
                }
            });
        }

        void close() {
            if (!closed.compareAndSet(false, true)) {
                return;
            }
            EventBus.Subscription s = subscription;
            if (s != null) {
                s.close();
            }
            removed(this);
            if (!ws.isClosed()) {
                try {
                    ws.close();
                } catch (RuntimeException e) {
                    LOG.log(System.Logger.Level.DEBUG, "closing websocket: " + e);
                }
            }
        }
    }
}

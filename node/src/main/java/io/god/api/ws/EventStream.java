package io.god.api.ws;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.god.api.JsonRpc;
import io.god.api.Wire;
import io.god.events.Event;
import io.god.events.EventBus;
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
 */
public final class EventStream {

    /** Frames written to a connection and not yet flushed, beyond which events are dropped. */
    public static final int MAX_IN_FLIGHT = 64;

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

    /** Mounts {@code GET /ws} (a websocket upgrade) on a router. */
    public static EventStream mount(Router router, Vertx vertx, Supplier<JsonRpc> rpc, long intervalMillis) {
        JsonRpc r = rpc.get();
        EventStream stream = new EventStream(vertx, r.node().events(), r, intervalMillis);
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
        synchronized (this) {
            if (timer < 0) {
                timer = vertx.setPeriodic(intervalMillis, id -> tick());
            }
        }
        ringChange(null).onSuccess(c::send);
        if (ws.isClosed()) {
            c.close();
        }
    }

    private void tick() {
        ringChange(null).onSuccess(frame -> connections.forEach(c -> c.send(frame)));
    }

    private synchronized void removed(Connection c) {
        connections.remove(c);
        if (connections.isEmpty() && timer >= 0) {
            vertx.cancelTimer(timer);
            timer = -1;
        }
    }

    /** A RingChange frame; Describe runs off the event loop (with the ring it may ask peers). */
    private io.vertx.core.Future<String> ringChange(List<Event.NodeRef> ring) {
        return vertx.executeBlocking(() -> {
            Wire.Description d = (Wire.Description) rpc.execute("Describe", new Wire.Req(), null);
            List<Wire.Remote> routes = d.nodes();
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

    private static Wire.Remote remote(Event.NodeRef n) {
        return n == null ? null : new Wire.Remote(n.position(), n.address());
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

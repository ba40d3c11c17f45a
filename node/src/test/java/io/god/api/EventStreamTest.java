package io.god.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.god.api.ws.EventRoutes;
import io.god.events.Event;
import io.god.testing.TimeScale;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * /ws: a RingChange on connect and every second, the bus's events as reference §2.4 frames, one
 * listener per connection removed on close or abort (and the shared timer stopped), and a client
 * that does not read loses events instead of queueing them without bound.
 */
@QuarkusTest
class EventStreamTest extends RpcTestSupport {

    @Inject
    NodeBean bean;

    @Inject
    EventRoutes routes;

    /** A websocket client collecting text frames; reads only as many as {@code demand} allows. */
    static final class Client implements WebSocket.Listener {
        final BlockingQueue<JsonNode> frames = new LinkedBlockingQueue<>();
        final StringBuilder partial = new StringBuilder();
        final boolean reading;
        WebSocket ws;

        Client(boolean reading) {
            this.reading = reading;
        }

        static Client open(boolean reading) {
            Client c = new Client(reading);
            c.ws = HTTP.newWebSocketBuilder().buildAsync(URI.create("ws://localhost:" + RestAssured.port + "/ws"), c)
                    .join();
            return c;
        }

        @Override
        public void onOpen(WebSocket webSocket) {
            webSocket.request(1);
        }

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                try {
                    frames.add(JSON.readTree(partial.toString()));
                } catch (java.io.IOException e) {
                    throw new AssertionError(e);
                }
                partial.setLength(0);
            }
            if (reading) {
                webSocket.request(1);
            }
            return null;
        }

        JsonNode next(String type, long seconds) throws InterruptedException {
            long deadline = System.nanoTime() + TimeScale.seconds(seconds).toNanos();
            while (System.nanoTime() < deadline) {
                JsonNode f = frames.poll(100, TimeUnit.MILLISECONDS);
                if (f != null && f.get("type").asText().equals(type)) {
                    return f;
                }
            }
            throw new AssertionError("no " + type + " frame within " + TimeScale.seconds(seconds).toSeconds() + " s");
        }

        void close() {
            ws.sendClose(WebSocket.NORMAL_CLOSURE, "bye").join();
        }
    }

    static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeScale.seconds(10).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(20);
        }
    }

    Event.NodeRef self() {
        return new Event.NodeRef(bean.node().position(), bean.node().address());
    }

    @Test
    void ringChangeOnConnectThenEverySecond() throws Exception {
        Client c = Client.open(true);
        try {
            JsonNode first = c.next("RingChange", 5);
            JsonNode d = first.get("data").get("description");
            assertThat(d.get("Addr").asText()).isEqualTo("127.0.0.1:9191");
            assertThat(Base64.getDecoder().decode(d.get("Pos").asText())).isEqualTo(bean.node().position());
            assertThat(d.has("OwnedEntries")).isTrue();
            assertThat(d.has("HeldEntries")).isTrue();
            assertThat(d.has("Load")).isTrue();
            JsonNode routes = first.get("data").get("routes");
            assertThat(routes).hasSize(1);
            assertThat(routes.get(0).get("Addr").asText()).isEqualTo("127.0.0.1:9191");
            assertThat(routes.get(0).get("Pos").asText()).isEqualTo(d.get("Pos").asText());
            // then once a second (one shared timer): three ticks take about three seconds; measured over three
            // intervals so one late tick on a busy machine (and the timer catching up) does not decide it
            c.next("RingChange", 3);
            long tick = System.nanoTime();
            for (int i = 0; i < 3; i++) {
                c.next("RingChange", 3);
            }
            long gap = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - tick);
            assertThat(gap).isBetween(1_500L, 3_000L + TimeScale.seconds(1).toMillis());
        } finally {
            c.close();
        }
    }

    @Test
    void busEventsBecomeFrames() throws Exception {
        Client c = Client.open(true);
        try {
            c.next("RingChange", 5);
            await("listener", () -> bean.node().events().hasListeners());
            Event.NodeRef other = new Event.NodeRef(new byte[16], "10.0.0.2:9191");
            bean.node().events().publish(new Event.Comm(self(), other, "k".getBytes(), null, "DHash.SlavePut"));
            JsonNode comm = c.next("Comm", 5).get("data");
            assertThat(comm.get("source").get("Addr").asText()).isEqualTo("127.0.0.1:9191");
            assertThat(comm.get("destination").get("Pos").asText()).isEqualTo(b(new int[16]));
            assertThat(comm.get("destination").get("Addr").asText()).isEqualTo("10.0.0.2:9191");
            assertThat(comm.get("key").asText()).isEqualTo(s("k"));
            assertThat(comm.get("sub_key").isNull()).isTrue();
            assertThat(comm.get("type").asText()).isEqualTo("DHash.SlavePut");

            bean.node().events().publish(new Event.Sync(self(), other, 3, 4));
            JsonNode sync = c.next("Sync", 5).get("data");
            assertThat(sync.get("pulled").asLong()).isEqualTo(3);
            assertThat(sync.get("pushed").asLong()).isEqualTo(4);
            assertThat(sync.get("source").get("Addr").asText()).isEqualTo("127.0.0.1:9191");

            bean.node().events().publish(new Event.Clean(self(), other, 5, 6));
            JsonNode clean = c.next("Clean", 5).get("data");
            assertThat(clean.get("cleaned").asLong()).isEqualTo(5);
            assertThat(clean.get("pushed").asLong()).isEqualTo(6);
            assertThat(clean.get("destination").get("Addr").asText()).isEqualTo("10.0.0.2:9191");

            bean.node().events().publish(new Event.Migrate(self(), new byte[] {1}, new byte[] {2}));
            JsonNode migrate = c.next("Migrate", 5).get("data");
            assertThat(migrate.get("from").asText()).isEqualTo(b(1));
            assertThat(migrate.get("to").asText()).isEqualTo(b(2));

            // a ring change from the ring: its members become the routes
            bean.node().events().publish(new Event.RingChange(self(), List.of(other, self())));
            JsonNode ring;
            do {
                ring = c.next("RingChange", 5).get("data");
            } while (ring.get("routes").size() != 2);
            assertThat(ring.get("routes").get(0).get("Addr").asText()).isEqualTo("10.0.0.2:9191");
            assertThat(ring.get("description").get("Addr").asText()).isEqualTo("127.0.0.1:9191");
        } finally {
            c.close();
        }
    }

    @Test
    void closedConnectionsLeaveNoListenerOrTimer() throws Exception {
        await("no connections from earlier tests", () -> routes.stream().connections() == 0);
        int baseline = bean.node().events().listenerCount();
        List<Client> clients = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            clients.add(Client.open(true));
        }
        for (Client c : clients) {
            c.next("RingChange", 5);
        }
        assertThat(bean.node().events().listenerCount()).isEqualTo(baseline + 3);
        assertThat(routes.stream().connections()).isEqualTo(3);
        assertThat(routes.stream().timerRunning()).isTrue();
        clients.get(0).close();
        clients.get(1).close();
        await("two listeners removed", () -> bean.node().events().listenerCount() == baseline + 1);
        assertThat(routes.stream().timerRunning()).isTrue();
        clients.get(2).ws.abort(); // no close frame: the TCP connection just goes away
        await("all listeners removed", () -> bean.node().events().listenerCount() == baseline);
        await("connections gone", () -> routes.stream().connections() == 0);
        assertThat(routes.stream().timerRunning()).isFalse();
        // and the stream works again afterwards
        Client again = Client.open(true);
        again.next("RingChange", 5);
        assertThat(routes.stream().timerRunning()).isTrue();
        again.close();
        await("closed again", () -> bean.node().events().listenerCount() == baseline);
    }

    @Test
    void aClientThatDoesNotReadLosesEvents() throws Exception {
        await("no connections from earlier tests", () -> routes.stream().connections() == 0);
        int baseline = bean.node().events().listenerCount();
        Client slow = Client.open(false); // reads one frame, then nothing
        slow.next("RingChange", 5);
        await("listener", () -> bean.node().events().listenerCount() == baseline + 1);
        long droppedBefore = routes.stream().dropped();
        byte[] key = new byte[32 * 1024];
        Event.NodeRef other = new Event.NodeRef(new byte[16], "10.0.0.2:9191");
        for (int i = 0; i < 2000; i++) {
            bean.node().events().publish(new Event.Comm(self(), other, key, null, "DHash.SlavePut"));
        }
        await("events dropped", () -> routes.stream().dropped() > droppedBefore);
        slow.ws.abort();
        await("listener removed", () -> bean.node().events().listenerCount() == baseline);
    }

    @Test
    void plainGetIsNotAnUpgrade() throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(
                URI.create("http://localhost:" + RestAssured.port + "/ws")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(400);
    }
}

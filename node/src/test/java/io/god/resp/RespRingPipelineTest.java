package io.god.resp;

import static org.assertj.core.api.Assertions.assertThat;

import io.god.cluster.Rings;
import io.god.node.GodNode;
import io.god.testing.TimeScale;
import io.god.transport.TestNetwork;
import io.god.transport.Transport;
import io.god.transport.WrappedTransport;
import io.god.wire.Ops;
import io.vertx.core.Vertx;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.Response;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * Pipelines on a 3-node ring, where the GETs a node answers from its own copy run on the event loop and the commands
 * from the first one that waits run on a worker: the replies are what a serial execution gives, in order, with
 * commands on several keys (MSET, DEL of two, MGET, DBSIZE) and of the session (AUTH) among them.
 */
class RespRingPipelineTest {

    private static final String TOKEN = "ring-pipeline-token";

    /**
     * One pipelined command: what Jedis answered, and what the serial model expects — evaluated in the pipeline's
     * order, applying the command to the model, unless the command was refused.
     */
    private record Sent(String command, Response<?> reply, Supplier<Object> expected) {
    }

    /**
     * Seeded random pipelines of SET/GET/DEL/EXISTS over 30 keys (many repeats, so a reordered pair on one key shows)
     * mixed with barriers, against a model executing them one by one; the first pipeline sends GET before AUTH (refused)
     * and after it (answered). On a node alone too, where the plain SETs of a pipeline's reads wait for their loop's
     * group ({@link LoopTurn}) while the next reads arrive, and the commands of those go on after them.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(ints = {3, 1})
    void randomPipelinesAnswerAsASerialExecutionDoes(int nodes) throws Exception {
        try (RespNodes n = new RespNodes(Map.of("god.auth.token", TOKEN, "god.auth.reads", "true")).start(nodes);
                Jedis j = RespTest.jedis(n, 0)) {
            Pipeline p = j.pipelined();
            Response<String> before = p.get("k0");
            Response<Object> auth = p.sendCommand(Protocol.Command.AUTH, TOKEN);
            Response<String> set = p.set("k0", "first");
            Response<String> after = p.get("k0");
            p.sync();
            assertThat(value(before)).asString().startsWith("NOAUTH");
            assertThat(new String((byte[]) auth.get(), StandardCharsets.UTF_8)).isEqualTo("OK");
            assertThat(set.get()).isEqualTo("OK");
            assertThat(after.get()).as("a command after AUTH runs with its credential").isEqualTo("first");

            Map<String, String> model = new HashMap<>(Map.of("k0", "first"));
            Random random = new Random(20261128L);
            int refused = 0;
            for (int round = 0; round < 8; round++) {
                p = j.pipelined();
                List<Sent> sent = new ArrayList<>();
                for (int i = 0; i < 400; i++) {
                    sent.add(next(random, p, model, "r" + round + "-" + i));
                }
                p.sync();
                for (int i = 0; i < sent.size(); i++) {
                    Sent s = sent.get(i);
                    Object answer = value(s.reply());
                    // a loaded host may stall a node past its pause threshold: it refuses a write (not made) and
                    // the client retries; any other answer is the serial execution's
                    if (answer instanceof String e && e.startsWith("TRYAGAIN")) {
                        refused++;
                        continue;
                    }
                    assertThat(answer).as("round %d, command %d: %s", round, i, s.command())
                            .isEqualTo(s.expected().get());
                }
            }
            assertThat(refused).as("commands refused out of 3200").isLessThan(400);
            assertThat(j.dbSize()).isEqualTo(model.size());
        }
    }

    /**
     * A GET this node answers from its own copy (the key's first reader, no merge due) runs on the network event loop;
     * one the key's owner must answer goes to a worker, which forwards it; in a pipeline they are answered in order.
     */
    @Test
    void aGetThisNodeAnswersItselfRunsOnTheEventLoop() throws Exception {
        try (RespNodes n = new RespNodes(Map.of()).start(3)) {
            io.god.node.GodNode node = n.rings.nodes.get(0);
            List<String> threads = new java.util.concurrent.CopyOnWriteArrayList<>();
            io.god.api.JsonRpc observed = new io.god.api.JsonRpc(node,
                    (method, status, nanos) -> threads.add(method + " " + status + " " + Thread.currentThread().getName()));
            RespServer server = new RespServer(n.vertx, observed, true, 10, 2, 1);
            try (Jedis j = new Jedis("127.0.0.1", server.start("127.0.0.1", 0))) {
                // any free port is a port of its own, also with several listeners of one Vertx asking for one (they
                // shared Vert.x's one "random" port, and a connection went to any node's listener)
                assertThat(new HashSet<>(n.ports)).as("each node's listener has a port of its own").hasSize(3);
                assertThat(j.ping()).isEqualTo("PONG");
                assertThat(server.connections()).as("this server serves the connection to its port").isEqualTo(1);
                byte[] local = null;
                byte[] remote = null;
                for (int b = 1; b < 256 && (local == null || remote == null); b++) { // keys are placed by their bytes
                    byte[] k = {(byte) b, 'g'};
                    if (node.cluster().executesHere(k, 0, true)) {
                        local = local == null ? k : local;
                    } else {
                        remote = remote == null ? k : remote;
                    }
                }
                assertThat(local).as("a key node 0 reads itself").isNotNull();
                assertThat(remote).as("a key another member reads").isNotNull();
                j.set(local, "mine".getBytes(StandardCharsets.UTF_8));
                j.set(remote, "theirs".getBytes(StandardCharsets.UTF_8));
                byte[] l = local;
                // reads merge while a member is still presumed catching up after the ring formed: then they wait too
                org.awaitility.Awaitility.await().atMost(TimeScale.seconds(20)).until(() -> {
                    threads.clear();
                    return Arrays.equals(j.get(l), "mine".getBytes(StandardCharsets.UTF_8))
                            && threads.equals(List.of("Get 200 " + threadOf(threads)))
                            && threads.get(0).contains("eventloop");
                });
                threads.clear();
                assertThat(j.get(remote)).isEqualTo("theirs".getBytes(StandardCharsets.UTF_8));
                // forwarded: answered on the thread the member's answer came on, no RESP worker waiting for it
                assertThat(threads).singleElement().asString().startsWith("Get 200 ").doesNotContain("god-resp-");
                // a miss asks whether the key holds a sub tree (WRONGTYPE) on a worker: the GET itself runs once
                byte[] absent = null;
                for (int b = 1; b < 256 && absent == null; b++) {
                    byte[] k = {(byte) b, 'a'};
                    absent = node.cluster().executesHere(k, 0, true) ? k : null;
                }
                threads.clear();
                assertThat(j.get(absent)).isNull();
                assertThat(threads).as("commands counted for a GET that missed")
                        .filteredOn(t -> t.startsWith("Get ")).hasSize(1);

                Pipeline p = j.pipelined();
                Response<byte[]> first = p.get(local);
                Response<byte[]> second = p.get(remote);
                Response<String> set = p.set(local, "again".getBytes(StandardCharsets.UTF_8));
                Response<byte[]> third = p.get(local);
                p.sync();
                assertThat(new String(first.get(), StandardCharsets.UTF_8)).isEqualTo("mine");
                assertThat(new String(second.get(), StandardCharsets.UTF_8)).isEqualTo("theirs");
                assertThat(set.get()).isEqualTo("OK");
                assertThat(new String(third.get(), StandardCharsets.UTF_8)).as("after the SET before it").isEqualTo("again");
            } finally {
                server.close();
            }
        }
    }

    /**
     * A GET or SET that goes to another member holds no RESP worker while that member answers. With one worker and the
     * forwarding node's DATA calls held by the test, the forwarded commands of eight connections are all in flight at
     * once, a Sync SET this node executes (its copies are not held) is answered meanwhile, and once released each
     * connection gets its own answer. Before, each forwarded command held the one worker until its answer came: one in
     * flight, the others (and the local SET) queued behind it.
     */
    @Test
    void aForwardedCommandHoldsNoWorkerWhileItsMemberAnswers() throws Exception {
        ExecutorService clients = Executors.newFixedThreadPool(CONNECTIONS);
        Held calls = new Held();
        CompletableFuture<Void> release = calls.release;
        AtomicInteger held = calls.held;
        AtomicBoolean hold = calls.hold;
        Vertx vertx = Vertx.vertx();
        RespServer server = null;
        try (TestNetwork network = new TestNetwork(30); Rings rings = new Rings()) {
            GodNode node = calls.ring(network, rings);
            server = new RespServer(vertx, rings.rpc(0), true, 100, 1, 1);
            int port = server.start("127.0.0.1", 0);
            List<byte[]> reads = forwarded(node, true, CONNECTIONS / 2, 'r');
            List<byte[]> writes = forwarded(node, false, CONNECTIONS / 2, 'w');
            byte[] mine = null;
            for (int b = 1; b < 256 && mine == null; b++) {
                byte[] k = {(byte) b, 'm'};
                mine = node.cluster().executesHere(k, 0, false) ? k : null;
            }
            assertThat(mine).as("a key node 0 writes itself").isNotNull();
            try (Jedis j = new Jedis("127.0.0.1", port, 120_000)) {
                for (byte[] k : reads) {
                    assertThat(j.set(k, k)).isEqualTo("OK");
                }
                hold.set(true);
                List<Future<Object>> answers = new ArrayList<>();
                for (int c = 0; c < CONNECTIONS; c++) {
                    byte[] key = c % 2 == 0 ? reads.get(c / 2) : writes.get(c / 2);
                    boolean read = c % 2 == 0;
                    answers.add(clients.submit(() -> {
                        try (Jedis k = new Jedis("127.0.0.1", port, 120_000)) {
                            return read ? k.get(key) : k.set(key, "new".getBytes(StandardCharsets.UTF_8));
                        }
                    }));
                }
                Awaitility.await("all " + CONNECTIONS + " forwarded commands in flight at once")
                        .atMost(TimeScale.seconds(20)).until(() -> held.get() == CONNECTIONS);
                assertThat(j.set(mine, "here".getBytes(StandardCharsets.UTF_8)))
                        .as("a Sync SET node 0 executes, answered while the forwarded ones wait").isEqualTo("OK");
                assertThat(answers).noneMatch(Future::isDone);
                release.complete(null);
                for (int c = 0; c < CONNECTIONS; c++) {
                    Object a = answers.get(c).get(TimeScale.seconds(30).toMillis(), TimeUnit.MILLISECONDS);
                    if (c % 2 == 0) {
                        assertThat((byte[]) a).as("connection %d's GET", c).isEqualTo(reads.get(c / 2));
                    } else {
                        assertThat(a).as("connection %d's SET", c).isEqualTo("OK");
                    }
                }
                for (byte[] k : writes) {
                    assertThat(j.get(k)).isEqualTo("new".getBytes(StandardCharsets.UTF_8));
                }
            }
        } finally {
            release.complete(null);
            if (server != null) {
                server.close();
            }
            vertx.close();
            clients.shutdownNow();
        }
    }

    /**
     * One connection's pipelined GETs and SETs for different keys go to their members at once; a command on a key an
     * earlier one in flight touches waits for it (a GET sees the SET before it). With node 0's DATA calls held: four
     * forwarded GETs and a forwarded SET are in flight together, the GET of the SET's key is not; once released, the
     * replies come in order and that GET sees the new value.
     */
    @Test
    void aPipelinesCommandsOnOtherKeysAreInFlightAtOnceAndOnOneKeyInTurn() throws Exception {
        Held calls = new Held();
        Vertx vertx = Vertx.vertx();
        RespServer server = null;
        try (TestNetwork network = new TestNetwork(32); Rings rings = new Rings()) {
            GodNode node = calls.ring(network, rings);
            server = new RespServer(vertx, rings.rpc(0), true, 100, 1, 1);
            List<byte[]> reads = forwarded(node, true, 4, 'r');
            int port = server.start("127.0.0.1", 0);
            byte[] written = forwarded(node, false, 1, 'w').get(0);
            try (Jedis j = new Jedis("127.0.0.1", port, 120_000)) {
                for (byte[] k : reads) {
                    assertThat(j.set(k, k)).isEqualTo("OK");
                }
                assertThat(j.set(written, "old".getBytes(StandardCharsets.UTF_8))).isEqualTo("OK");
                calls.hold.set(true);
                CompletableFuture<List<Object>> replies = CompletableFuture.supplyAsync(() -> {
                    try (Jedis k = new Jedis("127.0.0.1", port, 120_000)) {
                        Pipeline p = k.pipelined();
                        reads.forEach(p::get);
                        p.set(written, "new".getBytes(StandardCharsets.UTF_8));
                        p.get(written);
                        return p.syncAndReturnAll();
                    }
                });
                Awaitility.await("the four GETs and the SET in flight at once").atMost(TimeScale.seconds(20))
                        .until(() -> calls.held.get() == 5);
                Thread.sleep(200); // a GET of the SET's key sent meanwhile would be a sixth held call
                assertThat(calls.held.get()).as("the GET of the SET's key waits for it").isEqualTo(5);
                assertThat(replies).isNotDone();
                calls.release.complete(null);
                List<Object> got = replies.get(30, TimeUnit.SECONDS);
                for (int i = 0; i < 4; i++) {
                    assertThat((byte[]) got.get(i)).isEqualTo(reads.get(i));
                }
                assertThat(got.get(4)).isEqualTo("OK");
                assertThat((byte[]) got.get(5)).isEqualTo("new".getBytes(StandardCharsets.UTF_8));
                assertThat(calls.held.get()).isEqualTo(6);
            }
        } finally {
            calls.release.complete(null);
            if (server != null) {
                server.close();
            }
            vertx.close();
        }
    }

    /** Node 0's forwarded DATA calls, held (answered only once released) while {@link #hold} is set. */
    private static final class Held {
        final CompletableFuture<Void> release = new CompletableFuture<>();
        final AtomicInteger held = new AtomicInteger();
        final AtomicBoolean hold = new AtomicBoolean();

        /**
         * Starts a 3-node ring on {@code network} whose node 0 holds its DATA calls so, waits until it settled and
         * returns node 0.
         */
        GodNode ring(TestNetwork network, Rings rings) {
            // long deadlines: a waiting call must not give up (and fail over) while the test holds the answers
            rings.extra.put("god.rpc.timeout", TimeScale.setting("60s"));
            String first = rings.address(0);
            rings.setTransports((settings, h) -> {
                Transport own = network.net.transport(settings.advertise());
                return !settings.advertise().equals(first) ? own : new WrappedTransport(own) {
                    @Override
                    public CompletableFuture<byte[]> call(String to, int op, byte[] payload, Duration deadline) {
                        CompletableFuture<byte[]> answer = inner.call(to, op, payload, deadline);
                        if (!hold.get() || op != Ops.DATA) {
                            return answer;
                        }
                        held.incrementAndGet();
                        return answer.thenCombine(release, (r, v) -> r);
                    }
                };
            });
            startAndSettle(rings, 3);
            return rings.nodes.get(0);
        }
    }

    /**
     * A forwarded GET or SET whose member does not answer fails over as {@link io.god.cluster.Cluster#forward} does,
     * without a thread waiting: to the next replica, or — when this node is next in line — executed here on a worker.
     * Four nodes (N=3), a key's owner cut off (kept in the view), RESP on the next replica and on another node.
     */
    @Test
    void aForwardedCommandFailsOverWhenItsOwnerDoesNotAnswer() throws Exception {
        try (TestNetwork network = new TestNetwork(31);
                // the cut-off owner stays in the view (1000 rounds of 50 ms)
                RespNodes n = new RespNodes(Map.of("god.ring.failures", "1000", "god.ring.interval", "50ms"))) {
            n.rings.setTransports((settings, h) -> network.net.transport(settings.advertise()));
            n.start(4);
            startAndSettle(n.rings, 0);
            byte[] k = {(byte) 0x80, 'f'};
            var replicas = n.rings.nodes.get(0).membership().ring().replicas(k, 3);
            String owner = replicas.get(0).address();
            int next = -1;
            int other = -1;
            List<String> others = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                String a = n.rings.address(i);
                next = a.equals(replicas.get(1).address()) ? i : next;
                other = !a.equals(owner) && !a.equals(replicas.get(1).address()) ? i : other;
                if (!a.equals(owner)) {
                    others.add(a);
                }
            }
            try (Jedis j = new Jedis("127.0.0.1", n.port(other), 60_000)) {
                assertThat(j.set(k, "before".getBytes(StandardCharsets.UTF_8))).isEqualTo("OK");
            }
            network.net.partition(List.of(owner), others);
            // on the next replica: the owner does not answer, and this node is next in line (executes on a worker);
            // on another node: the owner does not answer, the next replica executes
            for (int at : new int[] {next, other, next}) {
                try (Jedis c = new Jedis("127.0.0.1", n.port(at), 60_000)) {
                    String value = "after " + at;
                    assertThat(c.get(k)).as("a GET at node %d whose owner is cut off", at).isNotNull();
                    assertThat(c.set(k, value.getBytes(StandardCharsets.UTF_8)))
                            .as("a SET at node %d whose owner is cut off", at).isEqualTo("OK");
                    assertThat(c.get(k)).isEqualTo(value.getBytes(StandardCharsets.UTF_8));
                }
            }
            assertThat(n.rings.nodes.get(other).membership().ring().byAddress(owner))
                    .as("the owner stayed in the view").isNotNull();
        }
    }

    private static final int CONNECTIONS = 8;

    /**
     * Starts {@code count} nodes (none: they are started) and waits until the ring converged and no member is presumed
     * catching up any more (a read of a catching-up ring merges, and waits, where it is asked).
     */
    private static void startAndSettle(Rings rings, int count) {
        for (int i = 0; i < count; i++) {
            rings.start(i, null, rings.address(0));
        }
        Awaitility.await().atMost(TimeScale.seconds(30)).until(() -> rings.converged()
                && rings.nodes.stream().allMatch(x -> x.cluster().servesReads()));
    }

    /** {@code n} keys node 0 forwards (a read: it is not their first reader; a write: not their owner). */
    private static List<byte[]> forwarded(GodNode node, boolean read, int n, char tag) {
        List<byte[]> out = new ArrayList<>();
        for (int b = 1; b < 256 && out.size() < n; b++) { // keys are placed by their bytes
            byte[] k = {(byte) b, (byte) tag};
            if (!node.cluster().executesHere(k, 0, read)) {
                out.add(k);
            }
        }
        assertThat(out).as("keys node 0 forwards").hasSize(n);
        return out;
    }

    private static String threadOf(List<String> calls) {
        return calls.isEmpty() ? "" : calls.get(0).substring("Get 200 ".length());
    }

    /** One random command, sent on the pipeline and applied to the model. */
    private static Sent next(Random random, Pipeline p, Map<String, String> model, String value) {
        String k = key(random);
        int pick = random.nextInt(100);
        if (pick < 35) {
            return new Sent("SET " + k + " " + value, p.set(k, value), () -> {
                model.put(k, value);
                return "OK";
            });
        }
        if (pick < 70) {
            return new Sent("GET " + k, p.get(k), () -> model.get(k));
        }
        if (pick < 80) {
            return new Sent("DEL " + k, p.del(k), () -> model.remove(k) == null ? 0L : 1L);
        }
        if (pick < 85) {
            return new Sent("EXISTS " + k, p.exists(k), () -> model.containsKey(k));
        }
        String k2 = key(random);
        if (pick < 89) { // a barrier writing two keys: a GET of either after it sees it, a SET before it is overwritten
            return new Sent("MSET " + k + " " + k2, p.mset(k, value, k2, value + "'"), () -> {
                model.put(k, value);
                model.put(k2, value + "'");
                return "OK";
            });
        }
        if (pick < 93) {
            return new Sent("DEL " + k + " " + k2, p.del(k, k2),
                    () -> (model.remove(k) == null ? 0L : 1L) + (model.remove(k2) == null ? 0L : 1L));
        }
        if (pick < 97) {
            return new Sent("MGET " + k + " " + k2, p.mget(k, k2),
                    () -> new ArrayList<>(Arrays.asList(model.get(k), model.get(k2))));
        }
        // DBSIZE counts what every command before it wrote: it must wait for the ones still at other members
        return new Sent("DBSIZE", p.dbSize(), () -> (long) model.size());
    }

    private static String key(Random random) {
        return "k" + random.nextInt(30);
    }

    private static Object value(Response<?> r) {
        try {
            return r.get();
        } catch (JedisDataException e) {
            return e.getMessage();
        }
    }

    /**
     * A member stops in the middle of a pipeline (N=1, so its keys have no other copy): the commands on its keys may
     * be refused, the others are answered as a serial execution answers them, in order, and the connection still
     * serves afterwards.
     */
    @Test
    void aMemberStoppedMidPipelineFailsItsKeysOnly() throws Exception {
        try (RespNodes n = new RespNodes(Map.of("god.redundancy", "1")).start(3);
                Socket socket = new Socket("127.0.0.1", n.port(0))) {
            socket.setSoTimeout((int) TimeScale.seconds(60).toMillis());
            String stopped = n.rings.address(2);
            var ring = n.rings.nodes.get(0).cluster().ring();
            Set<String> stoppedKeys = new HashSet<>();
            Map<String, String> model = new HashMap<>();
            OutputStream out = socket.getOutputStream();
            InputStream in = new BufferedInputStream(socket.getInputStream());
            List<String> keys = new ArrayList<>();
            List<List<String>> setup = new ArrayList<>();
            // keys are placed in byte order: 30 of the member to stop and 30 of the others, first bytes over 0..255
            // (one char a byte: these keys go over the socket in ISO-8859-1)
            for (int i = 0; keys.size() < 60 && i < 256 * 20; i++) {
                String k = (char) (i * 7 % 256) + ":" + i / 256;
                boolean ofStopped = ring.replicas(k.getBytes(KEYS), 1).get(0).address().equals(stopped);
                if (ofStopped ? stoppedKeys.size() < 30 : keys.size() - stoppedKeys.size() < 30) {
                    keys.add(k);
                    if (ofStopped) {
                        stoppedKeys.add(k);
                    }
                    setup.add(List.of("SET", k, "v0"));
                    model.put(k, "v0");
                }
            }
            assertThat(stoppedKeys).as("keys of the member to stop").hasSize(30);
            assertThat(keys).hasSize(60);
            send(out, setup);
            for (int i = 0; i < setup.size(); i++) {
                assertThat(reply(in)).isEqualTo("OK");
            }

            Random random = new Random(7L);
            List<List<String>> pipeline = new ArrayList<>();
            List<Supplier<Object>> expected = new ArrayList<>(); // evaluated in order, as the model executes them
            for (int i = 0; i < 600; i++) {
                String k = keys.get(random.nextInt(keys.size()));
                if (random.nextBoolean()) {
                    String v = "v" + (i + 1);
                    pipeline.add(List.of("SET", k, v));
                    expected.add(() -> {
                        model.put(k, v);
                        return "OK";
                    });
                } else {
                    pipeline.add(List.of("GET", k));
                    expected.add(() -> model.get(k));
                }
            }
            send(out, pipeline.subList(0, 300));
            n.servers.get(2).close();
            n.rings.nodes.get(2).close();
            send(out, pipeline.subList(300, 600));
            int refused = 0;
            for (int i = 0; i < pipeline.size(); i++) {
                Object answer = reply(in);
                Object wanted = expected.get(i).get();
                String k = pipeline.get(i).get(1);
                if (stoppedKeys.contains(k)) { // refused, or answered from a copy that may since have lost writes
                    if (answer instanceof RespError e) {
                        assertThat(e.message()).as("command %d %s", i, pipeline.get(i)).startsWith("TRYAGAIN");
                        refused++;
                    }
                    continue;
                }
                assertThat(answer).as("command %d %s on a live member's key", i, pipeline.get(i)).isEqualTo(wanted);
            }
            assertThat(refused).as("commands on the stopped member's keys refused").isPositive();
            String live = keys.stream().filter(k -> !stoppedKeys.contains(k)).findFirst().orElseThrow();
            send(out, List.of(List.of("PING"), List.of("SET", live, "after"), List.of("GET", live)));
            assertThat(reply(in)).isEqualTo("PONG");
            assertThat(reply(in)).isEqualTo("OK");
            assertThat(reply(in)).isEqualTo("after");
        }
    }

    /**
     * QUIT in the middle of a pipeline of SETs on keys of every member: the SETs before it are answered and done, QUIT
     * is answered, and none after it runs — not even one on a key whose lane was idle when QUIT was read.
     */
    @Test
    void quitMidPipelineStopsTheCommandsAfterIt() throws Exception {
        try (RespNodes n = new RespNodes(Map.of()).start(3);
                Socket socket = new Socket("127.0.0.1", n.port(0));
                Jedis other = RespTest.jedis(n, 1)) {
            socket.setSoTimeout((int) TimeScale.seconds(60).toMillis());
            List<List<String>> pipeline = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                pipeline.add(List.of("SET", "before-" + i, "v" + i));
            }
            pipeline.add(List.of("QUIT"));
            for (int i = 0; i < 100; i++) {
                pipeline.add(List.of("SET", "after-" + i, "v" + i));
            }
            send(socket.getOutputStream(), pipeline);
            InputStream in = new BufferedInputStream(socket.getInputStream());
            for (int i = 0; i <= 100; i++) {
                assertThat(reply(in)).as("reply %d", i).isEqualTo("OK");
            }
            assertThat(in.read()).as("the connection is closed after QUIT's reply").isEqualTo(-1);
            for (int i = 0; i < 100; i++) {
                assertThat(other.get("before-" + i)).isEqualTo("v" + i);
                assertThat(other.exists("after-" + i)).as("after-%d, sent after QUIT", i).isFalse();
            }
        }
    }

    private record RespError(String message) {
    }

    private static final Charset KEYS = StandardCharsets.ISO_8859_1;

    private static void send(OutputStream out, List<List<String>> commands) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (List<String> c : commands) {
            b.writeBytes(("*" + c.size() + "\r\n").getBytes(StandardCharsets.UTF_8));
            for (String a : c) {
                byte[] bytes = a.getBytes(KEYS);
                b.writeBytes(("$" + bytes.length + "\r\n").getBytes(StandardCharsets.UTF_8));
                b.writeBytes(bytes);
                b.writeBytes("\r\n".getBytes(StandardCharsets.UTF_8));
            }
        }
        out.write(b.toByteArray());
        out.flush();
    }

    /** One reply: a simple string or bulk as a String (null for nil), an error as RespError, an integer as Long. */
    private static Object reply(InputStream in) throws IOException {
        int type = in.read();
        String line = line(in);
        return switch (type) {
            case '+' -> line;
            case '-' -> new RespError(line);
            case ':' -> Long.parseLong(line);
            case '$' -> {
                int length = Integer.parseInt(line);
                if (length < 0) {
                    yield null;
                }
                byte[] bytes = in.readNBytes(length + 2);
                yield new String(bytes, 0, length, KEYS);
            }
            default -> throw new AssertionError("unexpected reply type " + type + " " + line);
        };
    }

    private static String line(InputStream in) throws IOException {
        StringBuilder b = new StringBuilder();
        for (int c = in.read(); c != '\r'; c = in.read()) {
            if (c < 0) {
                throw new IOException("closed");
            }
            b.append((char) c);
        }
        in.read(); // '\n'
        return b.toString();
    }
}

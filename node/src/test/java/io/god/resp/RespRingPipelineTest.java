package io.god.resp;

import static org.assertj.core.api.Assertions.assertThat;

import io.god.testing.TimeScale;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Supplier;
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
     * and after it (answered).
     */
    @Test
    void randomPipelinesAnswerAsASerialExecutionDoes() throws Exception {
        try (RespNodes n = new RespNodes(Map.of("god.auth.token", TOKEN, "god.auth.reads", "true")).start(3);
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
                assertThat(threads).singleElement().asString().startsWith("Get 200 god-resp-");

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

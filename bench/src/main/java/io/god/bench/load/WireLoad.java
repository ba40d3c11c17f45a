package io.god.bench.load;

import io.god.wire.Call;
import io.god.wire.DataCall;
import io.god.wire.Frame;
import io.god.wire.FrameDecoder;
import io.god.wire.Ops;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A light generator for the node's own ceiling, built like {@code redis-benchmark}: one thread, an NIO
 * selector and {@code concurrency} connections with one binary data call ({@link Ops#DATA}) in flight
 * each, no pipelining, no {@code GodClient}. Calls go round robin over the endpoints in ROUTE mode
 * (a node that does not own the key forwards it). Put, Get and SubPut only.
 */
final class WireLoad {

    private final List<String> endpoints;
    private final String token;
    private final int concurrency;
    private final OpMix ops;
    private final KeySpace space;
    private final byte[] value;
    private final SplittableRandom random;

    WireLoad(List<String> endpoints, String token, int concurrency, OpMix ops, KeySpace space, byte[] value, long seed) {
        this.endpoints = endpoints;
        this.token = token;
        this.concurrency = concurrency;
        this.ops = ops;
        this.space = space;
        this.value = value;
        this.random = new SplittableRandom(seed);
    }

    /** One connection's state: its call in flight. */
    private final class Conn {
        final SocketChannel channel;
        final FrameDecoder decoder = new FrameDecoder(1 << 20);
        OpMix.Op op;
        long started;
        long id;

        Conn(SocketChannel channel) {
            this.channel = channel;
        }

        void send(long now) throws IOException {
            op = ops.next(random);
            byte[] key = space.key(space.next(random));
            DataCall call = switch (op) {
                case PUT -> new DataCall(DataCall.PUT, key, null, value, false, auth(), 0, Call.ROUTE, 0);
                case GET -> new DataCall(DataCall.GET, key, null, null, false, null, 0, Call.ROUTE, 0);
                case SUBPUT -> new DataCall(DataCall.SUB_PUT, LoadGen.TREES[random.nextInt(2)], key, value, false,
                        auth(), 0, Call.ROUTE, 0);
                default -> throw new IllegalStateException("--target wire runs put, get and subput only");
            };
            started = now;
            write(Frame.request(++id, Ops.DATA, call.encode()).encode());
        }

        void write(byte[] bytes) throws IOException {
            ByteBuffer b = ByteBuffer.wrap(bytes);
            while (b.hasRemaining()) {
                channel.write(b); // a few dozen bytes: the socket buffer takes them at once
            }
        }
    }

    private String auth() {
        return token == null ? null : "Bearer " + token;
    }

    /** Runs warm-up then measurement, adding the measured calls to the report. */
    void run(double warmup, double duration, Report report) throws IOException {
        Map<OpMix.Op, Report.Part> parts = new EnumMap<>(OpMix.Op.class);
        List<Conn> conns = new ArrayList<>();
        try (Selector selector = Selector.open()) {
            for (int i = 0; i < concurrency; i++) {
                String address = endpoints.get(i % endpoints.size());
                int colon = address.lastIndexOf(':');
                SocketChannel ch = SocketChannel.open(new InetSocketAddress(address.substring(0, colon),
                        Integer.parseInt(address.substring(colon + 1))));
                ch.socket().setTcpNoDelay(true);
                ch.configureBlocking(false);
                Conn c = new Conn(ch);
                c.write(new Frame(0, Frame.HELLO, Ops.HELLO,
                        token == null ? new byte[0] : token.getBytes(StandardCharsets.UTF_8)).encode());
                ch.register(selector, SelectionKey.OP_READ, c);
                conns.add(c);
            }
            long start = System.nanoTime();
            long measureFrom = start + (long) (warmup * 1e9);
            long end = measureFrom + (long) (duration * 1e9);
            for (Conn c : conns) {
                c.send(System.nanoTime());
            }
            ByteBuffer buf = ByteBuffer.allocate(64 * 1024);
            int open = conns.size();
            while (open > 0) {
                selector.select(1000);
                for (SelectionKey k : selector.selectedKeys()) {
                    Conn c = (Conn) k.attachment();
                    buf.clear();
                    int n = c.channel.read(buf);
                    if (n < 0) {
                        throw new IOException("the node closed a connection");
                    }
                    for (Frame f : c.decoder.feed(buf.array(), 0, n)) {
                        if (f.id() != c.id) {
                            if (f.kind() == Frame.ERROR) {
                                throw new IOException("the node refused the connection: " + f.errorMessage());
                            }
                            continue; // the hello's answer
                        }
                        long now = System.nanoTime();
                        if (c.started >= measureFrom) {
                            Report.Part p = parts.computeIfAbsent(c.op, o -> new Report.Part());
                            String failure = failure(f);
                            if (failure == null) {
                                p.ok(now - c.started);
                            } else {
                                p.error(new IllegalStateException(failure));
                            }
                        }
                        if (now < end) {
                            c.send(now);
                        } else {
                            k.cancel();
                            open--;
                        }
                    }
                }
                selector.selectedKeys().clear();
            }
            report.seconds((System.nanoTime() - measureFrom) / 1e9);
        } finally {
            for (Conn c : conns) {
                c.channel.close();
            }
        }
        parts.forEach(report::add);
    }

    private static String failure(Frame f) {
        if (f.kind() != Frame.RESPONSE) {
            return f.errorMessage();
        }
        DataCall.Reply r = DataCall.Reply.decode(f.payload());
        return r.status() == 200 ? null : r.status() + " " + r.message();
    }
}

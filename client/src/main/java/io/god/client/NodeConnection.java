package io.god.client;

import io.god.wire.Frame;
import io.god.wire.FrameDecoder;
import io.god.wire.Ops;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One pipelined TCP connection to a node's binary port (9191): a hello with the token, then any number
 * of outstanding requests ({@link Ops#CALL}, {@link Ops#DATA}) matched to their responses by id. A reader
 * thread completes the futures with the raw reply payloads (the caller decodes them); when the connection breaks every outstanding call fails with an {@link IOException} and
 * the connection reports itself {@link #broken()} so the pool opens a new one.
 */
final class NodeConnection implements AutoCloseable {

    private static final int MAX_FRAME = 64 << 20;

    private final String address;
    private final Socket socket;
    private final OutputStream out;
    private final Map<Long, CompletableFuture<byte[]>> pending = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong(1);
    private volatile boolean broken;

    NodeConnection(String address, String token, int connectTimeoutMillis) throws IOException {
        this.address = address;
        int colon = address.lastIndexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException("address must be host:port, was " + address);
        }
        socket = new Socket();
        try {
            socket.setTcpNoDelay(true);
            socket.connect(new InetSocketAddress(address.substring(0, colon),
                    Integer.parseInt(address.substring(colon + 1))), connectTimeoutMillis);
            out = socket.getOutputStream();
            byte[] hello = token == null ? new byte[0] : token.getBytes(StandardCharsets.UTF_8);
            out.write(new Frame(0, Frame.HELLO, Ops.HELLO, hello).encode());
            out.flush();
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
        Thread reader = new Thread(this::read, "god-client-" + address);
        reader.setDaemon(true);
        reader.start();
    }

    String address() {
        return address;
    }

    boolean broken() {
        return broken;
    }

    /** Sends one request; the future completes with the reply payload. */
    CompletableFuture<byte[]> call(int op, byte[] payload) {
        CompletableFuture<byte[]> f = new CompletableFuture<>();
        if (broken) {
            f.completeExceptionally(new IOException("connection to " + address + " is closed"));
            return f;
        }
        long id = ids.getAndIncrement();
        pending.put(id, f);
        byte[] bytes = Frame.request(id, op, payload).encode();
        try {
            synchronized (out) {
                out.write(bytes);
                out.flush();
            }
        } catch (IOException e) {
            pending.remove(id);
            fail(e);
            f.completeExceptionally(e);
        }
        return f;
    }

    /** Forgets a call whose deadline passed (its late answer is dropped). */
    void forget(CompletableFuture<byte[]> f) {
        pending.values().remove(f);
    }

    private void read() {
        FrameDecoder decoder = new FrameDecoder(MAX_FRAME);
        byte[] buf = new byte[64 * 1024];
        try (InputStream in = socket.getInputStream()) {
            int n;
            while ((n = in.read(buf)) >= 0) {
                for (Frame f : decoder.feed(buf, 0, n)) {
                    if (f.kind() == Frame.ERROR && f.id() == 0) {
                        throw new AuthException(address + " refused the connection: " + f.errorMessage());
                    }
                    CompletableFuture<byte[]> p = pending.remove(f.id());
                    if (p == null) {
                        continue;
                    }
                    if (f.kind() == Frame.RESPONSE) {
                        p.complete(f.payload());
                    } else {
                        p.completeExceptionally(new NodeErrorException(address + ": " + f.errorMessage()));
                    }
                }
            }
            fail(new IOException("connection to " + address + " closed by the node"));
        } catch (IOException | RuntimeException e) {
            fail(e instanceof IOException io ? io : new IOException(e.getMessage(), e));
        }
    }

    private void fail(IOException e) {
        broken = true;
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        for (Long id : pending.keySet()) {
            CompletableFuture<byte[]> p = pending.remove(id);
            if (p != null) {
                p.completeExceptionally(e);
            }
        }
    }

    @Override
    public void close() {
        fail(new IOException("client closed"));
    }

    /** The node refused the hello (wrong or missing god.auth.token). */
    static final class AuthException extends IOException {
        AuthException(String message) {
            super(message);
        }
    }

    /** The node answered with an error frame (e.g. it is not serving calls yet, or a bad token). */
    static final class NodeErrorException extends IOException {
        NodeErrorException(String message) {
            super(message);
        }
    }
}

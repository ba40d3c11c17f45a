package io.god.client;

import io.god.wire.Frame;
import io.god.wire.FrameDecoder;
import io.god.wire.Ops;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

/**
 * One pipelined TCP connection to a node's binary port (9191): a hello with the token, then any number
 * of outstanding requests ({@link Ops#CALL}, {@link Ops#DATA}) matched to their responses by id.
 *
 * <p>There is no reader thread: a caller waiting for its reply reads the socket itself when no other
 * caller does (leader/followers), handing every reply it reads to its waiter, and stops once its own
 * reply is in; when it leaves while others still wait it wakes one of them to read on. With one caller
 * per connection (the usual closed loop) a request costs a write and a read on the caller's thread and
 * no thread hand-off — a JFR profile showed the reader thread's wake-up and the caller's unpark as the
 * client's largest cost. When the connection breaks every outstanding call fails with an
 * {@link IOException} and the connection reports itself {@link #broken()} so the pool opens a new one.
 */
final class NodeConnection implements AutoCloseable {

    private static final int MAX_FRAME = 64 << 20;

    private final String address;
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final Map<Long, Waiter> pending = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong(1);
    private final ReentrantLock reading = new ReentrantLock();
    private final FrameDecoder decoder = new FrameDecoder(MAX_FRAME); // guarded by reading
    private final byte[] buf = new byte[64 * 1024]; // guarded by reading
    private volatile boolean broken;

    /** One outstanding call, awaited by the thread that sent it; completed by whichever caller reads its reply. */
    static final class Waiter {
        final long id;
        final long deadline;
        final Thread thread = Thread.currentThread();
        volatile byte[] reply;
        volatile IOException error;
        volatile boolean done;

        Waiter(long id, long deadline) {
            this.id = id;
            this.deadline = deadline;
        }
    }

    NodeConnection(String address, String token, int connectTimeoutMillis) throws IOException {
        this(address, token, connectTimeoutMillis, null);
    }

    /** @param tls the TLS context (the client's CA and certificate), or null for a plain connection */
    NodeConnection(String address, String token, int connectTimeoutMillis, SSLContext tls) throws IOException {
        this.address = address;
        int colon = address.lastIndexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException("address must be host:port, was " + address);
        }
        Socket plain = new Socket();
        Socket s = plain;
        try {
            plain.setTcpNoDelay(true);
            String host = address.substring(0, colon).replace("[", "").replace("]", "");
            int port = Integer.parseInt(address.substring(colon + 1));
            plain.connect(new InetSocketAddress(host, port), connectTimeoutMillis);
            if (tls != null) {
                s = handshake(tls, plain, host, port, connectTimeoutMillis);
            }
            socket = s;
            in = socket.getInputStream();
            out = socket.getOutputStream();
            byte[] hello = token == null ? new byte[0] : token.getBytes(StandardCharsets.UTF_8);
            out.write(new Frame(0, Frame.HELLO, Ops.HELLO, hello).encode());
            out.flush();
        } catch (IOException | RuntimeException e) {
            s.close();
            throw e;
        }
    }

    /**
     * TLS over the connected socket, the node's certificate checked against the CA and against the host the
     * address names (a DNS or IP subject alternative name).
     */
    private SSLSocket handshake(SSLContext tls, Socket plain, String host, int port, int timeoutMillis)
            throws IOException {
        SSLSocket ssl = (SSLSocket) tls.getSocketFactory().createSocket(plain, host, port, true);
        SSLParameters p = ssl.getSSLParameters();
        p.setEndpointIdentificationAlgorithm("HTTPS");
        ssl.setSSLParameters(p);
        ssl.setSoTimeout(timeoutMillis);
        try {
            ssl.startHandshake();
        } catch (javax.net.ssl.SSLException e) {
            ssl.close();
            throw new TlsException("TLS handshake with " + address + " failed (is the node's certificate signed by"
                    + " the CA the client trusts (--ca), does it name " + host + ", and does the node accept the"
                    + " client certificate?): " + e.getMessage(), e);
        }
        ssl.setSoTimeout(0);
        return ssl;
    }

    String address() {
        return address;
    }

    boolean broken() {
        return broken;
    }

    /**
     * Sends one request and waits up to {@code timeoutNanos} for its reply payload.
     *
     * @throws TimeoutException no reply in time (a late one is dropped)
     * @throws IOException the connection broke, the node refused the hello ({@link AuthException}) or
     *                     answered with an error frame ({@link NodeErrorException})
     */
    byte[] call(int op, byte[] payload, long timeoutNanos) throws IOException, TimeoutException {
        return await(send(op, payload, timeoutNanos));
    }

    /**
     * Sends one request without waiting: the same thread must {@link #await} it (several requests to
     * several nodes can so be in flight from one thread).
     */
    Waiter send(int op, byte[] payload, long timeoutNanos) throws IOException {
        if (broken) {
            throw new IOException("connection to " + address + " is closed");
        }
        Waiter w = new Waiter(ids.getAndIncrement(), System.nanoTime() + timeoutNanos);
        pending.put(w.id, w);
        byte[] bytes = Frame.request(w.id, op, payload).encode();
        try {
            synchronized (out) {
                out.write(bytes);
                out.flush();
            }
        } catch (IOException e) {
            pending.remove(w.id);
            fail(e);
            throw e;
        }
        return w;
    }

    /** The reply payload of a sent request, waiting at most until its deadline (then it is forgotten). */
    byte[] await(Waiter w) throws IOException, TimeoutException {
        try {
            return awaitReply(w, w.deadline);
        } finally {
            pending.remove(w.id);
        }
    }

    private byte[] awaitReply(Waiter w, long deadline) throws IOException, TimeoutException {
        while (true) {
            if (w.done) {
                if (w.error != null) {
                    throw w.error;
                }
                return w.reply;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new TimeoutException("no reply from " + address);
            }
            if (reading.tryLock()) {
                try {
                    readUntil(w, deadline);
                } finally {
                    reading.unlock();
                }
                wakeAReader();
            } else {
                LockSupport.parkNanos(this, left);
                if (Thread.currentThread().isInterrupted()) {
                    throw new java.io.InterruptedIOException("interrupted waiting for " + address);
                }
            }
        }
    }

    /** Reads replies (completing their waiters) until w's is in, the deadline passes or the socket fails. */
    private void readUntil(Waiter w, long deadline) {
        try {
            while (!w.done) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return;
                }
                socket.setSoTimeout((int) Math.max(1, Math.min(Integer.MAX_VALUE, (left + 999_999) / 1_000_000)));
                int n;
                try {
                    n = in.read(buf);
                } catch (SocketTimeoutException e) {
                    return;
                }
                if (n < 0) {
                    fail(new IOException("connection to " + address + " closed by the node"));
                    return;
                }
                for (Frame f : decoder.feed(buf, 0, n)) {
                    deliver(f);
                }
            }
        } catch (IOException | RuntimeException e) {
            fail(e instanceof IOException io ? io : new IOException(e.getMessage(), e));
        }
    }

    private void deliver(Frame f) throws AuthException {
        if (f.kind() == Frame.ERROR && f.id() == 0) {
            throw new AuthException(address + " refused the connection: " + f.errorMessage());
        }
        Waiter p = pending.remove(f.id());
        if (p == null) {
            return; // the hello's answer, or a call that gave up
        }
        if (f.kind() == Frame.RESPONSE) {
            p.reply = f.payload();
        } else {
            p.error = new NodeErrorException(address + ": " + f.errorMessage());
        }
        p.done = true;
        if (p.thread != Thread.currentThread()) {
            LockSupport.unpark(p.thread);
        }
    }

    /** After a reader leaves: a waiting caller takes over reading (a spurious wake-up is harmless). */
    private void wakeAReader() {
        for (Waiter o : pending.values()) {
            if (!o.done && o.thread != Thread.currentThread()) {
                LockSupport.unpark(o.thread);
                return;
            }
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
            Waiter p = pending.remove(id);
            if (p != null) {
                p.error = e;
                p.done = true;
                LockSupport.unpark(p.thread);
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

    /** The TLS handshake failed: the node's certificate is not trusted or does not name it, or it refused ours. */
    static final class TlsException extends IOException {
        TlsException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** The node answered with an error frame (e.g. it is not serving calls yet, or a bad token). */
    static final class NodeErrorException extends IOException {
        NodeErrorException(String message) {
            super(message);
        }
    }
}

package io.god.client;

import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;

/**
 * The client's connections: a small pool of pipelined {@link NodeConnection}s per node address, used round
 * robin and opened on first use or after a break (the hello, the token and TLS are NodeConnection's), and one
 * request's exchange on them within a budget: sent now, its answer awaited later on the sending thread.
 */
final class Connections implements AutoCloseable {

    /** A request sent by this thread; {@link #answer} waits for (and decodes) its reply on this thread. */
    interface Sent<T> {
        T answer() throws GodException;
    }

    private final Map<String, NodeConnection[]> pools = new ConcurrentHashMap<>();
    private final AtomicInteger roundRobin = new AtomicInteger();
    private final String token;
    /** The TLS context of every connection, or null for plain TCP. */
    private final SSLContext tls;
    private final int poolSize;
    private final Duration attemptTimeout;
    private volatile boolean closed;

    Connections(String token, SSLContext tls, int poolSize, Duration attemptTimeout) {
        this.token = token;
        this.tls = tls;
        this.poolSize = poolSize;
        this.attemptTimeout = attemptTimeout;
    }

    /** The Authorization every request carries (null without a token). */
    String authorization() {
        return token == null ? null : "Bearer " + token;
    }

    boolean closed() {
        return closed;
    }

    /** Sends one request on a pooled connection; its answer is the reply payload, awaited within the budget. */
    Sent<byte[]> exchange(String address, String method, int op, byte[] request, Duration budget) {
        NodeConnection c;
        NodeConnection.Waiter w;
        try {
            c = connection(address);
            w = c.send(op, request, budget.toNanos());
        } catch (IOException e) {
            throw new GodUnavailableException(address + ": " + e.getMessage(), e);
        }
        return () -> answer(c, w, address, method, budget);
    }

    private static byte[] answer(NodeConnection c, NodeConnection.Waiter w, String address, String method,
                                 Duration budget) {
        try {
            return c.await(w);
        } catch (TimeoutException e) {
            throw new GodUnavailableException(address + " did not answer " + method + " within "
                    + budget.toMillis() + " ms", e);
        } catch (NodeConnection.AuthException e) {
            throw new GodRequestException(401, e.getMessage());
        } catch (java.io.InterruptedIOException e) {
            Thread.currentThread().interrupt();
            throw new GodUnavailableException("interrupted", e);
        } catch (IOException e) {
            throw new GodUnavailableException(address + ": " + e.getMessage(), e);
        }
    }

    /** One of the node's pooled, pipelined connections (round robin), opened on first use or after a break. */
    private NodeConnection connection(String address) throws IOException {
        NodeConnection[] pool = pools.computeIfAbsent(address, a -> new NodeConnection[poolSize]);
        int slot = Math.floorMod(roundRobin.getAndIncrement(), pool.length);
        NodeConnection c = pool[slot];
        if (c != null && !c.broken()) {
            return c;
        }
        synchronized (pool) {
            c = pool[slot];
            if (c != null && !c.broken()) {
                return c;
            }
            if (closed) {
                throw new IOException("client closed");
            }
            c = new NodeConnection(address, token, (int) Math.max(1, Math.min(attemptTimeout.toMillis(), Integer.MAX_VALUE)),
                    tls);
            pool[slot] = c;
            return c;
        }
    }

    /** From now on no connection opens and calls stop retrying; the open ones stay until {@link #close}. */
    void refuseNew() {
        closed = true;
    }

    @Override
    public void close() {
        closed = true;
        for (NodeConnection[] pool : pools.values()) {
            synchronized (pool) {
                for (NodeConnection c : pool) {
                    if (c != null) {
                        c.close();
                    }
                }
            }
        }
        pools.clear();
    }
}

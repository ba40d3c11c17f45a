package io.god.transport;

import io.god.time.Scheduler;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;

/**
 * Nodes talking through memory, for tests and the simulation: each {@link #transport(String)} is one
 * node's endpoint. Faults are injected per network: a fixed one-way {@link #delay}, a seeded message
 * {@link #loss} probability, and {@link #partition partitions} (messages between the sides are dropped,
 * so calls across time out, as on a real network). A call to an address nobody serves fails at once
 * as UNREACHABLE (connection refused). Handlers run on the given executor; timers on the scheduler.
 */
public final class InMemoryNetwork {

    private final Scheduler scheduler;
    private final Executor executor;
    private final Random random;
    private final Map<String, Endpoint> endpoints = new ConcurrentHashMap<>();
    private final Set<String> blocked = ConcurrentHashMap.newKeySet();
    private volatile long delayNanos;
    private volatile double loss;

    public InMemoryNetwork(Scheduler scheduler, Executor executor, long seed) {
        this.scheduler = scheduler;
        this.executor = executor;
        this.random = new Random(seed);
    }

    public Transport transport(String address) {
        return new Endpoint(address);
    }

    /** One-way delay of every message. */
    public void delay(Duration d) {
        delayNanos = d.toNanos();
    }

    /** Probability that a message (request or reply) is dropped. */
    public void loss(double probability) {
        loss = probability;
    }

    /** Drops every message between a node of {@code a} and a node of {@code b}, both ways. */
    public void partition(Collection<String> a, Collection<String> b) {
        for (String x : a) {
            for (String y : b) {
                blocked.add(x + "|" + y);
                blocked.add(y + "|" + x);
            }
        }
    }

    public void heal() {
        blocked.clear();
    }

    private boolean dropped(String from, String to) {
        if (blocked.contains(from + "|" + to)) {
            return true;
        }
        double l = loss;
        if (l <= 0) {
            return false;
        }
        synchronized (random) {
            return random.nextDouble() < l;
        }
    }

    private void later(Runnable r) {
        long d = delayNanos;
        if (d <= 0) {
            executor.execute(r);
        } else {
            scheduler.schedule(d, () -> executor.execute(r));
        }
    }

    private final class Endpoint implements Transport {
        private final String address;
        private volatile Handler handler;

        Endpoint(String address) {
            this.address = address;
        }

        @Override
        public String address() {
            return address;
        }

        @Override
        public void serve(Handler h) {
            handler = h;
            endpoints.put(address, this);
        }

        @Override
        public CompletableFuture<byte[]> call(String to, int op, byte[] payload, Duration deadline) {
            CompletableFuture<byte[]> result = new CompletableFuture<>();
            Endpoint target = endpoints.get(to);
            if (target == null || target.handler == null) {
                result.completeExceptionally(new TransportException(TransportException.Reason.UNREACHABLE,
                        "connection refused: " + to));
                return result;
            }
            Scheduler.Cancellable timer = scheduler.schedule(deadline.toNanos(), () -> result.completeExceptionally(
                    new TransportException(TransportException.Reason.TIMEOUT,
                            "no answer from " + to + " within " + deadline.toMillis() + " ms")));
            result.whenComplete((r, e) -> timer.cancel());
            if (dropped(address, to)) {
                return result;
            }
            later(() -> {
                if (endpoints.get(to) != target) {
                    result.completeExceptionally(new TransportException(TransportException.Reason.UNREACHABLE,
                            "connection reset: " + to));
                    return;
                }
                CompletableFuture<byte[]> reply;
                try {
                    reply = target.handler.handle(op, payload);
                } catch (RuntimeException e) {
                    reply = CompletableFuture.failedFuture(e);
                }
                reply.whenComplete((r, e) -> {
                    if (dropped(to, address)) {
                        return;
                    }
                    later(() -> {
                        if (e == null) {
                            result.complete(r);
                        } else {
                            TransportException te = TransportException.of(e);
                            result.completeExceptionally(te.reason() == TransportException.Reason.REMOTE ? te
                                    : new TransportException(TransportException.Reason.REMOTE, messageOf(e)));
                        }
                    });
                });
            });
            return result;
        }

        @Override
        public void close() {
            endpoints.remove(address, this);
        }
    }

    static String messageOf(Throwable e) {
        while ((e instanceof java.util.concurrent.CompletionException
                || e instanceof java.util.concurrent.ExecutionException) && e.getCause() != null) {
            e = e.getCause();
        }
        return e.getMessage() == null ? e.toString() : e.getMessage();
    }
}

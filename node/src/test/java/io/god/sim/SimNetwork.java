package io.god.sim;

import io.god.time.Scheduler;
import io.god.transport.Transport;
import io.god.transport.TransportException;
import io.god.wire.Ops;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The simulation's in-memory transport: every request and reply is an event on the {@link SimLoop},
 * delayed by a seeded random delay in [min, max] (so messages reorder), dropped with probability
 * {@code loss}, duplicated with probability {@code duplicate} (requests: the handler runs twice), and
 * dropped between partitioned sides. Forwarded client calls ({@link Ops#COMMAND}, {@link Ops#CALL}) are SERVE events
 * (their handler may wait for peers); every other handler answers at once.
 */
final class SimNetwork {

    record Faults(long minDelayNanos, long maxDelayNanos, double loss, double duplicate) {
        static final Faults NONE = new Faults(200_000, 200_000, 0, 0);
    }

    private final SimLoop loop;
    private final Random random;
    private final Map<String, Endpoint> endpoints = new HashMap<>();
    /** Active partitions: pairs of sides that cannot talk (a heal ends them all). */
    private final java.util.List<Set<String>[]> partitions = new java.util.ArrayList<>();
    /** Messages (requests and replies) per operation code. */
    private final long[] byOp = new long[64];
    private Faults faults = Faults.NONE;
    /** Scripted slow links: the next {@code count} requests of {@code op} to {@code to} arrive late. */
    private static final class Hold {
        final int op;
        final String to;
        final long nanos;
        int count;

        Hold(int op, String to, long nanos, int count) {
            this.op = op;
            this.to = to;
            this.nanos = nanos;
            this.count = count;
        }
    }

    private final java.util.List<Hold> holds = new java.util.ArrayList<>();
    private long messages;
    private long bytes;

    SimNetwork(SimLoop loop, Random random) {
        this.loop = loop;
        this.random = random;
    }

    void faults(Faults f) {
        faults = f;
    }

    long messages() {
        return messages;
    }

    long bytes() {
        return bytes;
    }

    Transport transport(String address) {
        return new Endpoint(address);
    }

    /** Messages sent so far per operation code (requests and replies). */
    long[] messagesByOp() {
        return byOp.clone();
    }

    @SuppressWarnings("unchecked")
    void partition(Set<String> side, Set<String> rest) {
        partitions.add(new Set[] {new HashSet<>(side), new HashSet<>(rest)});
    }

    void heal() {
        partitions.clear();
    }

    private boolean blocked(String from, String to) {
        for (Set<String>[] p : partitions) {
            if (p[0].contains(from) ? p[1].contains(to) : p[1].contains(from) && p[0].contains(to)) {
                return true;
            }
        }
        return false;
    }

    /** Delivers the next {@code count} requests of {@code op} to {@code to} {@code nanos} late (past deadlines). */
    void holdNext(int op, String to, long nanos, int count) {
        holds.add(new Hold(op, to, nanos, count));
    }

    private long held(int op, String to) {
        for (Hold h : holds) {
            if (h.op == op && h.to.equals(to) && h.count > 0) {
                h.count--;
                return h.nanos;
            }
        }
        return 0;
    }

    boolean partitioned() {
        return !partitions.isEmpty();
    }

    /** Sends one message: schedules its delivery (maybe twice, maybe never). */
    private void send(String from, String to, int op, int size, SimLoop.Kind kind, Runnable delivery) {
        send(from, to, op, size, kind, 0, delivery);
    }

    private void send(String from, String to, int op, int size, SimLoop.Kind kind, long extra, Runnable delivery) {
        messages++;
        byOp[op & 63]++;
        bytes += size;
        Faults f = faults;
        if (!partitions.isEmpty() && blocked(from, to) || (f.loss() > 0 && random.nextDouble() < f.loss())) {
            return;
        }
        loop.at(extra + delay(f), kind, delivery);
        if (f.duplicate() > 0 && random.nextDouble() < f.duplicate()) {
            loop.at(delay(f), kind, delivery);
        }
    }

    private long delay(Faults f) {
        long span = f.maxDelayNanos() - f.minDelayNanos();
        return f.minDelayNanos() + (span <= 0 ? 0 : (long) (random.nextDouble() * span));
    }

    private final class Endpoint implements Transport {
        private final String address;
        private Handler handler;
        private boolean closed;

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
            if (closed || target == null) {
                result.completeExceptionally(new TransportException(TransportException.Reason.UNREACHABLE,
                        "connection refused: " + to));
                return result;
            }
            Scheduler.Cancellable timer = loop.scheduler().schedule(deadline.toNanos(), () -> result.completeExceptionally(
                    new TransportException(TransportException.Reason.TIMEOUT, "no answer from " + to)));
            result.whenComplete((r, e) -> timer.cancel());
            send(address, to, op, payload.length, op == Ops.CALL || op == Ops.COMMAND ? SimLoop.Kind.SERVE : SimLoop.Kind.QUICK, held(op, to), () -> {
                if (endpoints.get(to) != target) {
                    return;
                }
                CompletableFuture<byte[]> reply;
                try {
                    reply = target.handler.handle(op, payload);
                } catch (RuntimeException e) {
                    reply = CompletableFuture.failedFuture(e);
                }
                reply.whenComplete((r, e) -> send(to, address, op, r == null ? 0 : r.length, SimLoop.Kind.QUICK, () -> {
                    if (closed) {
                        return;
                    }
                    if (e == null) {
                        result.complete(r);
                    } else {
                        TransportException te = TransportException.of(e);
                        result.completeExceptionally(te.reason() == TransportException.Reason.REMOTE ? te
                                : new TransportException(TransportException.Reason.REMOTE, String.valueOf(e.getMessage())));
                    }
                }));
            });
            return result;
        }

        @Override
        public void close() {
            closed = true;
            endpoints.remove(address, this);
        }
    }
}

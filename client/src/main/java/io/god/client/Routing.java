package io.god.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.god.client.GodClient.Member;
import io.god.request.Request;
import io.god.wire.Call;
import io.god.wire.DataCall;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Where a call goes and how often it is tried: bounded attempts with exponential backoff inside the call's
 * deadline, each attempt within the attempt timeout; keyed calls to the key's owner (which routes), failing over
 * to the next replicas (which execute without routing) and then to a configured endpoint; other calls to any node.
 * In gateway mode every call goes to the endpoints and the node routes it.
 */
final class Routing {

    interface Attempt<T> {
        /** @param budget this attempt's timeout: the attempt timeout, or what is left of the deadline */
        T run(int attempt, Duration budget) throws GodException;
    }

    /** One attempt at one node in a mode ({@link Call#ROUTE} or {@link Call#EXECUTE}): a JSON call or a command. */
    private interface Once {
        JsonNode at(String address, int mode, Duration budget);
    }

    private final boolean gateway;
    private final Duration attemptTimeout;
    private final Duration deadline;
    private final int attempts;
    private final Duration backoff;
    private final Connections connections;
    private final NodeCalls calls;
    private final BinaryCommands commands;
    private final RingView view;

    Routing(boolean gateway, Duration attemptTimeout, Duration deadline, int attempts, Duration backoff,
            Connections connections, NodeCalls calls, BinaryCommands commands, RingView view) {
        this.gateway = gateway;
        this.attemptTimeout = attemptTimeout;
        this.deadline = deadline;
        this.attempts = attempts;
        this.backoff = backoff;
        this.connections = connections;
        this.calls = calls;
        this.commands = commands;
        this.view = view;
    }

    boolean gateway() {
        return gateway;
    }

    /**
     * Bounded retries with exponential backoff inside the deadline. A node that answers 503 (a Sync
     * write confirmed by fewer replicas than {@code god.sync.acks} needs, a node still joining) is
     * retried until the deadline, beyond the attempt count: the ring is about to be whole again
     * (a member restarts) and retrying a write is safe (the same last-write-wins outcome).
     */
    <T> T retrying(String method, Attempt<T> a) {
        long end = System.nanoTime() + deadline.toNanos();
        GodException last = null;
        for (int i = 0; i < attempts || last instanceof GodUnavailableException u && u.status() == 503; i++) {
            if (connections.closed()) {
                throw new GodUnavailableException("client closed", last);
            }
            long remaining = end - System.nanoTime();
            if (remaining <= 0) {
                break;
            }
            try {
                return a.run(i, Duration.ofNanos(Math.min(attemptTimeout.toNanos(), remaining)));
            } catch (GodRequestException e) {
                throw e;
            } catch (GodException e) {
                last = e;
            }
            if (!gateway) {
                view.refreshSoon();
            }
            long sleep = Math.min(backoff.toNanos() << Math.min(i, 10), TimeUnit.MILLISECONDS.toNanos(500));
            if (System.nanoTime() + sleep >= end) {
                break;
            }
            try {
                TimeUnit.NANOSECONDS.sleep(sleep);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new GodUnavailableException(method + " interrupted", last);
            }
        }
        throw new GodUnavailableException(method + " failed after retries: "
                + (last == null ? "deadline" : last.getMessage()), last);
    }

    /** Owner first; attempt i goes to replica i mod n, which executes it without routing. */
    JsonNode keyed(String method, byte[] key, ObjectNode body) {
        return keyed(method, key, json(method, body));
    }

    /** A typed command routed by key (its Key, or a configuration's TreeKey) as {@link #keyed(String, byte[], ObjectNode)}. */
    JsonNode keyed(Request q, byte[] key) {
        return keyed(q.command().method(), key, command(q));
    }

    private JsonNode keyed(String method, byte[] key, Once once) {
        if (gateway) {
            return anyNode(method, once);
        }
        return retrying(method, (i, budget) -> {
            List<Member> reps = view.replicas(key);
            int r = i % (reps.size() + 1);
            if (r == reps.size()) {
                return once.at(view.fallback(), Call.ROUTE, budget); // a configured endpoint routes it
            }
            return once.at(reps.get(r).address(), r == 0 ? Call.ROUTE : Call.EXECUTE, budget);
        });
    }

    private Once json(String method, ObjectNode body) {
        return (address, mode, budget) -> calls.once(address, method, body, mode, budget);
    }

    private Once command(Request q) {
        return (address, mode, budget) -> commands.once(address, q, mode, budget);
    }

    /**
     * A binary write: to the key's owner (which routes it again if its view differs), failing over to
     * the next replicas, which execute it (as {@link #keyed}); in gateway mode to any endpoint.
     */
    void write(int kind, byte[] key, byte[] subKey, byte[] value, boolean sync) {
        String method = DataCall.methodOf(kind);
        if (gateway) {
            retrying(method, (i, budget) -> calls.data(view.nextSeed(),
                    calls.dataCall(kind, key, subKey, value, sync, Call.ROUTE), budget));
            return;
        }
        retrying(method, (i, budget) -> {
            List<Member> reps = view.replicas(key);
            int r = i % (reps.size() + 1);
            if (r == reps.size()) {
                // every replica of the view failed once: a configured endpoint (e.g. the Service) routes it
                return calls.data(view.fallback(), calls.dataCall(kind, key, subKey, value, sync, Call.ROUTE), budget);
            }
            return calls.data(reps.get(r).address(),
                    calls.dataCall(kind, key, subKey, value, sync, r == 0 ? Call.ROUTE : Call.EXECUTE), budget);
        });
    }

    /** Broadcasts and any-node calls: the node routes; fails over to other members. */
    JsonNode anyNode(String method, ObjectNode body) {
        return anyNode(method, json(method, body));
    }

    JsonNode anyNode(Request q) {
        return anyNode(q.command().method(), command(q));
    }

    private JsonNode anyNode(String method, Once once) {
        return retrying(method, (i, budget) -> once.at(view.nextSeed(), Call.ROUTE, budget));
    }

    /** A command that one given node executes, retried at that node. */
    JsonNode at(String address, Request q) {
        return retrying(q.command().method(), (i, budget) -> commands.once(address, q, Call.EXECUTE, budget));
    }
}

package io.god.client;

import com.fasterxml.jackson.databind.JsonNode;
import io.god.client.GodClient.Member;
import io.god.wire.Call;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The client's view of the ring and what it routes by: the members ({@code Nodes} of any node, refreshed every
 * {@code ringRefresh} and in the background after a failed attempt), which of them are catching up, a key's
 * replica set (owner first: the first member whose position is greater than the key), and the round robin over
 * members and configured endpoints for calls any node may take.
 */
final class RingView implements AutoCloseable {

    private final List<String> seeds;
    private final boolean gateway;
    private final int redundancy;
    private final Duration attemptTimeout;
    private final NodeCalls calls;
    private final ScheduledExecutorService refresher;
    private final AtomicInteger spread = new AtomicInteger();
    private final AtomicBoolean refreshing = new AtomicBoolean();
    private volatile List<Member> ring = List.of();
    /** Members the last {@code Nodes} answer marked CATCHING_UP: not asked for reads while others are. */
    private volatile Set<String> catchingUp = Set.of();

    RingView(List<String> seeds, boolean gateway, int redundancy, Duration attemptTimeout, NodeCalls calls) {
        this.seeds = List.copyOf(seeds);
        this.gateway = gateway;
        this.redundancy = redundancy;
        this.attemptTimeout = attemptTimeout;
        this.calls = calls;
        this.refresher = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "god-client-ring");
            t.setDaemon(true);
            return t;
        });
    }

    /** Ring-aware mode: takes the ring now if a node answers, then refreshes it every {@code every}. */
    void start(Duration every) {
        if (gateway) {
            return;
        }
        try {
            refresh();
        } catch (GodException e) {
            // the first call retries; keep the client usable while the ring comes up
        }
        long millis = every.toMillis();
        refresher.scheduleWithFixedDelay(() -> {
            try {
                refresh();
            } catch (RuntimeException ignored) {
                // next round
            }
        }, millis, millis, TimeUnit.MILLISECONDS);
    }

    List<Member> ring() {
        return ring;
    }

    Set<String> catchingUp() {
        return catchingUp;
    }

    /** See {@link GodClient#refreshRing}. */
    List<Member> refresh() {
        List<String> tryOrder = new ArrayList<>();
        for (Member m : ring) {
            tryOrder.add(m.address());
        }
        for (String s : seeds) {
            if (!tryOrder.contains(s)) {
                tryOrder.add(s);
            }
        }
        GodException last = null;
        JsonNode alone = null;
        for (String address : tryOrder) {
            try {
                JsonNode n = calls.once(address, "Nodes", Json.body(), Call.EXECUTE, attemptTimeout);
                List<Member> members = parseMembers(n);
                if (members.size() == 1 && ring.size() > 1) {
                    alone = alone == null ? n : alone; // ask the others first
                    continue;
                }
                if (!members.isEmpty()) {
                    adopt(members, n);
                    return members;
                }
            } catch (GodRequestException e) {
                throw e;
            } catch (GodException e) {
                last = e;
            }
        }
        if (alone != null) {
            List<Member> members = parseMembers(alone);
            adopt(members, alone);
            return members;
        }
        throw new GodUnavailableException("no node answered Nodes (" + tryOrder + ")", last);
    }

    private void adopt(List<Member> members, JsonNode answer) {
        Set<String> c = new HashSet<>();
        for (JsonNode m : answer) {
            if ("CATCHING_UP".equals(m.path("State").asText(null))) {
                c.add(m.path("Addr").asText());
            }
        }
        catchingUp = Set.copyOf(c);
        ring = members;
    }

    /** Refreshes the ring in the background (once at a time) so a hung node cannot eat a call's deadline. */
    void refreshSoon() {
        if (refreshing.compareAndSet(false, true)) {
            try {
                refresher.execute(() -> {
                    try {
                        refreshQuietly();
                    } finally {
                        refreshing.set(false);
                    }
                });
            } catch (RejectedExecutionException e) {
                refreshing.set(false);
            }
        }
    }

    private void refreshQuietly() {
        try {
            refresh();
        } catch (RuntimeException ignored) {
            // keep the old view
        }
    }

    /** See {@link GodClient#parseMembers}. */
    static List<Member> parseMembers(JsonNode n) {
        List<Member> members = new ArrayList<>();
        for (JsonNode m : n) {
            members.add(new Member(Json.bytes(m.get("Pos")), m.get("Addr").asText()));
        }
        members.sort(Comparator.<Member, byte[]>comparing(Member::position, Arrays::compareUnsigned)
                .thenComparing(Member::address));
        return List.copyOf(members);
    }

    /** The key's replica set in the cached ring: owner first. */
    List<Member> replicas(byte[] key) {
        return replicas(ring, key, redundancy);
    }

    /** The replicas to read from: those not catching up (all of them when every one is). */
    List<Member> readReplicas(byte[] key) {
        return readable(replicas(key), catchingUp);
    }

    /**
     * The replicas a read asks: those not catching up, as long as they are a majority of the replica set; else
     * all of them, and the newest answer wins. Dropping members below a majority would let one replica stand for
     * the set: a member back from a partition sees the others return and lists them as catching up, and a client
     * that took its view from it read only it, and got a value older than an acknowledged write (chaos, seed 27).
     */
    static List<Member> readable(List<Member> reps, Set<String> catchingUp) {
        if (catchingUp.isEmpty()) {
            return reps;
        }
        List<Member> out = new ArrayList<>();
        for (Member m : reps) {
            if (!catchingUp.contains(m.address())) {
                out.add(m);
            }
        }
        return out.size() * 2 > reps.size() ? out : reps;
    }

    /** See {@link GodClient#replicas(List, byte[], int)}. */
    static List<Member> replicas(List<Member> r, byte[] key, int redundancy) {
        List<Member> out = new ArrayList<>();
        if (r.isEmpty()) {
            return out;
        }
        int start = 0;
        while (start < r.size() && Arrays.compareUnsigned(r.get(start).position(), key) <= 0) {
            start++;
        }
        int count = Math.min(redundancy, r.size());
        for (int i = 0; i < count; i++) {
            out.add(r.get((start + i) % r.size()));
        }
        return out;
    }

    /** The next configured endpoint (round robin): the fallback when the view's members do not answer. */
    String fallback() {
        return seeds.get(Math.floorMod(spread.getAndIncrement(), seeds.size()));
    }

    /** The next node of the seeds (gateway mode, or no ring yet) or of the ring, round robin. */
    String nextSeed() {
        List<Member> r = ring;
        if (gateway || r.isEmpty()) {
            return fallback();
        }
        return r.get(Math.floorMod(spread.getAndIncrement(), r.size())).address();
    }

    /** Stops the refreshes. */
    @Override
    public void close() {
        refresher.shutdownNow();
    }
}

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
    /**
     * The expected membership (DESIGN §5): the ring plus the members the answering node counts as absent (down,
     * restarting, partitioned away from it). Reads count a key's replicas over it, as the nodes do.
     */
    private volatile List<Member> expected = List.of();
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
                JsonNode n = calls.once(address, "Nodes", Json.body().put("Expected", true), Call.EXECUTE,
                        attemptTimeout);
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

    /** Takes a {@code Nodes} answer (with {@code "Expected": true}) as the view: its members, absent and catching up. */
    void adopt(List<Member> members, JsonNode answer) {
        Set<String> c = new HashSet<>();
        for (JsonNode m : answer) {
            if ("CATCHING_UP".equals(m.path("State").asText(null))) {
                c.add(m.path("Addr").asText());
            }
        }
        catchingUp = Set.copyOf(c);
        List<Member> all = new ArrayList<>(members);
        for (JsonNode m : answer) {
            if (ABSENT.equals(m.path("State").asText(null))) {
                all.add(member(m));
            }
        }
        all.sort(ORDER);
        expected = List.copyOf(all);
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

    /** A {@code Nodes} entry's State for an expected member absent from the answering node's view. */
    static final String ABSENT = "ABSENT";

    private static final Comparator<Member> ORDER = Comparator.<Member, byte[]>comparing(Member::position,
            Arrays::compareUnsigned).thenComparing(Member::address);

    /** See {@link GodClient#parseMembers}: the ring's members, without the absent ones. */
    static List<Member> parseMembers(JsonNode n) {
        List<Member> members = new ArrayList<>();
        for (JsonNode m : n) {
            if (!ABSENT.equals(m.path("State").asText(null))) {
                members.add(member(m));
            }
        }
        members.sort(ORDER);
        return List.copyOf(members);
    }

    private static Member member(JsonNode m) {
        return new Member(Json.bytes(m.get("Pos")), m.get("Addr").asText());
    }

    /** The key's replica set in the cached ring: owner first. */
    List<Member> replicas(byte[] key) {
        return replicas(ring, key, redundancy);
    }

    /**
     * What a read of a key asks: {@code ask}, and how many answers make a read quorum of its replica set over the
     * expected membership ({@code quorum}: n − W + 1 with the default {@code god.sync.acks=quorum}, W = ⌊n/2⌋ + 1,
     * so the answers share a replica with every acknowledged Sync write); {@code set}: the key's whole replica set over
     * the expected membership, which a retry asks when {@code ask} gave fewer answers than a quorum.
     */
    record Reads(List<Member> ask, List<Member> set, int quorum) {
    }

    /**
     * The replicas a read asks: its replicas over the expected membership that are in the ring and not catching up,
     * as long as they make a read quorum; else every replica of that set (the absent ones too: a member partitioned
     * from the node the view came from may still answer this client), and the newest answer wins. Counting over the
     * view alone let the members of a minority partition stand for the set: a client that took its view from one of
     * them read only them and missed writes the majority had acknowledged (chaos, seed 4864082276640774237).
     */
    Reads readReplicas(byte[] key) {
        List<Member> set = replicas(expected.isEmpty() ? ring : expected, key, redundancy);
        return new Reads(readable(set, ring, catchingUp), set, readQuorum(set.size()));
    }

    /** n − ⌊n/2⌋: with W = ⌊n/2⌋ + 1 (quorum) any read quorum and any W replicas share a member. */
    static int readQuorum(int n) {
        return Math.max(1, n - n / 2);
    }

    /**
     * Of a key's replica set, those in the ring and not catching up while they make a read quorum; else the whole
     * set. Dropping catching-up members below a quorum would let one replica stand for the set: a member back from a
     * partition sees the others return and lists them as catching up, and a client that took its view from it read
     * only it, and got a value older than an acknowledged write (chaos, seed 27).
     */
    static List<Member> readable(List<Member> set, List<Member> ring, Set<String> catchingUp) {
        Set<String> live = new HashSet<>();
        for (Member m : ring) {
            live.add(m.address());
        }
        List<Member> out = new ArrayList<>(set.size());
        for (Member m : set) {
            if (live.contains(m.address()) && !catchingUp.contains(m.address())) {
                out.add(m);
            }
        }
        return out.size() == set.size() || out.size() >= readQuorum(set.size()) ? out : set;
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

package io.god.ring;

import io.god.events.Event;
import io.god.events.EventBus;
import io.god.transport.Transport;
import io.god.transport.TransportException;
import io.god.wire.Ops;
import io.god.wire.WireReader;
import io.god.wire.WireWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * Ring membership as a state machine without I/O of its own: {@link #tick()} (called every
 * {@code god.ring.interval} by whoever drives it) and {@link #handle} (incoming requests) are its only
 * entry points; it talks to peers through the {@link Transport} seam and draws randomness from the
 * seeded {@link Random}. No sleeps, no wall clock.
 *
 * <p><b>Bootstrap</b> (DESIGN §7): a JOINING node asks every other seed to {@code JOIN}; the first
 * member that answers (in seed order) gives the ring, the node takes its persisted position or, if it
 * has none, a position in the biggest gap ({@link Positions#biggestGap}), and becomes ACTIVE. When no
 * seed is a member, only the first seed (or a node without seeds) founds a new ring; every other node
 * tries again next tick.
 *
 * <p><b>Maintenance</b>: every tick an ACTIVE node pings every member of its view with its ring hash
 * (a full routing table, as in the reference, so routing is O(1); failure detection is direct, so it
 * is O(n²) messages per interval: fine for tens of nodes). A ping answers with the callee's own entry
 * and hash, plus its members list when the hashes differ; the caller merges that list and, if the
 * hashes still differ, pushes its own list ({@code GOSSIP}). A member that fails
 * {@code god.ring.failures} pings in a row is removed from the view and put on a "down" list that is
 * probed every tick (so partitions heal and restarted nodes come back) and forgotten after
 * {@code god.ring.forget-after}; gossip never re-adds a member this node saw go down, only a direct
 * answer does. Being pinged by a node adds it (a direct contact).
 *
 * <p><b>Leaving</b>: {@link #leave()} tells every member ({@code LEAVE}) that this node has left; they
 * drop it at once and gossip never re-adds that entry (only a direct contact from a newer incarnation,
 * i.e. a restarted node, does). A LEFT node answers no JOIN or PING, so members the message missed
 * drop it by failure detection.
 */
public final class Membership {

    public enum State { JOINING, ACTIVE, LEFT }

    /** Everything the state machine needs to know about its node. */
    public record Config(String address, List<String> seeds, byte[] position, long incarnation,
                         Duration rpcTimeout, int failuresToRemove, long forgetAfterTicks) {
    }

    private static final System.Logger LOG = System.getLogger(Membership.class.getName());
    private static final int MAX_MEMBERS = 100_000;

    private final Config config;
    private final Transport transport;
    private final Random random;
    private final EventBus events;
    private final Consumer<byte[]> positionChosen;

    private State state = State.JOINING;
    private Member self;
    private final Map<String, Member> live = new HashMap<>();
    private final Map<String, Integer> failures = new HashMap<>();
    private final Map<String, Down> down = new HashMap<>();
    /** Members that announced their leave: address → (entry, tick); gossip must not bring them back. */
    private final Map<String, Down> left = new HashMap<>();
    private byte[] startPosition;
    private final Set<String> inFlight = new HashSet<>();
    private boolean joinInFlight;
    /** Members that pinged this node while it was joining: asked on the next join attempt (guarded by this). */
    private final Set<String> probers = new LinkedHashSet<>();
    private long ticks;
    private volatile Ring ring = new Ring(List.of());
    private final List<Consumer<Ring>> listeners = new java.util.concurrent.CopyOnWriteArrayList<>();

    private record Down(Member member, long since) {
    }

    /**
     * @param positionChosen told once when a node without a persisted position takes one (persist it)
     */
    public Membership(Config config, Transport transport, Random random, EventBus events,
                      Consumer<byte[]> positionChosen) {
        this.config = config;
        this.transport = transport;
        this.random = random;
        this.events = events;
        this.positionChosen = positionChosen;
        this.startPosition = config.position() == null ? null : config.position().clone();
    }

    // ------------------------------------------------------------------ views

    public synchronized State state() {
        return state;
    }

    /** This node's entry (null before it has a position). */
    public synchronized Member self() {
        return self;
    }

    /** The current view (empty while joining). */
    public Ring ring() {
        return ring;
    }

    public void onChange(Consumer<Ring> listener) {
        listeners.add(listener);
    }

    /** Members that pinged this node while it was joining (asked on the next join attempt). */
    public synchronized List<String> probers() {
        return List.copyOf(probers);
    }

    /** Addresses currently considered down (probed each tick). */
    public synchronized Set<String> down() {
        return Set.copyOf(down.keySet());
    }

    // ------------------------------------------------------------------ tick

    /** One round: join attempts while JOINING, pings and probes while ACTIVE. */
    public void tick() {
        List<String> toPing = new ArrayList<>();
        synchronized (this) {
            ticks++;
            if (state == State.LEFT) {
                return;
            }
            if (state == State.JOINING) {
                if (!joinInFlight) {
                    joinInFlight = true;
                    toPing = null;
                }
            } else {
                down.entrySet().removeIf(e -> ticks - e.getValue().since() > config.forgetAfterTicks());
                left.entrySet().removeIf(e -> ticks - e.getValue().since() > config.forgetAfterTicks());
                for (String a : live.keySet()) {
                    if (!a.equals(config.address()) && inFlight.add(a)) {
                        toPing.add(a);
                    }
                }
                for (String a : down.keySet()) {
                    if (inFlight.add(a)) {
                        toPing.add(a);
                    }
                }
            }
        }
        if (toPing == null) {
            attemptJoin();
            return;
        }
        for (String a : toPing) {
            ping(a);
        }
    }

    // ------------------------------------------------------------------ joining

    private void attemptJoin() {
        List<String> others = new ArrayList<>();
        List<String> candidates = new ArrayList<>(config.seeds());
        synchronized (this) {
            candidates.addAll(probers);
            probers.clear();
        }
        for (String s : candidates) {
            if (!s.equals(config.address()) && !others.contains(s)) {
                others.add(s);
            }
        }
        List<CompletableFuture<List<Member>>> replies = new ArrayList<>();
        byte[] req = new WireWriter().string(config.address()).toBytes();
        for (String seed : others) {
            replies.add(transport.call(seed, Ops.JOIN, req, config.rpcTimeout())
                    .thenApply(Membership::decodeMembers)
                    .exceptionally(e -> null));
        }
        CompletableFuture.allOf(replies.toArray(CompletableFuture[]::new)).whenComplete((v, e) -> {
            List<Member> found = null;
            for (CompletableFuture<List<Member>> r : replies) {
                List<Member> m = r.getNow(null);
                if (m != null && !m.isEmpty()) {
                    found = m;
                    break;
                }
            }
            boolean founder = config.seeds().isEmpty() || config.seeds().get(0).equals(config.address());
            synchronized (this) {
                joinInFlight = false;
                if (state != State.JOINING) {
                    return;
                }
                if (found != null) {
                    becomeActive(found);
                } else if (founder) {
                    LOG.log(System.Logger.Level.INFO, config.address() + ": no seed is a ring member; founding a ring");
                    becomeActive(List.of());
                }
            }
            publishIfChanged();
        });
    }

    private void becomeActive(List<Member> view) {
        byte[] position = startPosition;
        if (position == null) {
            List<byte[]> positions = new ArrayList<>();
            for (Member m : new Ring(view).members()) {
                if (!m.address().equals(config.address())) {
                    positions.add(m.position());
                }
            }
            position = Positions.biggestGap(positions, random);
            positionChosen.accept(position);
        }
        self = new Member(position, config.address(), config.incarnation());
        live.put(self.address(), self);
        for (Member m : view) {
            if (!m.address().equals(config.address())) {
                live.put(m.address(), m);
            }
        }
        state = State.ACTIVE;
        LOG.log(System.Logger.Level.INFO, config.address() + " joined the ring at " + self.hex() + " with "
                + (live.size() - 1) + " other member(s)");
    }

    // ------------------------------------------------------------------ pings

    private void ping(String address) {
        byte[] req;
        Member me;
        synchronized (this) {
            me = self;
            req = encodePing(self, ring.hash());
        }
        publishComm(me, address, "Discord.Ping");
        transport.call(address, Ops.PING, req, config.rpcTimeout()).whenComplete((reply, error) -> {
            boolean push = false;
            synchronized (this) {
                inFlight.remove(address);
                if (state == State.LEFT) {
                    return; // an answer that arrived after this node left
                }
                if (error != null) {
                    failed(address, TransportException.of(error));
                } else {
                    try {
                        WireReader r = new WireReader(reply);
                        Member callee = readMember(r);
                        String hash = r.string();
                        List<Member> list = r.bool() ? readMembers(r) : null;
                        r.end();
                        alive(callee);
                        if (list != null) {
                            merge(list);
                        }
                        push = !recompute().equals(hash);
                    } catch (RuntimeException e) {
                        LOG.log(System.Logger.Level.WARNING, "bad ping reply from " + address + ": " + e);
                    }
                }
            }
            publishIfChanged();
            if (push) {
                byte[] gossip;
                synchronized (this) {
                    gossip = encodeMembers(live.values());
                }
                transport.call(address, Ops.GOSSIP, gossip, config.rpcTimeout());
            }
        });
    }

    private void failed(String address, TransportException e) {
        if (down.containsKey(address)) {
            return;
        }
        int n = failures.merge(address, 1, Integer::sum);
        if (n >= config.failuresToRemove()) {
            Member gone = live.remove(address);
            failures.remove(address);
            if (gone != null) {
                down.put(address, new Down(gone, ticks));
                LOG.log(System.Logger.Level.INFO, config.address() + " removed " + gone + " after " + n
                        + " failed pings: " + e.getMessage());
            }
        }
    }

    /** A direct answer or request from m: it is alive and its entry is authoritative. */
    private void alive(Member m) {
        if (m.address().equals(config.address())) {
            return;
        }
        Down gone = left.get(m.address());
        if (gone != null && gone.member().incarnation() >= m.incarnation()) {
            return; // a late message of a node that has left
        }
        left.remove(m.address());
        down.remove(m.address());
        failures.remove(m.address());
        Member old = live.get(m.address());
        if (old == null || old.incarnation() <= m.incarnation()) {
            live.put(m.address(), m);
        }
    }

    private void merge(List<Member> list) {
        for (Member m : list) {
            if (m.address().equals(config.address()) || down.containsKey(m.address())
                    || left.containsKey(m.address()) && left.get(m.address()).member().incarnation() >= m.incarnation()) {
                continue;
            }
            Member old = live.get(m.address());
            if (old == null || old.incarnation() < m.incarnation()) {
                live.put(m.address(), m);
            }
        }
    }

    /** Rebuilds the ring from the live map; returns its hash. */
    private String recompute() {
        if (!live.isEmpty() && !new Ring(live.values()).hash().equals(ring.hash())) {
            ring = new Ring(live.values());
        }
        return ring.hash();
    }

    private String published = "";
    private long changedAtTick;

    /**
     * Moves this node to a new ring position (migration). The entry gets a higher incarnation, so
     * peers replace the old one when they next hear from this node. Returns false while joining.
     */
    public boolean moveTo(byte[] position) {
        synchronized (this) {
            if (state != State.ACTIVE || self == null || position.length != Positions.SIZE) {
                return false;
            }
            self = new Member(position.clone(), config.address(), self.incarnation() + 1);
            live.put(self.address(), self);
        }
        publishIfChanged();
        return true;
    }

    /**
     * While joining: forget the persisted position, so the node takes a new one (the biggest gap) when
     * it joins, as an empty node does. False once it is a member.
     */
    public synchronized boolean forgetPosition() {
        if (state != State.JOINING) {
            return false;
        }
        startPosition = null;
        return true;
    }

    /**
     * Leaves the ring: the node stops pinging and answering pings and joins, and tells every member of
     * its view ({@code LEAVE}, best effort within the RPC deadline; a member the message misses drops
     * the node by failure detection). Returns the members it told (its last view without itself).
     */
    public List<Member> leave() {
        List<Member> others = new ArrayList<>();
        Member me;
        synchronized (this) {
            if (state != State.ACTIVE) {
                return others;
            }
            me = self;
            for (Member m : live.values()) {
                if (!m.address().equals(config.address())) {
                    others.add(m);
                }
            }
            state = State.LEFT;
            live.clear();
            down.clear();
            failures.clear();
            ring = new Ring(List.of());
            published = ring.hash();
        }
        byte[] payload = encodePing(me, "");
        List<CompletableFuture<byte[]>> calls = new ArrayList<>();
        for (Member m : others) {
            calls.add(transport.call(m.address(), Ops.LEAVE, payload, config.rpcTimeout()));
        }
        for (int i = 0; i < calls.size(); i++) {
            try {
                calls.get(i).get(config.rpcTimeout().toNanos() * 2, java.util.concurrent.TimeUnit.NANOSECONDS);
            } catch (Exception e) {
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
                LOG.log(System.Logger.Level.INFO, config.address() + ": " + others.get(i).address()
                        + " did not confirm the leave (failure detection will drop this node): " + e);
            }
        }
        LOG.log(System.Logger.Level.INFO, config.address() + " left the ring; told " + others.size() + " member(s)");
        return others;
    }

    /** Ticks since this node's view last changed (0 while joining). */
    public synchronized long stableTicks() {
        return state == State.ACTIVE ? ticks - changedAtTick : 0;
    }

    private void publishIfChanged() {
        Ring r;
        synchronized (this) {
            recompute();
            r = ring;
            if (r.hash().equals(published) || r.isEmpty()) {
                return;
            }
            published = r.hash();
            changedAtTick = ticks;
        }
        for (Consumer<Ring> l : listeners) {
            l.accept(r);
        }
        if (events != null && events.hasListeners()) {
            List<Event.NodeRef> refs = new ArrayList<>();
            for (Member m : r.members()) {
                refs.add(new Event.NodeRef(m.position(), m.address()));
            }
            Member me = self();
            events.publish(new Event.RingChange(new Event.NodeRef(me.position(), me.address()), refs));
        }
    }

    private void publishComm(Member me, String to, String op) {
        if (events == null || !events.hasListeners() || me == null) {
            return;
        }
        Member dest = ring.byAddress(to);
        events.publish(new Event.Comm(new Event.NodeRef(me.position(), me.address()),
                dest == null ? new Event.NodeRef(new byte[Positions.SIZE], to)
                        : new Event.NodeRef(dest.position(), dest.address()), null, null, op));
    }

    // ------------------------------------------------------------------ incoming

    /** Handles JOIN, PING and GOSSIP; other operations are not membership's. */
    public CompletableFuture<byte[]> handle(int op, byte[] payload) {
        byte[] reply;
        synchronized (this) {
            switch (op) {
                case Ops.JOIN -> {
                    if (state != State.ACTIVE) {
                        return CompletableFuture.failedFuture(new IllegalStateException(
                                config.address() + " is not a ring member yet"));
                    }
                    reply = encodeMembers(live.values());
                }
                case Ops.PING -> {
                    WireReader r = new WireReader(payload);
                    Member caller = readMember(r);
                    String hash = r.string();
                    r.end();
                    if (state != State.ACTIVE) {
                        // a member probing us knows the ring: join through it too (the seeds may all be
                        // restarting themselves, and a ring whose live members are no seeds must still
                        // take us back; found by the simulation, seed 1170)
                        if (!caller.address().equals(config.address())) {
                            probers.add(caller.address());
                        }
                        return CompletableFuture.failedFuture(new IllegalStateException(
                                config.address() + " is not a ring member yet"));
                    }
                    alive(caller);
                    String mine = recompute();
                    WireWriter w = new WireWriter();
                    writeMember(w, self);
                    w.string(mine);
                    if (!mine.equals(hash)) {
                        w.bool(true);
                        writeMembers(w, live.values());
                    } else {
                        w.bool(false);
                    }
                    reply = w.toBytes();
                }
                case Ops.LEAVE -> {
                    WireReader r = new WireReader(payload);
                    Member gone = readMember(r);
                    r.string();
                    r.end();
                    Member current = live.get(gone.address());
                    if (current != null && current.incarnation() <= gone.incarnation()
                            && !gone.address().equals(config.address())) {
                        live.remove(gone.address());
                        failures.remove(gone.address());
                        LOG.log(System.Logger.Level.INFO, config.address() + ": " + gone + " left the ring");
                    }
                    if (!gone.address().equals(config.address())) {
                        left.put(gone.address(), new Down(gone, ticks));
                    }
                    reply = new byte[0];
                }
                case Ops.GOSSIP -> {
                    List<Member> list = decodeMembers(payload);
                    if (state == State.ACTIVE) {
                        merge(list);
                    }
                    reply = new byte[0];
                }
                default -> {
                    return CompletableFuture.failedFuture(new IllegalArgumentException("not a membership op " + op));
                }
            }
        }
        publishIfChanged();
        return CompletableFuture.completedFuture(reply);
    }

    // ------------------------------------------------------------------ encoding

    static byte[] encodePing(Member self, String hash) {
        WireWriter w = new WireWriter();
        writeMember(w, self);
        return w.string(hash).toBytes();
    }

    static void writeMember(WireWriter w, Member m) {
        w.raw(m.position()).string(m.address()).signed(m.incarnation());
    }

    static Member readMember(WireReader r) {
        byte[] p = r.raw(Positions.SIZE);
        String a = r.string();
        long inc = r.signed();
        if (a == null) {
            throw new io.god.wire.WireException("member without an address");
        }
        return new Member(p, a, inc);
    }

    static void writeMembers(WireWriter w, java.util.Collection<Member> ms) {
        w.varint(ms.size());
        for (Member m : ms) {
            writeMember(w, m);
        }
    }

    static List<Member> readMembers(WireReader r) {
        int n = r.count(MAX_MEMBERS);
        List<Member> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(readMember(r));
        }
        return out;
    }

    static byte[] encodeMembers(java.util.Collection<Member> ms) {
        WireWriter w = new WireWriter();
        writeMembers(w, ms);
        return w.toBytes();
    }

    /** A JOIN reply: the members list. */
    public static List<Member> decodeMembers(byte[] payload) {
        WireReader r = new WireReader(payload);
        List<Member> out = readMembers(r);
        r.end();
        return out;
    }

    /** Counts of pings in flight (tests). */
    synchronized int inFlight() {
        return inFlight.size();
    }
}

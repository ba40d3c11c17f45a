package io.god.ring;

import static io.god.ring.MemberCodec.encodeLeave;
import static io.god.ring.MemberCodec.encodeMembers;
import static io.god.ring.MemberCodec.readMember;
import static io.god.ring.MemberCodec.readMembers;
import static io.god.ring.MemberCodec.writeMember;
import static io.god.ring.MemberCodec.writeMembers;

import io.god.events.EventBus;
import io.god.wire.Ops;
import io.god.wire.WireReader;
import io.god.wire.WireWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * Ring membership as a state machine without I/O of its own (DESIGN §4): messages in, messages out.
 * {@link #tick()} (called every {@code god.ring.interval} by whoever drives it), {@link #leave()} and
 * {@link #remove} return the {@link Outbound} messages to send; {@link #handle} takes incoming requests and
 * returns the reply; {@link #answered} and {@link #unanswered} take the outcome of each message sent
 * (and may return more). The node wires it to the network (io.god.cluster.MembershipLink, with a deadline
 * on every call); randomness comes from the seeded {@link Random}. No sleeps, no wall clock, no transport:
 * the ring package does not depend on io.god.transport (ArchitectureTest).
 *
 * <p><b>Bootstrap</b> (DESIGN §7): a JOINING node asks every other seed to {@code JOIN}; the first
 * member that answers (in seed order) gives the ring, the node takes its persisted position or, if it
 * has none, a position in the biggest gap ({@link Positions#biggestGap}), and becomes ACTIVE. When no
 * seed is a member, only the first seed (or a node without seeds) founds a new ring; every other node
 * tries again next tick.
 *
 * <p><b>Maintenance</b> (SWIM-like; every node still holds the full view, so routing stays O(1)):
 * every tick an ACTIVE node pings a bounded set ({@link PingTargets}: its {@code neighbours} nearest
 * successors and predecessors and {@code fanout} random members — everyone on a small ring) and probes
 * a bounded, rotating share of its down members ({@link Notices#toProbe}). Pings and their replies
 * carry the ring hash and a few {@link Rumors} (entries that joined, restarted, moved or died). When
 * the hashes differ, the callee adds its whole members list and death notices, and the caller pushes
 * its own ({@code GOSSIP}) if they still differ; both within a budget of {@link #LIST_MEMBERS_PER_TICK}
 * listed members per tick, so a 1 000-member ring does not ship 1 000 entries in every message while
 * rumors do the bulk of the spreading.
 *
 * <p><b>Failures</b>: a member that fails {@code god.ring.failures} pings in a row is removed and a
 * death notice (its entry: address and incarnation) is recorded and spread. A notice removes the live
 * entry of the same or an older incarnation — unless this node had a direct answer from it within the
 * last {@code god.ring.failures} ticks: it then keeps it and hands the notice to the member on its
 * next ping. A member that learns of a notice about itself refutes it: it takes a higher incarnation
 * and spreads that (a restarted node has a higher one anyway). Down members are probed so partitions
 * heal; a probe carries the notice, so the answering member refutes it. Notices are forgotten after
 * {@code god.ring.forget-after}. Being pinged by a node, or answered by it, adds it (direct contact).
 *
 * <p><b>Leaving</b>: {@link #leave()} tells every member ({@code LEAVE}) that this node has left; they
 * drop it at once and gossip never re-adds that entry (only a direct contact from a newer incarnation,
 * i.e. a restarted node, does). A LEFT node answers no JOIN or PING, so members the message missed
 * drop it by failure detection.
 */
public final class Membership {

    public enum State { JOINING, ACTIVE, LEFT }

    /**
     * Everything the state machine needs to know about its node.
     *
     * @param neighbours successors and predecessors pinged every tick
     * @param fanout random other members pinged every tick
     * @param probes down members probed per tick at most
     * @param redundancy this node's N, sent with JOIN; members refuse a joiner with another N (0: none sent, any
     *     accepted — what a node of the previous version does)
     */
    public record Config(String address, List<String> seeds, byte[] position, long incarnation,
                         Duration rpcTimeout, int failuresToRemove, long forgetAfterTicks,
                         int neighbours, int fanout, int probes, int redundancy) {

        public static final int NEIGHBOURS = 3;
        public static final int FANOUT = 2;
        public static final int PROBES = 2;

        /** Without a replication factor to check joiners against (0: any). */
        public Config(String address, List<String> seeds, byte[] position, long incarnation,
                      Duration rpcTimeout, int failuresToRemove, long forgetAfterTicks,
                      int neighbours, int fanout, int probes) {
            this(address, seeds, position, incarnation, rpcTimeout, failuresToRemove, forgetAfterTicks,
                    neighbours, fanout, probes, 0);
        }

        /** With the default neighbours, fanout and probes. */
        public Config(String address, List<String> seeds, byte[] position, long incarnation,
                      Duration rpcTimeout, int failuresToRemove, long forgetAfterTicks) {
            this(address, seeds, position, incarnation, rpcTimeout, failuresToRemove, forgetAfterTicks,
                    NEIGHBOURS, FANOUT, PROBES);
        }
    }

    /** Members (and notices) a node may list in full per tick, on average (hash-mismatch exchanges). */
    static final int LIST_MEMBERS_PER_TICK = 64;
    /** The reason field of a LEAVE that removes an absent member on request (a drain sends ""). */
    static final String REMOVED = "removed";
    private static final System.Logger LOG = System.getLogger(Membership.class.getName());
    private static final int MAX_RUMORS = 64;
    private static final int MAX_PROBERS = 8;
    /** The start of a JOIN refusal for another N: the joiner recognises it and founds no ring of its own. */
    static final String REDUNDANCY_MISMATCH = "redundancy mismatch:";
    private static final int MAX_REDUNDANCY = 1_000;

    private final Config config;
    private final Random random;
    private final Consumer<byte[]> positionChosen;

    private State state = State.JOINING;
    private Member self;
    private final View view = new View();
    private final Notices down = new Notices();
    /** Members that announced their leave: address → (entry, tick); gossip must not bring them back. */
    private final Map<String, Down> left = new HashMap<>();
    /** Notices about members this node kept (recent direct contact): told to the member itself. */
    private final Map<String, Member> refute = new HashMap<>();
    private final Rumors rumors = new Rumors();
    private long listBudget = LIST_MEMBERS_PER_TICK;
    private byte[] startPosition;
    /** Pings in flight, failed pings in a row, last direct contact: failure detection's bookkeeping. */
    private final FailureDetector detector;
    /** The join attempt awaiting answers (null: none); one at a time. */
    private JoinAttempt join;
    /** False: this node founds a ring only once another node is up and waits for one (see {@link #foundAlone}). */
    private volatile boolean foundsAlone = true;
    /** Another node asked this joining node to join it or for its collectedUpTo: it is up and waits for a ring. */
    private volatile boolean peerWaiting;
    private boolean toldWaiting;
    /** The last refusal of this node by the ring (another N), logged once. */
    private String lastRefusal;
    /** Members that pinged this node while it was joining: asked on the next join attempt (guarded by this). */
    private final Set<String> probers = new LinkedHashSet<>();
    private long ticks;
    /** The expected membership E's bookkeeping (DESIGN §5): absent members, removals. */
    private final Expected expected;
    /** Set when the ring declared this node dead (a notice about itself, or its view shrank to itself). */
    private boolean declaredDead;
    /** Ring changes told to listeners and events; since when the view is stable. */
    private final Changes changes;

    private record Down(Member member, long since) {
    }

    /** A members list with death notices: a hash-mismatch exchange. */
    private record Listing(List<Member> members, List<Member> notices) {
    }

    /**
     * @param positionChosen told once when a node without a persisted position takes one (persist it)
     */
    public Membership(Config config, Random random, EventBus events, Consumer<byte[]> positionChosen) {
        this.config = config;
        this.expected = new Expected(config.address());
        this.detector = new FailureDetector(config.failuresToRemove());
        this.random = random;
        this.changes = new Changes(events);
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
        Ring r = view.cached();
        if (r != null) {
            return r;
        }
        synchronized (this) {
            return view.ring();
        }
    }

    public void onChange(Consumer<Ring> listener) {
        changes.listen(listener);
    }

    /** Whether an address is in this node's view. */
    public synchronized boolean isMember(String address) {
        return view.contains(address);
    }

    /** A random other member of the view (null when there is none); O(1), without building the ring. */
    public synchronized Member randomPeer(Random r) {
        if (view.size() < 2) {
            return null;
        }
        Member m = view.random(r);
        return m.address().equals(config.address()) ? null : m;
    }

    /**
     * True once after the ring declared this node dead (a death notice about itself, or its view shrank
     * to itself): the node then goes through the (re)join path — stale-data check, catching up.
     */
    public synchronized boolean takeDeclaredDead() {
        boolean d = declaredDead;
        declaredDead = false;
        return d;
    }

    /**
     * The expected membership E (DESIGN §5): the view plus the members that died, restart or are
     * partitioned away and were neither drained nor removed on request ({@link #remove}). Sync writes
     * are acknowledged over E's replica sets, and tombstones are not collected while the view is
     * smaller than E. An absent entry whose position a live member now holds (the same node back
     * under another address) does not count. Empty while joining.
     */
    public Ring expected() {
        Ring live = ring();
        synchronized (this) {
            return expected.over(live, view);
        }
    }

    /** Expected members that are not in the view now (down, restarting or partitioned away). */
    public synchronized List<Member> absent() {
        return expected.absent(view);
    }

    /**
     * Removes an expected member that is gone for good (the admin call {@code POST /admin/remove-member}):
     * named by its address or its position (hex). Only a member that is not in this node's view may be
     * removed (a live member drains with {@code /admin/leave}). Every member of the view is to be told, as
     * if the member had left: the returned messages ({@code LEAVE}; best effort, the call may be
     * repeated). Returns the removed entry, or a removal of nobody when no expected member has that name
     * (already removed, left, or never known here: the call is idempotent, as the operator asks every member).
     *
     * @throws IllegalArgumentException when no member is named
     * @throws IllegalStateException naming the problem (a live member; this node is not a ring member)
     */
    public Removal remove(String addressOrPosition) {
        Member gone;
        List<String> tell = new ArrayList<>();
        synchronized (this) {
            if (state != State.ACTIVE) {
                throw new IllegalStateException("this node is not a ring member (" + state + ")");
            }
            String want = addressOrPosition == null ? "" : addressOrPosition.trim();
            if (want.isEmpty()) {
                throw new IllegalArgumentException("name the member to remove by its address or position (hex)");
            }
            for (Member m : view.members()) {
                if (m.address().equals(want) || m.hex().equalsIgnoreCase(want)) {
                    throw new IllegalStateException("member " + m + " is alive in this node's view; drain it"
                            + " with POST /admin/leave on that member instead");
                }
            }
            gone = expected.named(want);
            if (gone == null) {
                return new Removal(null, List.of()); // not (or no longer) expected: idempotent
            }
            expected.forget(gone); // not "left": if it ever comes back, it rejoins (and is checked for stale data)
            for (Member m : view.members()) {
                if (!m.address().equals(config.address())) {
                    tell.add(m.address());
                }
            }
        }
        WireWriter lw = new WireWriter();
        writeMember(lw, gone);
        byte[] payload = lw.string(REMOVED).toBytes();
        List<Outbound> out = new ArrayList<>();
        for (String a : tell) {
            out.add(new Outbound(a, Ops.LEAVE, payload, Outbound.Kind.REMOVE));
        }
        LOG.log(System.Logger.Level.WARNING, config.address() + " removed " + gone + " from the expected membership"
                + " (on request); telling " + tell.size() + " member(s)");
        return new Removal(gone, out);
    }

    /**
     * What {@link #remove} did: the removed entry (null: no expected member has that name) and the
     * messages that tell the members of the view.
     */
    public record Removal(Member member, List<Outbound> messages) {
    }

    /** A member that dropped out of the view still counts as expected, unless it left or was removed. */
    private void rememberAbsent(Member m) {
        expected.remember(m, left.containsKey(m.address()));
    }

    /**
     * {@code false}: when no seed is a ring member, this node (the first seed) does not found a ring by
     * itself but waits until another node is up and asks it ({@link #peerWaiting()}): a node whose data
     * awaits repair from the ring must not form a ring with only its damaged copy.
     */
    public void foundAlone(boolean alone) {
        foundsAlone = alone;
    }

    /** Another node, not yet a ring member, asked this joining node (JOIN or the stale-data check). */
    public void peerWaiting() {
        peerWaiting = true;
    }

    /** Members that pinged this node while it was joining (asked on the next join attempt). */
    public synchronized List<String> probers() {
        return List.copyOf(probers);
    }

    /** Addresses currently considered down (death notices: probed, forgotten after forget-after). */
    public synchronized Set<String> down() {
        return down.addresses();
    }

    /** Members of the view that missed at least one ping and are not yet removed (the metrics). */
    public synchronized int suspected() {
        return detector.suspected();
    }

    /** Rumors waiting to be piggybacked (tests). */
    synchronized int rumors() {
        return rumors.size();
    }

    // ------------------------------------------------------------------ tick

    /** One round: join attempts while JOINING, pings and probes while ACTIVE. Returns the messages to send. */
    public List<Outbound> tick() {
        List<Outbound> out = new ArrayList<>();
        List<Outbound> pings = new ArrayList<>();
        List<Member> pinged = new ArrayList<>(); // their entries (null: a probe of a down member), for the events
        boolean decided = false;
        Member me;
        synchronized (this) {
            ticks++;
            if (state == State.LEFT) {
                return out;
            }
            if (state == State.JOINING) {
                if (join == null) {
                    join = newJoinAttempt();
                    if (join.done()) {
                        decided = finishJoin(); // nobody to ask: decide at once (found a ring, or wait)
                    } else {
                        out.addAll(join.messages());
                    }
                }
            } else {
                down.expire(ticks, config.forgetAfterTicks());
                left.entrySet().removeIf(e -> ticks - e.getValue().since() > config.forgetAfterTicks());
                int known = view.size() + down.size();
                listBudget = Math.min(listBudget + LIST_MEMBERS_PER_TICK,
                        2L * Math.max(LIST_MEMBERS_PER_TICK, known));
                for (String a : PingTargets.pick(view, self, config.neighbours(), config.fanout(), random)) {
                    if (detector.mayPing(a)) {
                        pings.add(ping(a));
                        pinged.add(view.get(a));
                    }
                }
                boolean small = known - 1 <= 2 * config.neighbours() + config.fanout();
                for (String a : down.toProbe(small, config.probes(), view.size(), random)) {
                    if (detector.mayPing(a)) {
                        pings.add(ping(a));
                        pinged.add(view.get(a));
                    }
                }
                out.addAll(pings);
            }
            me = self;
        }
        if (decided) {
            publishIfChanged();
        }
        for (int i = 0; i < pings.size(); i++) {
            changes.comm(me, pings.get(i).to(), pinged.get(i), "Discord.Ping");
        }
        return out;
    }

    /**
     * The outcome of a message this node sent: the peer's reply. Returns the messages to send next (a
     * members list pushed after a ping whose reply showed another ring).
     */
    public List<Outbound> answered(Outbound sent, byte[] reply) {
        return switch (sent.kind()) {
            case JOIN -> joinAnswered(sent, reply, null);
            case PING -> pingAnswered(sent.to(), reply, null);
            case GOSSIP, LEAVE, REMOVE -> List.of();
        };
    }

    /** The outcome of a message this node sent: no answer (unreachable, deadline passed, or an error reply). */
    public List<Outbound> unanswered(Outbound sent, Outbound.NoAnswer why) {
        switch (sent.kind()) {
            case JOIN -> {
                return joinAnswered(sent, null, why);
            }
            case PING -> {
                return pingAnswered(sent.to(), null, why);
            }
            case LEAVE -> LOG.log(System.Logger.Level.INFO, config.address() + ": " + sent.to()
                    + " did not confirm the leave (failure detection will drop this node): " + why.message());
            case REMOVE -> LOG.log(System.Logger.Level.WARNING, config.address() + ": " + sent.to()
                    + " did not confirm the removal of a member (repeat POST /admin/remove-member when it is back): "
                    + why.message());
            case GOSSIP -> {
                // best effort: the next ping exchange lists again if the rings still differ
            }
        }
        return List.of();
    }

    // ------------------------------------------------------------------ joining

    private JoinAttempt newJoinAttempt() {
        List<String> candidates = new ArrayList<>(config.seeds());
        candidates.addAll(probers);
        probers.clear();
        return new JoinAttempt(config.address(), candidates, config.redundancy());
    }

    private List<Outbound> joinAnswered(Outbound sent, byte[] reply, Outbound.NoAnswer why) {
        boolean decided;
        synchronized (this) {
            JoinAttempt a = join;
            if (a == null || !a.sent(sent)) {
                return List.of(); // not the attempt in flight (cannot happen while each message has one outcome)
            }
            if (reply != null) {
                List<Member> members = List.of();
                try {
                    members = decodeMembers(reply);
                } catch (RuntimeException e) {
                    LOG.log(System.Logger.Level.WARNING, "bad join reply from " + sent.to() + ": " + e);
                }
                a.answered(sent.to(), members);
            } else {
                boolean otherN = why.refused() && String.valueOf(why.message()).contains(REDUNDANCY_MISMATCH);
                a.unanswered(otherN ? why.message() : null);
            }
            decided = a.done() && finishJoin();
        }
        if (decided) {
            publishIfChanged();
        }
        return List.of();
    }

    /**
     * Decides the join attempt once every asked node answered (or did not): the first that gave a ring
     * (in seed order), else founding one or waiting. Returns whether it was decided (false: the node left).
     */
    private boolean finishJoin() {
        JoinAttempt a = join;
        join = null;
        if (state != State.JOINING) {
            return false;
        }
        List<Member> found = a.ring();
        boolean founder = config.seeds().isEmpty() || config.seeds().get(0).equals(config.address());
        if (found == null && a.refusal() != null) {
            // a ring with another N exists: never found a second one beside it
            if (!a.refusal().equals(lastRefusal)) {
                lastRefusal = a.refusal();
                LOG.log(System.Logger.Level.ERROR, config.address() + ": the ring refuses this node: "
                        + a.refusal() + "; it stays out of the ring (not ready) until god.redundancy"
                        + " is the ring's");
            }
            founder = false;
        }
        if (found == null && founder && !foundsAlone && !peerWaiting) {
            if (!toldWaiting) {
                toldWaiting = true;
                LOG.log(System.Logger.Level.WARNING, config.address() + ": no seed is a ring member; this"
                        + " node's data awaits repair from the ring, so it founds no ring alone and waits"
                        + " for another member of god.seeds to start");
            }
            founder = false;
        }
        if (found != null) {
            becomeActive(found);
        } else if (founder) {
            LOG.log(System.Logger.Level.INFO, config.address() + ": no seed is a ring member; founding a ring");
            becomeActive(List.of());
        }
        return true;
    }

    private void becomeActive(List<Member> members) {
        byte[] position = startPosition;
        if (position == null) {
            List<byte[]> positions = new ArrayList<>();
            for (Member m : new Ring(members).members()) {
                if (!m.address().equals(config.address())) {
                    positions.add(m.position());
                }
            }
            position = Positions.biggestGap(positions, random);
            positionChosen.accept(position);
        }
        self = new Member(position, config.address(), config.incarnation());
        view.put(self);
        for (Member m : members) {
            if (!m.address().equals(config.address())) {
                view.put(m);
            }
        }
        rumors.add(new Rumors.Rumor(false, self));
        state = State.ACTIVE;
        LOG.log(System.Logger.Level.INFO, config.address() + " joined the ring at " + self.hex() + " with "
                + (view.size() - 1) + " other member(s)");
    }

    // ------------------------------------------------------------------ pings

    /** A ping of {@code address}: this node's entry, its ring hash and rumors (under the lock). */
    private Outbound ping(String address) {
        WireWriter w = new WireWriter();
        writeMember(w, self);
        w.string(view.hash());
        Rumors.write(w, outgoing(address));
        return new Outbound(address, Ops.PING, w.toBytes(), Outbound.Kind.PING);
    }

    private List<Outbound> pingAnswered(String address, byte[] reply, Outbound.NoAnswer why) {
        byte[] push = null;
        synchronized (this) {
            detector.settled(address);
            if (state == State.LEFT) {
                return List.of(); // an answer that arrived after this node left
            }
            if (reply == null) {
                failed(address, why.message());
            } else {
                try {
                    WireReader r = new WireReader(reply);
                    Member callee = readMember(r);
                    String hash = r.string();
                    Listing listing = r.bool() ? readListing(r) : null;
                    List<Rumors.Rumor> news = r.atEnd() ? List.of() : Rumors.read(r, MAX_RUMORS); // older nodes send none
                    r.end();
                    alive(callee);
                    news.forEach(this::learn);
                    if (listing != null) {
                        merge(listing);
                    }
                    if (!view.hash().equals(hash) && mayList()) {
                        push = encodeListing();
                    }
                } catch (RuntimeException e) {
                    LOG.log(System.Logger.Level.WARNING, "bad ping reply from " + address + ": " + e);
                }
            }
        }
        publishIfChanged();
        return push == null ? List.of() : List.of(new Outbound(address, Ops.GOSSIP, push, Outbound.Kind.GOSSIP));
    }
    /** The rumors for a message to {@code to}: first any death notice about {@code to} itself. */
    private List<Rumors.Rumor> outgoing(String to) {
        List<Rumors.Rumor> out = new ArrayList<>();
        Member notice = refute.remove(to);
        if (notice == null) {
            Notices.Notice n = down.get(to);
            notice = n == null ? null : n.member();
        }
        if (notice != null) {
            out.add(new Rumors.Rumor(true, notice));
        }
        out.addAll(rumors.take(view.size()));
        return out;
    }

    /** Whether the list budget allows one members list now (and spends it). */
    private boolean mayList() {
        long cost = view.size() + down.size();
        if (listBudget < cost) {
            return false;
        }
        listBudget -= cost;
        return true;
    }

    private void failed(String address, String why) {
        if (!view.contains(address) || address.equals(config.address())) {
            return; // a probe of a down member, or a member already gone
        }
        if (detector.failed(address)) {
            int n = detector.failures(address);
            Member gone = removeLive(address);
            if (view.size() == 1) {
                declaredDead = true; // alone in its view: the rest of the ring has most likely dropped it too
            }
            down.put(gone, ticks);
            rememberAbsent(gone);
            rumors.add(new Rumors.Rumor(true, gone));
            LOG.log(System.Logger.Level.INFO, config.address() + " removed " + gone + " after " + n
                    + " failed pings: " + why);
        }
    }

    private Member removeLive(String address) {
        detector.forget(address);
        refute.remove(address);
        return view.remove(address);
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
        detector.heardFrom(m.address(), ticks);
        Notices.Notice notice = down.remove(m.address());
        if (notice != null && notice.member().incarnation() >= m.incarnation()) {
            refute.put(m.address(), notice.member()); // it must outbid the notice others still spread
        }
        Member old = view.get(m.address());
        if (old == null || old.incarnation() < m.incarnation()) {
            view.put(m);
            expected.back(m.address()); // removed on request, yet back: expected again
            rumors.add(new Rumors.Rumor(false, m));
        }
    }

    /** A rumor or a listed entry from another member. */
    private void learn(Rumors.Rumor rumor) {
        if (rumor.dead()) {
            notice(rumor.member());
        } else {
            heardOf(rumor.member());
        }
    }

    /** Second-hand news that m is alive: the newest incarnation wins, notices and leaves win ties. */
    private void heardOf(Member m) {
        String a = m.address();
        if (a.equals(config.address()) || down.covers(m)
                || left.containsKey(a) && left.get(a).member().incarnation() >= m.incarnation()) {
            return;
        }
        down.remove(a); // an older incarnation died: this one (a restart) replaces it
        Member old = view.get(a);
        if (old == null || old.incarnation() < m.incarnation()) {
            view.put(m);
            rumors.add(new Rumors.Rumor(false, m));
        }
    }

    /** A death notice of entry m. */
    private void notice(Member m) {
        String a = m.address();
        if (a.equals(config.address())) {
            if (state == State.ACTIVE && m.incarnation() >= self.incarnation()) {
                declaredDead = true; // the others went on without this node: it must catch up (DESIGN §7)
                self = new Member(self.position(), a, m.incarnation() + 1);
                view.put(self);
                rumors.add(new Rumors.Rumor(false, self));
                LOG.log(System.Logger.Level.INFO, a + " refuted a death notice about itself");
            }
            return;
        }
        Notices.Notice have = down.get(a);
        if (have != null && have.member().incarnation() >= m.incarnation() || left.containsKey(a)) {
            return;
        }
        Member old = view.get(a);
        if (old != null && old.incarnation() > m.incarnation()) {
            return; // a notice of an older incarnation: that node has restarted since
        }
        if (old != null && detector.heardRecently(a, ticks)) {
            refute.put(a, m); // direct contact wins here; the member will outbid the notice
            return;
        }
        if (old != null) {
            removeLive(a);
        }
        rememberAbsent(old != null ? old : m);
        down.put(m, ticks);
        rumors.add(new Rumors.Rumor(true, m));
    }

    private void merge(Listing listing) {
        listing.members().forEach(this::heardOf);
        listing.notices().forEach(this::notice);
    }

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
            view.put(self);
            rumors.add(new Rumors.Rumor(false, self));
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
     * Leaves the ring: the node stops pinging and answering pings and joins, and is to tell every member
     * of its view (the returned {@code LEAVE} messages, best effort; a member a message misses drops the
     * node by failure detection). Returns them with the members told (its last view without itself).
     */
    public Leaving leave() {
        List<Member> others = new ArrayList<>();
        Member me;
        synchronized (this) {
            if (state != State.ACTIVE) {
                return new Leaving(others, List.of());
            }
            me = self;
            for (Member m : view.members()) {
                if (!m.address().equals(config.address())) {
                    others.add(m);
                }
            }
            state = State.LEFT;
            view.clear();
            expected.clear();
            down.clear();
            detector.clear();
            refute.clear();
            rumors.clear();
            changes.left(view.hash());
        }
        byte[] payload = encodeLeave(me);
        List<Outbound> out = new ArrayList<>();
        for (Member m : others) {
            out.add(new Outbound(m.address(), Ops.LEAVE, payload, Outbound.Kind.LEAVE));
        }
        LOG.log(System.Logger.Level.INFO, config.address() + " left the ring; telling " + others.size() + " member(s)");
        return new Leaving(others, out);
    }

    /** What {@link #leave()} did: the members to tell (its last view without itself) and the messages for them. */
    public record Leaving(List<Member> members, List<Outbound> messages) {
    }

    /** The deadline of every message this node sends (the configured RPC timeout). */
    public Duration deadline() {
        return config.rpcTimeout();
    }

    /** Ticks since this node's view last changed (0 while joining). */
    public synchronized long stableTicks() {
        return state == State.ACTIVE ? changes.stableTicks(ticks) : 0;
    }

    /**
     * Ticks since this node's neighbourhood (its {@code god.ring.neighbours} nearest predecessors and
     * successors: the holders of its replicas and the owners of the replicas it holds) last changed;
     * 0 while joining. On a small ring that is {@link #stableTicks()}. Cleaning and the "replicated"
     * status wait for this, not for the whole view: on a 1 000-member ring with churn some member
     * changes every few intervals, and a node would hardly ever clean (seen in the large-ring simulation).
     */
    public synchronized long neighbourhoodStableTicks() {
        return state == State.ACTIVE ? changes.neighbourhoodStableTicks(ticks) : 0;
    }

    private void publishIfChanged() {
        Ring r;
        Member me;
        synchronized (this) {
            if (view.isEmpty() || !changes.changed(view, self, config.neighbours(), ticks) || !changes.wanted()) {
                return;
            }
            r = view.ring();
            me = self;
        }
        changes.tell(r, me);
    }

    // ------------------------------------------------------------------ incoming

    /** Handles JOIN, PING, GOSSIP and LEAVE; other operations are not membership's. */
    public CompletableFuture<byte[]> handle(int op, byte[] payload) {
        byte[] reply;
        synchronized (this) {
            switch (op) {
                case Ops.JOIN -> {
                    WireReader r = new WireReader(payload);
                    String joiner = r.string();
                    int n = r.atEnd() ? 0 : (int) r.count(MAX_REDUNDANCY); // a previous version's joiner sends none
                    r.end();
                    if (n > 0 && config.redundancy() > 0 && n != config.redundancy()) {
                        // members with different N place copies differently: the ring would never be replicated
                        return CompletableFuture.failedFuture(new IllegalStateException(REDUNDANCY_MISMATCH + " "
                                + config.address() + " runs with god.redundancy " + config.redundancy() + ", "
                                + joiner + " with " + n));
                    }
                    if (state != State.ACTIVE) {
                        peerWaiting = true; // a node that is up waits for a ring (see foundAlone)
                        return CompletableFuture.failedFuture(new IllegalStateException(
                                config.address() + " is not a ring member yet"));
                    }
                    reply = encodeMembers(view.members());
                }
                case Ops.PING -> {
                    WireReader r = new WireReader(payload);
                    Member caller = readMember(r);
                    String hash = r.string();
                    List<Rumors.Rumor> news = r.atEnd() ? List.of() : Rumors.read(r, MAX_RUMORS); // older nodes send none
                    r.end();
                    if (state != State.ACTIVE) {
                        // a member probing us knows the ring: join through it too (the seeds may all be
                        // restarting themselves, and a ring whose live members are no seeds must still
                        // take us back; found by the simulation, seed 1170)
                        if (!caller.address().equals(config.address()) && probers.size() < MAX_PROBERS) {
                            probers.add(caller.address());
                        }
                        return CompletableFuture.failedFuture(new IllegalStateException(
                                config.address() + " is not a ring member yet"));
                    }
                    alive(caller);
                    news.forEach(this::learn);
                    String mine = view.hash();
                    WireWriter w = new WireWriter();
                    writeMember(w, self);
                    w.string(mine);
                    if (!mine.equals(hash) && mayList()) {
                        w.bool(true);
                        writeListing(w);
                    } else {
                        w.bool(false);
                    }
                    Rumors.write(w, outgoing(caller.address()));
                    reply = w.toBytes();
                }
                case Ops.LEAVE -> {
                    WireReader r = new WireReader(payload);
                    Member gone = readMember(r);
                    String why = r.string(); // older nodes send "" (a drain) and read no more than a string
                    r.end();
                    if (REMOVED.equals(why)) { // an admin removed an absent member: no longer expected
                        if (!gone.address().equals(config.address()) && !view.contains(gone.address())) {
                            expected.forget(gone);
                        }
                    } else {
                        Member current = view.get(gone.address());
                        if (current != null && current.incarnation() <= gone.incarnation()
                                && !gone.address().equals(config.address())) {
                            removeLive(gone.address());
                            LOG.log(System.Logger.Level.INFO, config.address() + ": " + gone + " left the ring");
                        }
                        if (!gone.address().equals(config.address())) {
                            left.put(gone.address(), new Down(gone, ticks));
                            expected.forget(gone);
                        }
                    }
                    reply = new byte[0];
                }
                case Ops.GOSSIP -> {
                    WireReader r = new WireReader(payload);
                    Listing listing = readListing(r);
                    r.end();
                    if (state == State.ACTIVE) {
                        merge(listing);
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

    private void writeListing(WireWriter w) {
        writeMembers(w, view.members());
        List<Member> notices = new ArrayList<>();
        down.all().forEach(n -> notices.add(n.member()));
        writeMembers(w, notices);
    }

    private byte[] encodeListing() {
        WireWriter w = new WireWriter();
        writeListing(w);
        return w.toBytes();
    }

    private static Listing readListing(WireReader r) {
        return new Listing(readMembers(r), readMembers(r));
    }

    // ------------------------------------------------------------------ encoding

    /** A JOIN reply: the members list (see {@link MemberCodec}). */
    public static List<Member> decodeMembers(byte[] payload) {
        return MemberCodec.decodeMembers(payload);
    }

    /** Counts of pings in flight (tests). */
    synchronized int inFlight() {
        return detector.inFlight();
    }
}

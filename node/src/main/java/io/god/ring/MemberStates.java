package io.god.ring;

import io.god.wire.WireReader;
import io.god.wire.WireWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which members are catching up (DESIGN §7: a member that (re)joined is not a read owner and not a
 * fail-over read target until it had a clean exchange of every range it holds). Spread beside
 * membership by push-pull ({@link io.god.wire.Ops#STATES}) rather than inside the member entries:
 * pings are decoded strictly by older nodes (trailing bytes are an error), while an unknown operation
 * is merely refused, so a ring of old and new nodes keeps working — old nodes just do not learn the
 * state (the catching-up node protects itself: it hands reads it should not serve to a healthy replica).
 *
 * <p>Each member owns its entry, versioned by (incarnation, seq): the newer version wins. An entry
 * that says "caught up" is spread for {@code forgetAfter} ticks and then dropped; entries of
 * "catching up" are kept until a newer version replaces them or the member is gone for
 * {@code forgetAfter} ticks.
 *
 * <p>A member of the view whose incarnation is newer than any state learnt of it is presumed catching up: a member
 * that comes back (declared dead, restarted) enters the views with its new incarnation before its own "catching up"
 * entry has spread, and in that window a read served by a replica that stayed found the value from before a
 * partition the returning members had acknowledged a newer one in (ExpectedMembershipTest, after a heal). The
 * presumption ends with the member's first state of that incarnation, or when it refuses the exchange of states
 * (a node of an older version). Thread-safe.
 */
public final class MemberStates {

    /** At most this many entries per message (the rest goes in later rounds). */
    static final int MAX_ENTRIES = 1024;

    /** One member's state: {@code catchingUp} as of version (incarnation, seq); {@code tick} = when learnt. */
    record State(String address, long incarnation, long seq, boolean catchingUp, long tick) {
        boolean newerThan(State o) {
            return incarnation != o.incarnation ? incarnation > o.incarnation : seq > o.seq;
        }
    }

    /** The newest incarnation of a member that this node learnt a state of, and the last tick it was in the view. */
    private record Heard(long incarnation, long inViewTick) {
    }

    private final String self;
    private final long forgetAfter;
    private final java.util.function.Supplier<Ring> view;
    private final Map<String, State> states = new HashMap<>();
    private final Map<String, Heard> heard = new HashMap<>();
    private long ticks;
    private long seq;
    private long incarnation;

    /** @param view this node's current view (its members' incarnations decide what is presumed) */
    public MemberStates(String self, long forgetAfterTicks, java.util.function.Supplier<Ring> view) {
        this.self = self;
        this.forgetAfter = Math.max(1, forgetAfterTicks);
        this.view = view;
    }

    /** Sets this node's own state (a new version, spread from now on). */
    public synchronized void setSelf(long incarnation, boolean catchingUp) {
        if (incarnation != this.incarnation) {
            this.incarnation = incarnation;
            seq = 0;
        }
        seq++;
        states.put(self, new State(self, incarnation, seq, catchingUp, ticks));
        recount();
    }

    /**
     * Whether any member (this node included) is known or presumed to be catching up: checked by every read, lock-free
     * while the view and the states are unchanged since the last answer.
     */
    public boolean anyCatchingUp() {
        if (anyCatchingUp) {
            return true;
        }
        Ring r = view.get();
        Presumed p = presumed;
        if (p != null && p.ring == r && p.version == version) {
            return p.any;
        }
        synchronized (this) {
            boolean any = false;
            for (Member m : r.members()) {
                any |= presumed(m);
            }
            presumed = new Presumed(r, version, any);
            return any;
        }
    }

    private volatile boolean anyCatchingUp;
    /** Bumped whenever what is known or heard changes: a cached {@link Presumed} of an older version is recomputed. */
    private volatile long version;
    private volatile Presumed presumed;

    private record Presumed(Ring ring, long version, boolean any) {
    }

    private void recount() {
        boolean any = false;
        for (State s : states.values()) {
            any |= s.catchingUp();
        }
        anyCatchingUp = any;
        version++;
    }

    /** Whether member m is known to be catching up, or presumed to be (its incarnation is newer than its last state). */
    public synchronized boolean catchingUp(Member m) {
        State s = states.get(m.address());
        return s != null && s.catchingUp() || presumed(m);
    }

    private boolean presumed(Member m) {
        if (m.address().equals(self)) {
            return false; // this node knows its own state
        }
        Heard h = heard.get(m.address());
        return h == null || h.incarnation() < m.incarnation();
    }

    /** Addresses known or presumed to be catching up (this node included when it is). */
    public synchronized Set<String> catchingUp() {
        Set<String> out = new HashSet<>();
        for (State s : states.values()) {
            if (s.catchingUp()) {
                out.add(s.address());
            }
        }
        for (Member m : view.get().members()) {
            if (presumed(m)) {
                out.add(m.address());
            }
        }
        return out;
    }

    /**
     * The member at {@code address} refused the exchange of states (a node of an older version, which never spreads
     * one): it is not presumed catching up at its current incarnation — it protects itself, as before states existed.
     */
    public synchronized void refused(String address) {
        Member m = view.get().byAddress(address);
        if (m != null) {
            learnt(address, m.incarnation());
            version++;
        }
    }

    private void learnt(String address, long incarnation) {
        Heard h = heard.get(address);
        if (h == null || h.incarnation() < incarnation) {
            heard.put(address, new Heard(incarnation, ticks));
        }
    }

    /** One round: forgets settled entries and entries of members gone from the view. */
    public synchronized void tick(java.util.function.Predicate<String> inView) {
        ticks++;
        states.values().removeIf(s -> !s.address().equals(self) && ticks - s.tick() > forgetAfter
                && (!s.catchingUp() || !inView.test(s.address())));
        heard.replaceAll((a, h) -> inView.test(a) ? new Heard(h.incarnation(), ticks) : h);
        heard.values().removeIf(h -> ticks - h.inViewTick() > forgetAfter);
        recount();
    }

    /** The message for a peer: every entry still spreading (catching up, or recently changed). */
    public synchronized byte[] encode() {
        WireWriter w = new WireWriter();
        List<State> out = new ArrayList<>();
        for (State s : states.values()) {
            if (out.size() >= MAX_ENTRIES) {
                break;
            }
            if (s.catchingUp() || ticks - s.tick() <= forgetAfter || s.address().equals(self)) {
                out.add(s);
            }
        }
        w.varint(out.size());
        for (State s : out) {
            w.string(s.address()).signed(s.incarnation()).varint(s.seq()).bool(s.catchingUp());
        }
        return w.toBytes();
    }

    /** Merges a peer's message (newer versions win; news about this node itself is ignored). */
    public synchronized void merge(byte[] payload) {
        WireReader r = new WireReader(payload);
        int n = r.count(MAX_ENTRIES);
        List<State> in = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String a = r.string();
            long inc = r.signed();
            long sq = r.varint();
            boolean c = r.bool();
            if (a == null) {
                throw new io.god.wire.WireException("member state without an address");
            }
            in.add(new State(a, inc, sq, c, ticks));
        }
        r.atEnd(); // later versions may append fields: ignored
        for (State s : in) {
            if (s.address().equals(self)) {
                continue;
            }
            State old = states.get(s.address());
            if (old == null || s.newerThan(old)) {
                states.put(s.address(), s);
            }
            learnt(s.address(), s.incarnation());
        }
        recount();
    }
}

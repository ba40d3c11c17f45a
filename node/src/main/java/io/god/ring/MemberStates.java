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
 * {@code forgetAfter} ticks. Not thread-safe on its own: callers synchronise on it.
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

    private final String self;
    private final long forgetAfter;
    private final Map<String, State> states = new HashMap<>();
    private long ticks;
    private long seq;
    private long incarnation;

    public MemberStates(String self, long forgetAfterTicks) {
        this.self = self;
        this.forgetAfter = Math.max(1, forgetAfterTicks);
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

    /** Whether any member (this node included) is known to be catching up: a lock-free check for every read. */
    public boolean anyCatchingUp() {
        return anyCatchingUp;
    }

    private volatile boolean anyCatchingUp;

    private void recount() {
        boolean any = false;
        for (State s : states.values()) {
            any |= s.catchingUp();
        }
        anyCatchingUp = any;
    }

    /** Whether the member at this address is known to be catching up. */
    public synchronized boolean catchingUp(String address) {
        State s = states.get(address);
        return s != null && s.catchingUp();
    }

    /** Addresses known to be catching up (this node included when it is). */
    public synchronized Set<String> catchingUp() {
        Set<String> out = new HashSet<>();
        for (State s : states.values()) {
            if (s.catchingUp()) {
                out.add(s.address());
            }
        }
        return out;
    }

    /** One round: forgets settled entries and entries of members gone from the view. */
    public synchronized void tick(java.util.function.Predicate<String> inView) {
        ticks++;
        states.values().removeIf(s -> !s.address().equals(self) && ticks - s.tick() > forgetAfter
                && (!s.catchingUp() || !inView.test(s.address())));
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
        }
        recount();
    }
}

package io.god.cluster;

import io.god.ring.Member;
import io.god.ring.Ring;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * Catching up after a (re)join (DESIGN §7): a node that restarted, joined, or learnt that the ring
 * declared it dead applies replication at once but serves no reads until every range it holds —
 * its own {@code [predecessor, self)} and, as a replica, the ranges of its N−1 predecessors — had a
 * clean exchange with another holder (alone in its view, it waits for one): an {@link AntiEntropy#syncWith} that pulled nothing older than
 * the start of catching up (newer writes are the ring going on, not lag). A healthy holder is
 * preferred; when every other holder is catching up too (a healed partition), any holder will do.
 *
 * <p>Bounded: every {@code warnAfter} rounds without finishing it logs a warning; {@link #rounds()}
 * is exported as a metric. It never gives up on its own: a node that cannot catch up keeps serving
 * writes and fails no read (they go to healthy replicas).
 */
public final class CatchUp {

    private static final System.Logger LOG = System.getLogger(CatchUp.class.getName());

    private final RepairContext context;
    private final AntiEntropy antiEntropy;
    private final Predicate<Member> catchingUp;
    private final int warnAfter;
    private final Set<String> clean = new HashSet<>();
    private volatile long since;
    private volatile long rounds;
    private final AtomicLong total = new AtomicLong();

    /**
     * @param catchingUp whether another member is known to be catching up (a holder to avoid)
     * @param warnAfter rounds between warnings while not done
     */
    public CatchUp(RepairContext context, AntiEntropy antiEntropy, Predicate<Member> catchingUp, int warnAfter) {
        this.context = context;
        this.antiEntropy = antiEntropy;
        this.catchingUp = catchingUp;
        this.warnAfter = Math.max(1, warnAfter);
    }

    /** Starts (again): nothing counts as clean yet; differences older than {@code now} are lag. */
    public synchronized void start(long now) {
        since = now;
        rounds = 0;
        clean.clear();
    }

    /** Rounds since the last {@link #start}. */
    public long rounds() {
        return rounds;
    }

    /** Rounds of every catch-up of this process (a counter). */
    public long totalRounds() {
        return total.get();
    }

    /** When the current catch-up started (clock ns). */
    public long since() {
        return since;
    }

    /**
     * One round: an exchange of each held range not yet clean. True when every range this node
     * holds in the current view had a clean exchange (true at once alone in the ring or with N=1).
     */
    public synchronized boolean round() {
        rounds++;
        total.incrementAndGet();
        Ring r = context.ring().get();
        Member me = r.byAddress(context.address());
        if (me == null) {
            return false;
        }
        if (context.redundancy() <= 1) {
            return true; // N=1: nobody else holds its ranges
        }
        if (r.size() <= 1) {
            return false; // alone in its view after the ring dropped it: nobody to catch up with yet
        }
        int n = Math.min(context.redundancy(), r.size());
        boolean done = true;
        Member owner = me;
        for (int i = 0; i < n; i++) {
            Member pred = r.predecessorOf(owner);
            byte[] from = pred.position();
            byte[] to = owner.position();
            String range = HexFormat.of().formatHex(from) + "-" + HexFormat.of().formatHex(to);
            if (!clean.contains(range)) {
                if (exchange(r, owner, n, from, to)) {
                    clean.add(range);
                } else {
                    done = false;
                }
            }
            owner = pred;
        }
        if (!done && rounds % warnAfter == 0) {
            LOG.log(System.Logger.Level.WARNING, context.address() + " is still catching up after " + rounds
                    + " rounds (" + clean.size() + " of " + n + " ranges clean); it serves no reads meanwhile");
        }
        return done;
    }

    /** One clean exchange of [from, to) with a holder (healthy ones first); false when none was clean. */
    private boolean exchange(Ring r, Member owner, int n, byte[] from, byte[] to) {
        List<Member> healthy = new ArrayList<>();
        List<Member> others = new ArrayList<>();
        Member h = owner;
        for (int i = 0; i < n; i++) {
            if (!h.address().equals(context.address())) {
                (catchingUp.test(h) ? others : healthy).add(h);
            }
            h = r.successorOf(h);
        }
        List<Member> order = new ArrayList<>(healthy);
        if (healthy.isEmpty()) {
            order.addAll(others); // every other holder is catching up too: merge with them
        }
        for (Member m : order) {
            try {
                AntiEntropy.Outcome o = antiEntropy.syncWith(m.address(), from, to, since);
                var events = context.events();
                if ((o.pulled() > 0 || o.pushed() > 0) && events != null && events.hasListeners()) {
                    Member me = r.byAddress(context.address());
                    events.publish(new io.god.events.Event.Sync(
                            new io.god.events.Event.NodeRef(me.position(), me.address()),
                            new io.god.events.Event.NodeRef(m.position(), m.address()), o.pulled(), o.pushed()));
                }
                if (o.olderThanStart() == 0) {
                    return true;
                }
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.DEBUG, context.address() + ": catching up with " + m.address()
                        + " failed: " + e);
            }
        }
        return false;
    }
}

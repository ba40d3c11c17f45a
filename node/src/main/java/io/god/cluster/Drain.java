package io.god.cluster;

import io.god.persist.Record;
import io.god.ring.Member;
import io.god.ring.Membership;
import io.god.ring.Ring;
import io.god.transport.TransportException;
import io.god.tree.Entry;
import io.god.tree.TreeState;
import io.god.wire.Ops;
import io.god.wire.WireWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;

/**
 * Leave/drain (DESIGN §7): a node that is asked to leave hands every range it holds to the nodes
 * that hold it once it is gone, confirms that by Merkle comparison, leaves the ring and drops its
 * data.
 *
 * <p>The node's loop calls {@link #step()} while it is LEAVING. A step is one <em>pass</em> over the
 * current ring {@code R}: for each range {@code [predecessor(m), m)} of R in which this node holds
 * entries, the range is synced ({@link AntiEntropy#syncWith}, both ways under last-write-wins) with
 * each of its replicas in {@code R} without this node, repeatedly until a comparison finds no
 * difference. Only ranges of R are compared, so a holder's data outside what this node holds is
 * never pulled in. Once one pass confirms every range, the node leaves the ring
 * ({@link Membership#leave()}: members drop it at once) and stops accepting data
 * ({@link #refuses(int)}); writes that reached it meanwhile are caught by one more confirmed pass
 * over the ring as a former member reports it, and only then is the local data dropped, without
 * tombstones. A lone member can leave only when it holds no live entry (there is nobody to hand
 * it to); {@link #cancel()} works until the node has left the ring.
 */
public final class Drain extends RepairTask {

    private static final System.Logger LOG = System.getLogger(Drain.class.getName());
    /** syncWith calls per range and holder in one pass before the pass gives up on it. */
    static final int ROUNDS_PER_RANGE = 64;
    private static final int DROP_BATCH = 10_000;

    public enum Phase {
        /** Not leaving. */
        IDLE,
        /** Still a member: handing ranges to their future holders. */
        HANDING_OFF,
        /** Told the members it left; confirming once more before dropping its data. */
        LEFT_RING,
        /** Left, data dropped. */
        DONE
    }

    /** What /admin/status shows while LEAVING or LEFT. Times in clock nanoseconds (0 = not yet). */
    public record Progress(Phase phase, long startedAt, int rangesTotal, int rangesConfirmed, int passes,
                           long handedOff, String lastError, long finishedAt) {
    }

    private final AntiEntropy antiEntropy;
    private final java.util.function.Supplier<List<Member>> leaveRing;
    private final Runnable forgetIdentity;

    private Phase phase = Phase.IDLE; // guarded by this
    private long generation; // guarded by this: bumped by start and cancel
    private volatile Progress progress = new Progress(Phase.IDLE, 0, 0, 0, 0, 0, null, 0);
    private List<Member> formerMembers = List.of();
    private Member self;

    /**
     * @param leaveRing leaves the ring and tells its members (MembershipLink#leave); returns the members told
     * @param forgetIdentity run once the data is dropped: forgets the persisted position (a restart
     *                       is a new, empty node)
     */
    public Drain(RepairContext context, AntiEntropy antiEntropy, java.util.function.Supplier<List<Member>> leaveRing,
                 Runnable forgetIdentity) {
        super(context);
        this.antiEntropy = antiEntropy;
        this.leaveRing = leaveRing;
        this.forgetIdentity = forgetIdentity;
    }

    public Progress progress() {
        return progress;
    }

    public synchronized Phase phase() {
        return phase;
    }

    /**
     * Starts draining; idempotent. Returns null when started (or already going), else why this node
     * cannot leave (a lone member holding live entries).
     */
    public synchronized String start() {
        if (phase != Phase.IDLE) {
            return null;
        }
        Ring r = ring.get();
        long live = store.state().size();
        if (r.size() <= 1 && live > 0) {
            return "this node is the last member of its ring and holds " + live
                    + " live entries: there is no node to hand them to (delete the data or add a node first)";
        }
        phase = Phase.HANDING_OFF;
        generation++;
        progress = new Progress(phase, clock.nanos(), 0, 0, 0, 0, null, 0);
        LOG.log(System.Logger.Level.INFO, address + ": leaving the ring; handing its ranges over");
        return null;
    }

    /** Stops draining before the node has left the ring; false once it has. */
    public synchronized boolean cancel() {
        if (phase == Phase.LEFT_RING || phase == Phase.DONE) {
            return false;
        }
        if (phase == Phase.HANDING_OFF) {
            LOG.log(System.Logger.Level.INFO, address + ": leave cancelled");
        }
        phase = Phase.IDLE;
        generation++;
        progress = new Progress(Phase.IDLE, 0, 0, 0, 0, 0, null, 0);
        return true;
    }

    /** Once the node has told the ring it left, it takes no more data: no peer writes, syncs or calls. */
    public boolean refuses(int op) {
        Phase p = progress.phase();
        return (p == Phase.LEFT_RING || p == Phase.DONE)
                && (op == Ops.REPLICATE || op == Ops.SYNC_EXCHANGE || op == Ops.SYNC_META || op == Ops.CALL
                || op == Ops.DATA || op == Ops.COMMAND);
    }

    /** One pass; true once the node has left and dropped its data. Never throws. */
    public boolean step() {
        long gen;
        Phase p;
        synchronized (this) {
            p = phase;
            gen = generation;
        }
        try {
            if (p == Phase.IDLE || p == Phase.DONE) {
                return p == Phase.DONE;
            }
            if (p == Phase.HANDING_OFF) {
                Ring r = ring.get();
                Member me = r.byAddress(address);
                if (me == null) {
                    return fail("this node is not in its own ring view");
                }
                if (!pass(r, me, gen)) {
                    return false;
                }
                synchronized (this) {
                    if (generation != gen || phase != Phase.HANDING_OFF) {
                        return false; // cancelled meanwhile
                    }
                    phase = Phase.LEFT_RING;
                    self = me;
                }
                update(Phase.LEFT_RING, progress.rangesTotal(), progress.rangesConfirmed(), 0, null);
                formerMembers = leaveRing.get();
            }
            Ring r = currentRing();
            if (r == null) {
                return fail("no former member answered; retrying");
            }
            if (!pass(r, self, gen)) {
                return false;
            }
            dropAll();
            forgetIdentity.run();
            synchronized (this) {
                phase = Phase.DONE;
            }
            Progress g = progress;
            progress = new Progress(Phase.DONE, g.startedAt(), g.rangesTotal(), g.rangesConfirmed(), g.passes(),
                    g.handedOff(), null, clock.nanos());
            LOG.log(System.Logger.Level.INFO, address + ": left the ring after " + g.passes() + " pass(es), "
                    + g.handedOff() + " records handed over; local data dropped");
            return true;
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, address + ": drain step failed: " + e);
            return fail(String.valueOf(e));
        }
    }

    /**
     * One pass over ring r (which contains me): every range of r this node holds entries of is synced
     * with its holders in r without me until they compare equal. True when every range confirmed.
     */
    private boolean pass(Ring r, Member me, long gen) {
        List<Member> others = new ArrayList<>(r.members());
        others.remove(me);
        TreeState s = store.state();
        if (others.isEmpty()) {
            return s.size() == 0 || fail("no other member to hand " + s.size() + " live entries to");
        }
        Ring future = new Ring(others);
        List<byte[][]> ranges = new ArrayList<>();
        for (Member m : r.members()) { // r has at least two members here
            byte[] from = r.predecessorOf(m).position();
            byte[] to = m.position();
            if (held(s, from, to) > 0) {
                ranges.add(new byte[][] {from, to});
            }
        }
        int confirmed = 0;
        String error = null;
        update(progress.phase(), ranges.size(), 0, 1, null);
        for (byte[][] range : ranges) {
            if (cancelled(gen)) {
                return false;
            }
            boolean ok = true;
            for (Member holder : future.replicas(range[0], redundancy)) {
                String e = confirm(holder.address(), range[0], range[1]);
                if (e != null) {
                    ok = false;
                    error = e;
                }
            }
            if (ok) {
                confirmed++;
            }
            update(progress.phase(), ranges.size(), confirmed, 0, error);
        }
        return confirmed == ranges.size();
    }

    /** Syncs [from, to) with peer until a comparison finds no difference; null when done, else why not. */
    private String confirm(String peer, byte[] from, byte[] to) {
        try {
            for (int i = 0; i < ROUNDS_PER_RANGE; i++) {
                AntiEntropy.Outcome o = antiEntropy.syncWith(peer, from, to);
                if (o.pushed() > 0) {
                    Progress g = progress;
                    progress = new Progress(g.phase(), g.startedAt(), g.rangesTotal(), g.rangesConfirmed(), g.passes(),
                            g.handedOff() + o.pushed(), g.lastError(), g.finishedAt());
                }
                if (o.differences() == 0) {
                    return null;
                }
            }
            return peer + " still differs after " + ROUNDS_PER_RANGE + " exchanges";
        } catch (RuntimeException e) {
            return peer + ": " + (e instanceof TransportException ? e.getMessage() : e.toString());
        }
    }

    /** The ring as a former member sees it now, plus this node (for its ranges); null if none answers. */
    private Ring currentRing() {
        byte[] req = new WireWriter().string(address).toBytes();
        for (Member m : formerMembers) {
            try {
                byte[] reply = await(transport.call(m.address(), Ops.JOIN, req, timeout));
                List<Member> members = new ArrayList<>();
                for (Member x : Membership.decodeMembers(reply)) {
                    if (!x.address().equals(address)) {
                        members.add(x);
                    }
                }
                members.add(self);
                return new Ring(members);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.DEBUG, address + ": " + m.address() + " did not give the ring: " + e);
            }
        }
        return formerMembers.isEmpty() ? new Ring(List.of(self)) : null;
    }

    /** Removes every entry locally, without tombstones (the holders confirmed they have them). */
    private void dropAll() {
        while (true) {
            List<Record> drops = new ArrayList<>();
            long ts = timestamps.next();
            for (Iterator<Entry> it = store.state().entries(null); it.hasNext() && drops.size() < DROP_BATCH; ) {
                drops.add(Record.drop(it.next().key(), ts));
            }
            if (drops.isEmpty()) {
                return;
            }
            store.applyAll(drops);
        }
    }

    private static long held(TreeState s, byte[] from, byte[] to) {
        return Arrays.compareUnsigned(from, to) < 0 ? s.realSizeBetween(from, to)
                : s.realSizeBetween(from, null) + s.realSizeBetween(null, to);
    }

    private synchronized boolean cancelled(long gen) {
        return generation != gen;
    }

    private boolean fail(String why) {
        update(progress.phase(), progress.rangesTotal(), progress.rangesConfirmed(), 0, why);
        return false;
    }

    private void update(Phase p, int total, int confirmed, int newPasses, String error) {
        Progress g = progress;
        progress = new Progress(p, g.startedAt(), total, confirmed, g.passes() + newPasses, g.handedOff(), error,
                g.finishedAt());
    }
}

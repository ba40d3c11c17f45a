package io.god.cluster;

import io.god.events.Event;
import io.god.events.EventBus;
import io.god.node.Store;
import io.god.ring.Member;
import io.god.ring.Positions;
import io.god.ring.Ring;
import io.god.transport.Awaiter;
import io.god.transport.Transport;
import io.god.transport.TransportException;
import io.god.tree.Entry;
import io.god.tree.TreeState;
import io.god.wire.Ops;
import io.god.wire.WireReader;
import io.god.wire.WireWriter;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Migration (reference §7.3, with its fixes): a node owning much more than its successor moves its
 * position back, handing the top of its range to the successor. Each {@link #pass()} (one per sync
 * loop iteration) checks: this node's neighbourhood in the ring (its predecessor, itself and its
 * successor: the two ranges a move touches) unchanged for {@link #QUIET_PASSES} passes and as many passes
 * since the last move (the quiet period); this node owns more than {@link #MIN_ENTRIES} markers and
 * more than {@link #HYSTERESIS} times its successor's count. The new position is the key of the marker
 * that leaves (mine − succ)/2 markers to the successor, truncated or right-padded with zero bytes to
 * 16 bytes, and is used only if it lies strictly inside the owned range. The caller persists and
 * announces it ({@code move}).
 */
public final class Migrator {

    public static final double HYSTERESIS = 1.5;
    public static final long MIN_ENTRIES = 10;
    public static final int QUIET_PASSES = 2;

    private final String address;
    private final Supplier<Ring> ring;
    private final Transport transport;
    private final Store store;
    private final EventBus events;
    private final Duration timeout;
    private final Predicate<byte[]> move;
    private final Awaiter awaiter;
    private String lastRing = "";
    private int quiet;
    private int sinceMove = QUIET_PASSES;
    private final AtomicLong migrations = new AtomicLong();

    public Migrator(String address, Supplier<Ring> ring, Transport transport, Store store, EventBus events,
                    Duration timeout, Predicate<byte[]> move) {
        this(address, ring, transport, store, events, timeout, move, Awaiter.BLOCKING);
    }

    /** As above, waiting for the successor's answer through {@code awaiter}. */
    public Migrator(String address, Supplier<Ring> ring, Transport transport, Store store, EventBus events,
                    Duration timeout, Predicate<byte[]> move, Awaiter awaiter) {
        this.awaiter = awaiter;
        this.address = address;
        this.ring = ring;
        this.transport = transport;
        this.store = store;
        this.events = events;
        this.timeout = timeout;
        this.move = move;
    }

    public long migrations() {
        return migrations.get();
    }

    /** Markers (values, tombstones, sub-tree entries) this node owns in ring r. */
    public static long owned(TreeState s, Ring r, String address) {
        Member me = r.byAddress(address);
        if (me == null || r.size() <= 1) {
            return s.realSize();
        }
        byte[] from = r.predecessorOf(me).position();
        byte[] to = me.position();
        return Arrays.compareUnsigned(from, to) < 0 ? s.realSizeBetween(from, to)
                : s.realSizeBetween(from, null) + s.realSizeBetween(null, to);
    }

    /** {@link Ops#OWNED}. */
    public CompletableFuture<byte[]> serveOwned(byte[] payload) {
        return CompletableFuture.completedFuture(new WireWriter().varint(owned(store.state(), ring.get(), address))
                .toBytes());
    }

    /** One check; returns the new position when this node moved, else null. */
    public synchronized byte[] pass() {
        Ring r = ring.get();
        sinceMove++;
        Member me = r.byAddress(address);
        // only the neighbourhood must be calm: on a 1 000-node ring some member moves or restarts
        // every few passes, and waiting for the whole ring to be quiet serialised every migration
        String around = me == null || r.size() < 2 ? r.hash()
                : r.predecessorOf(me) + " " + me + " " + r.successorOf(me);
        if (!around.equals(lastRing)) {
            lastRing = around;
            quiet = 0;
            return null;
        }
        quiet++;
        if (me == null || r.size() < 2 || quiet < QUIET_PASSES || sinceMove < QUIET_PASSES) {
            return null;
        }
        Member succ = r.successorOf(me);
        long succSize;
        try {
            byte[] reply = awaiter.await(transport.call(succ.address(), Ops.OWNED, new byte[0], timeout),
                    Awaiter.limitFor(timeout));
            succSize = new WireReader(reply).varint();
        } catch (RuntimeException e) {
            return null;
        }
        TreeState s = store.state();
        long mySize = owned(s, r, address);
        byte[] wanted = wantedPosition(s, r, me, mySize, succSize);
        if (wanted == null || !move.test(wanted)) {
            return null;
        }
        sinceMove = 0;
        migrations.incrementAndGet();
        if (events != null && events.hasListeners()) {
            events.publish(new Event.Migrate(new Event.NodeRef(me.position(), address), me.position(), wanted));
        }
        return wanted;
    }

    /** The position to move to, or null when no move is due or none fits. */
    static byte[] wantedPosition(TreeState s, Ring r, Member me, long mySize, long succSize) {
        if (mySize <= MIN_ENTRIES || mySize <= succSize * HYSTERESIS) {
            return null;
        }
        long keep = mySize - (mySize - succSize) / 2;
        byte[] pred = r.predecessorOf(me).position();
        byte[] pos = me.position();
        long index;
        if (Arrays.compareUnsigned(pred, pos) < 0) {
            index = s.realSizeBetween(null, pred) + keep;
        } else {
            long top = s.realSizeBetween(pred, null);
            index = keep < top ? s.realSizeBetween(null, pred) + keep : keep - top;
        }
        Entry e = s.markerAt(index);
        if (e == null) {
            return null;
        }
        byte[] wanted = Arrays.copyOf(e.key(), Positions.SIZE);
        if (Arrays.equals(wanted, pred) || Arrays.equals(wanted, pos)
                || !Nibbles.inRange(wanted, pred, pos) || r.at(wanted) != null) {
            return null;
        }
        return wanted;
    }

    static String describe(TransportException e) {
        return e.getMessage();
    }
}

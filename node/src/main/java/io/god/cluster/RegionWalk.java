package io.god.cluster;

import io.god.cluster.Nibbles.Place;
import io.god.tree.Fingerprint;
import io.god.tree.HashVersion;
import io.god.tree.TreeState;
import io.god.wire.Ops;
import io.god.wire.WireException;
import io.god.wire.WireReader;
import io.god.wire.WireWriter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * One pass of the Merkle walk that finds where a local tree and a peer's differ inside a key range
 * ({@link Ops#SYNC_FINGERPRINTS}), breadth first, many prefixes per round trip, asking only about
 * prefixes known to differ (or straddling a range boundary). Child regions whose local side holds at
 * most one entry are not asked about: they go straight to the exchange, which compares versions
 * entry by entry, so the last and most numerous level of the walk costs nothing.
 *
 * <p>Regions inside the range are compared by one byte per child hash (see {@link Probe} for why that
 * suffices there). A node straddling a range boundary is compared by wide (63-bit) hashes, asked in
 * requests of their own ({@link #WIDE}): nothing above it shows whether its part of the range differs,
 * so a short-hash collision there would end the walk with "no difference" — a whole subtree left
 * unrepaired and a catch-up reported clean. Such nodes are at most two per level, so asking them apart
 * costs a few small round trips and no bytes to speak of.
 *
 * <p>The request's first byte is the lane (0–15) plus {@link #STAMPED} when the walk compares stamped
 * hashes ({@link HashVersion#STAMPED}) plus {@link #WIDE} for wide probes. A node from before hash
 * versions refuses any byte above 15 and one from before wide probes any above 31, so a peer is asked
 * that way only when it announced the version, or wide probes, in SYNC_META; a peer without wide probes
 * is walked short everywhere, as before.
 */
final class RegionWalk {

    /** Flag in the lane byte: answer with stamped hashes. */
    static final int STAMPED = 0x10;
    /** Flag in the lane byte: answer with wide probes (partial nodes). */
    static final int WIDE = 0x20;
    /** Prefixes asked per round trip. */
    static final int BATCH = 1024;
    /** Lanes tried on a region that differs although none of its child bytes does. */
    private static final int ATTEMPTS = 4;
    /** A region that still shows no differing part after every attempt is exchanged whole up to this size. */
    private static final int SMALL = 64;

    /** A prefix region of {@code nibbles} nibbles; {@code exact}: only the key of exactly those nibbles. */
    record Region(byte[] prefix, int nibbles, boolean exact) {
    }

    private record Item(byte[] prefix, int nibbles, Place place, int attempt) {
    }

    /** Regions to ask about: short probes ({@code pending}) and, when the peer has them, wide ones ({@code edges}). */
    private final ArrayDeque<Item> pending = new ArrayDeque<>();
    private final ArrayDeque<Item> edges = new ArrayDeque<>();

    private final TreeState local;
    private final byte[] parent;
    private final byte[] from;
    private final byte[] to;
    private final int lane;
    private final HashVersion version;
    private final boolean wide;
    private final int limit;
    private final Function<byte[], byte[]> remote;
    final List<Region> regions = new ArrayList<>();
    /** Some region known to differ could not be narrowed down in this pass. */
    boolean missed;
    long asked;

    /**
     * @param parent key of the sub tree walked, null for the top tree
     * @param wide whether the peer answers wide probes ({@link #WIDE}); if not, partial nodes are compared short
     * @param remote sends a {@link Ops#SYNC_FINGERPRINTS} payload to the peer and returns its reply
     */
    RegionWalk(TreeState local, byte[] parent, byte[] from, byte[] to, int lane, HashVersion version, boolean wide,
               int limit, Function<byte[], byte[]> remote) {
        this.local = local;
        this.parent = parent;
        this.from = from;
        this.to = to;
        this.lane = lane;
        this.version = version;
        this.wide = wide;
        this.limit = limit;
        this.remote = remote;
    }

    RegionWalk run() {
        byte[] root = new byte[0];
        queue(new Item(root, 0, Nibbles.place(root, 0, from, to), 0));
        while (!(edges.isEmpty() && pending.isEmpty()) && regions.size() < limit) {
            boolean wideBatch = !edges.isEmpty();
            ArrayDeque<Item> source = wideBatch ? edges : pending;
            int attempt = source.peek().attempt(); // edges are always attempt 0
            List<Item> batch = new ArrayList<>();
            while (!source.isEmpty() && batch.size() < BATCH && source.peek().attempt() == attempt) {
                batch.add(source.poll());
            }
            int l = (lane + attempt) & 15;
            List<Probe> theirs = ask(batch, l, wideBatch);
            for (int i = 0; i < batch.size() && regions.size() < limit; i++) {
                Item it = batch.get(i);
                Probe mine = Probe.of(local.fingerprint(it.prefix(), it.nibbles(), version), l, wideBatch);
                if (it.place() == Place.INSIDE) {
                    inside(it, mine, theirs.get(i));
                } else {
                    partial(it, mine, theirs.get(i), wideBatch);
                }
            }
        }
        if (!(edges.isEmpty() && pending.isEmpty())) {
            missed = true; // stopped by the limit
        }
        return this;
    }

    /** A partial node goes to the wide requests when the peer has them; everything else is walked short. */
    private void queue(Item it) {
        (wide && it.place() == Place.PARTIAL ? edges : pending).add(it);
    }

    private void inside(Item it, Probe a, Probe b) {
        if (a == null && b == null || it.nibbles() == 0 && a != null && b != null && a.full() == b.full()) {
            return;
        }
        if (a == null || b == null) {
            regions.add(new Region(it.prefix(), it.nibbles(), false));
            return;
        }
        int d = Math.min(a.depth(), b.depth());
        if (Nibbles.mismatch(a.key(), b.key(), d) < d) {
            regions.add(new Region(it.prefix(), it.nibbles(), false));
            return;
        }
        byte[] common = a.depth() == d ? a.key() : b.key();
        boolean any = false;
        if (Probe.differ(Probe.entryAt(a, d), Probe.entryAt(b, d), false)) {
            regions.add(new Region(Arrays.copyOf(common, d >> 1), d, true));
            any = true;
        }
        for (int nibble = 0; nibble < 16; nibble++) {
            if (Probe.differ(Probe.childAt(a, d, nibble), Probe.childAt(b, d, nibble), b.narrow())) {
                descend(Nibbles.withNibble(common, d, nibble), d + 1);
                any = true;
            }
        }
        if (!any) {
            // the region differs but no child byte shows it: ask again with another byte
            if (it.attempt() + 1 < ATTEMPTS) {
                queue(new Item(it.prefix(), it.nibbles(), it.place(), it.attempt() + 1));
            } else if (a.depth() > d || local.fingerprint(it.prefix(), it.nibbles()).entries() <= SMALL) {
                regions.add(new Region(it.prefix(), it.nibbles(), false));
            } else {
                missed = true;
            }
        }
    }

    /**
     * Straddles a range boundary: expand one nibble without comparing this node's own hash (it covers keys
     * outside the range). {@code wideProbes}: the values compared are wide, so a partial child with equal
     * values holds nothing to repair and is not walked further.
     */
    private void partial(Item it, Probe a, Probe b, boolean wideProbes) {
        int n = it.nibbles();
        if ((n & 1) == 0 && Probe.differ(Probe.entryAt(a, n), Probe.entryAt(b, n), false)) {
            byte[] key = Arrays.copyOf(it.prefix(), n >> 1);
            if (Nibbles.inRange(key, from, to)) {
                regions.add(new Region(key, n, true));
            }
        }
        for (int nibble = 0; nibble < 16; nibble++) {
            long ca = Probe.childAt(a, n, nibble);
            long cb = Probe.childAt(b, n, nibble);
            if (ca == Probe.NONE && cb == Probe.NONE) {
                continue;
            }
            byte[] child = Nibbles.withNibble(it.prefix(), n, nibble);
            Place cp = Nibbles.place(child, n + 1, from, to);
            boolean differs = Probe.differ(ca, cb, b != null && b.narrow());
            if (cp == Place.PARTIAL && (differs || !wideProbes)) {
                queue(new Item(child, n + 1, cp, 0));
            } else if (cp == Place.INSIDE && differs) {
                descend(child, n + 1);
            }
        }
    }

    /** A differing child region: exchanged directly when this side holds at most one entry there. */
    private void descend(byte[] prefix, int nibbles) {
        Fingerprint f = local.fingerprint(prefix, nibbles);
        if (f == null || f.entries() <= 1) {
            regions.add(new Region(prefix, nibbles, false));
        } else {
            pending.add(new Item(prefix, nibbles, Place.INSIDE, 0));
        }
    }

    private List<Probe> ask(List<Item> batch, int l, boolean wideProbes) {
        WireWriter w = new WireWriter().u8(l | (version == HashVersion.STAMPED ? STAMPED : 0) | (wideProbes ? WIDE : 0));
        writeParent(w, parent);
        w.varint(batch.size());
        byte[] prev = new byte[0];
        int prevNibbles = 0;
        for (Item it : batch) {
            Nibbles.writePrefix(w, prev, prevNibbles, it.prefix(), it.nibbles());
            prev = it.prefix();
            prevNibbles = it.nibbles();
        }
        asked += batch.size();
        WireReader r = new WireReader(remote.apply(w.toBytes()));
        int n = r.count(batch.size());
        if (n != batch.size()) {
            throw new WireException("asked " + batch.size() + " fingerprints, got " + n);
        }
        List<Probe> out = new ArrayList<>(n);
        for (Item it : batch) {
            out.add(Probe.decode(r, it.prefix(), it.nibbles(), wideProbes));
        }
        r.end();
        return out;
    }

    /** Serves {@link Ops#SYNC_FINGERPRINTS}: lane (hash version, wide), parent, count, prefixes → probes. */
    static byte[] serve(TreeState state, byte[] payload) {
        WireReader r = new WireReader(payload);
        int b = r.u8();
        if (b > (WIDE | STAMPED | 15)) {
            throw new WireException("lane byte " + b + " is not a lane 0..15, optionally with the flags stamped "
                    + STAMPED + " and wide " + WIDE);
        }
        int l = b & 15;
        boolean wide = (b & WIDE) != 0;
        HashVersion version = (b & STAMPED) != 0 ? HashVersion.STAMPED : HashVersion.CONTENT;
        byte[] parent = readParent(r);
        TreeState s = parent == null ? state : state.sub(parent);
        int n = r.count(1_000_000);
        WireWriter w = new WireWriter().varint(n);
        byte[] prev = new byte[0];
        int[] nibbles = {0};
        for (int i = 0; i < n; i++) {
            byte[] prefix = Nibbles.readPrefix(r, prev, nibbles[0], nibbles);
            Probe.encode(w, s == null ? null : s.fingerprint(prefix, nibbles[0], version), prefix, nibbles[0], l, wide);
            prev = prefix;
        }
        r.end();
        return w.toBytes();
    }

    static void writeParent(WireWriter w, byte[] parent) {
        w.bool(parent != null);
        if (parent != null) {
            w.bytes(parent);
        }
    }

    static byte[] readParent(WireReader r) {
        return r.bool() ? r.bytes() : null;
    }
}

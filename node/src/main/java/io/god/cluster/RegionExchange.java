package io.god.cluster;

import io.god.cluster.RegionWalk.Region;
import io.god.persist.Record;
import io.god.tree.Entry;
import io.god.tree.HashVersion;
import io.god.tree.TreeState;
import io.god.wire.Ops;
import io.god.wire.WireException;
import io.god.wire.WireReader;
import io.god.wire.WireWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.ToIntFunction;

/**
 * The exchange of the regions a {@link RegionWalk} found ({@link Ops#SYNC_EXCHANGE}), versions first:
 * the requester sends a {@link VersionSummary} of each of its entries in those regions; the peer
 * answers with the records that are newer on its side and with what it wants of the requester's
 * (newer values, sub trees it lacks, newer sub-tree markers, sub trees to walk because their hashes
 * differ); the requester then pushes what was wanted. Only the newer side of a key sends a value, and
 * a sub tree present on both sides is compared by its own Merkle walk, never sent whole.
 *
 * <p>Every record applies under last-write-wins, so an exchange is idempotent and order-independent.
 * Summaries and records per exchange are bounded; an exchange cut short says so ({@link #complete}).
 */
final class RegionExchange {

    private static final int SUMMARIES = 0;
    private static final int PUSH = 1;
    /** Summaries whose sub-tree hashes are stamped ({@link HashVersion#STAMPED}); only sent to a peer that has it. */
    private static final int SUMMARIES_STAMPED = 2;
    static final int WANT_VALUE = 1;
    static final int WANT_SUB = 2;
    static final int WANT_CLEAR = 4;
    static final int WANT_CONFIGURATION = 8;
    static final int WALK_SUB = 16;
    /** Kinds of a value record sent for a key the requester summarised (the key itself is not sent). */
    private static final int VALUE = 1;
    private static final int TOMBSTONE = 2;

    private final TreeState local;
    private final byte[] parent;
    private final byte[] from;
    private final byte[] to;
    private final long cutoff;
    private final int salt;
    private final int max;
    private final HashVersion version;
    private final List<Entry> summarised = new ArrayList<>();
    /** Records the peer sent (newer there). */
    final List<Record> received = new ArrayList<>();
    /** Records the peer wants (newer here). */
    final List<Record> wanted = new ArrayList<>();
    /** Keys whose sub trees differ on both sides: each needs its own walk. */
    final List<byte[]> subWalks = new ArrayList<>();
    /** False when the peer or this side stopped at the bound: more differences may remain. */
    boolean complete = true;

    RegionExchange(TreeState local, byte[] parent, byte[] from, byte[] to, long cutoff, int salt, int max,
                   HashVersion version) {
        this.local = local;
        this.parent = parent;
        this.from = from;
        this.to = to;
        this.cutoff = cutoff;
        this.salt = salt;
        this.max = max;
        this.version = version;
    }

    /** The summaries request for these regions (as many as fit in the bound). */
    byte[] request(List<Region> regions) {
        WireWriter w = new WireWriter().u8(version == HashVersion.STAMPED ? SUMMARIES_STAMPED : SUMMARIES);
        RegionWalk.writeParent(w, parent);
        writeRange(w, from, to);
        w.varint(salt & 0xffffffffL).varint(max);
        List<Region> sent = new ArrayList<>();
        List<List<VersionSummary>> summaries = new ArrayList<>();
        for (Region d : regions) {
            if (summarised.size() >= max) {
                complete = false;
                break;
            }
            List<VersionSummary> s = new ArrayList<>();
            for (Entry e : entries(local, d, from, to)) {
                VersionSummary v = VersionSummary.of(e, cutoff, salt, version);
                if (v != null) {
                    s.add(v);
                    summarised.add(e);
                }
            }
            sent.add(d);
            summaries.add(s);
        }
        w.varint(sent.size());
        byte[] prev = new byte[0];
        int prevNibbles = 0;
        for (int i = 0; i < sent.size(); i++) {
            Region d = sent.get(i);
            Nibbles.writePrefix(w, prev, prevNibbles, d.prefix(), d.nibbles());
            prev = d.prefix();
            prevNibbles = d.nibbles();
            w.varint((long) summaries.get(i).size() << 1 | (d.exact() ? 1 : 0));
            for (VersionSummary v : summaries.get(i)) {
                v.write(w);
            }
        }
        return w.toBytes();
    }

    /** Reads the peer's answer: fills {@link #received}, {@link #wanted} and {@link #subWalks}. */
    void answer(byte[] reply) {
        WireReader r = new WireReader(reply);
        complete &= r.bool();
        int records = r.count(10_000_000);
        for (int i = 0; i < records; i++) {
            long ref = r.varint();
            if (ref == 0) {
                received.add(AntiEntropy.decodeRecord(r.bytes()));
                continue;
            }
            if (ref > summarised.size()) {
                throw new WireException("record for summary " + ref + " of " + summarised.size());
            }
            byte[] key = summarised.get((int) ref - 1).key();
            int kind = r.u8();
            long ts = Probe.bytesLong(r.raw(8));
            if (ts <= 0 || kind != VALUE && kind != TOMBSTONE) {
                throw new WireException("bad value record: kind " + kind + ", timestamp " + ts);
            }
            if (kind == VALUE) {
                byte[] value = r.bytes();
                received.add(parent == null ? Record.put(key, value, ts) : Record.subPut(parent, key, value, ts));
            } else {
                received.add(parent == null ? Record.delete(key, ts) : Record.subDelete(parent, key, ts));
            }
        }
        int n = r.count(summarised.size());
        for (int i = 0; i < n; i++) {
            int index = (int) r.varint();
            int what = r.u8();
            if (index >= summarised.size()) {
                throw new WireException("want " + index + " of " + summarised.size() + " summaries");
            }
            Entry e = summarised.get(index);
            if ((what & WANT_VALUE) != 0) {
                EntryRecords.value(parent, e, cutoff, wanted);
            }
            if (e.sub() != null && parent == null) {
                if ((what & WANT_SUB) != 0) {
                    EntryRecords.wholeSub(e, cutoff, wanted);
                }
                if ((what & WANT_CLEAR) != 0) {
                    EntryRecords.clear(e, cutoff, wanted);
                }
                if ((what & WANT_CONFIGURATION) != 0) {
                    EntryRecords.configuration(e, wanted);
                }
                if ((what & WALK_SUB) != 0) {
                    subWalks.add(e.key());
                }
            }
        }
        r.end();
    }

    /** The request that pushes {@link #wanted} to the peer. */
    byte[] push() {
        WireWriter w = new WireWriter().u8(PUSH);
        AntiEntropy.encodeRecords(w, wanted);
        return w.toBytes();
    }

    /** How many pushed records were news to the peer: all, when an older peer says nothing. */
    int taken(byte[] pushReply) {
        if (pushReply.length == 0) {
            return wanted.size();
        }
        WireReader r = new WireReader(pushReply);
        int taken = r.count(wanted.size());
        r.end();
        return taken;
    }

    // ------------------------------------------------------------------ serving

    /**
     * Serves {@link Ops#SYNC_EXCHANGE}; pushed records go to {@code apply}, which answers how many of
     * them were news here — the reply to a push (an older node replies nothing: all were).
     */
    static byte[] serve(TreeState state, byte[] payload, long cutoff, ToIntFunction<List<Record>> apply) {
        WireReader r = new WireReader(payload);
        int mode = r.u8();
        if (mode == PUSH) {
            List<Record> records = AntiEntropy.decodeRecords(r);
            r.end();
            int news = records.isEmpty() ? 0 : apply.applyAsInt(records);
            return new WireWriter().varint(news).toBytes();
        }
        if (mode != SUMMARIES && mode != SUMMARIES_STAMPED) {
            throw new WireException("unknown exchange mode " + mode);
        }
        HashVersion version = mode == SUMMARIES_STAMPED ? HashVersion.STAMPED : HashVersion.CONTENT;
        byte[] parent = RegionWalk.readParent(r);
        byte[][] range = readRange(r);
        int salt = (int) r.varint();
        int max = r.count(10_000_000);
        TreeState s = parent == null ? state : state.sub(parent);
        int regions = r.count(10_000_000);
        Reply out = new Reply();
        WireWriter wants = new WireWriter();
        int wantCount = 0;
        boolean complete = true;
        int base = 0;
        byte[] prev = new byte[0];
        int[] nibbles = {0};
        for (int i = 0; i < regions; i++) {
            byte[] prefix = Nibbles.readPrefix(r, prev, nibbles[0], nibbles);
            prev = prefix;
            long header = r.varint();
            Region d = new Region(prefix, nibbles[0], (header & 1) == 1);
            if (header >>> 1 > 10_000_000) {
                throw new WireException("too many summaries: " + (header >>> 1));
            }
            int n = (int) (header >>> 1);
            VersionSummary[] theirs = new VersionSummary[n];
            Map<Integer, Integer> byHash = new HashMap<>();
            for (int j = 0; j < n; j++) {
                theirs[j] = VersionSummary.read(r);
                byHash.putIfAbsent(theirs[j].keyHash(), j);
            }
            if (!complete) {
                base += n;
                continue; // past the bound: read the rest, answer nothing more
            }
            boolean[] matched = new boolean[n];
            for (Entry e : s == null ? List.<Entry>of() : entries(s, d, range[0], range[1])) {
                VersionSummary mine = VersionSummary.of(e, cutoff, salt, version);
                if (mine == null) {
                    continue;
                }
                Integer j = byHash.get(mine.keyHash());
                VersionSummary other = j == null ? null : theirs[j];
                if (j != null) {
                    matched[j] = true;
                }
                int what = compare(parent, e, mine, other, j == null ? 0 : base + j + 1, cutoff, out);
                out.flush();
                if (what != 0) {
                    wants.varint(base + j).u8(what);
                    wantCount++;
                }
            }
            for (int j = 0; j < n; j++) {
                // a tombstone expired here, for a key that holds nothing here, is no news (a held peer sends it)
                int what = (theirs[j].hasValuePart() && !theirs[j].isTombstoneBefore(cutoff) ? WANT_VALUE : 0)
                        | (theirs[j].hasSub() ? WANT_SUB : 0);
                if (!matched[j] && what != 0) {
                    wants.varint(base + j).u8(what);
                    wantCount++;
                }
            }
            base += n;
            if (out.count >= max) {
                complete = false;
            }
        }
        r.end();
        WireWriter w = new WireWriter().bool(complete).varint(out.count).raw(out.w.toBytes());
        w.varint(wantCount).raw(wants.toBytes());
        return w.toBytes();
    }

    /** Adds to out what of e is newer here; returns what of the requester's version is wanted (0 = nothing). */
    private static int compare(byte[] parent, Entry e, VersionSummary mine, VersionSummary theirs, int ref, long cutoff,
                               Reply out) {
        int what = 0;
        int c = mine.compareValue(theirs);
        if (c > 0 && ref > 0) {
            out.value(ref, e);
        } else if (c > 0) {
            EntryRecords.value(parent, e, cutoff, out.records);
        }
        if (c < 0 || c == 2) {
            what |= WANT_VALUE;
        }
        if (mine.hasSub()) {
            if (theirs == null || !theirs.hasSub()) {
                EntryRecords.wholeSub(e, cutoff, out.records);
            } else {
                if (mine.subClearedAt() != theirs.subClearedAt()) {
                    if (mine.subClearedAt() > theirs.subClearedAt()) {
                        EntryRecords.clear(e, cutoff, out.records);
                    } else {
                        what |= WANT_CLEAR;
                    }
                }
                if (mine.subConfiguredAt() != theirs.subConfiguredAt()) {
                    if (mine.subConfiguredAt() > theirs.subConfiguredAt()) {
                        EntryRecords.configuration(e, out.records);
                    } else {
                        what |= WANT_CONFIGURATION;
                    }
                }
                if (mine.subHash() != theirs.subHash()) {
                    what |= WALK_SUB;
                }
            }
        } else if (theirs != null && theirs.hasSub()) {
            what |= WANT_SUB;
        }
        return what;
    }

    /**
     * The records of an answer, each as (0, record) or, for the value of a key the requester
     * summarised, as (summary index + 1, kind, timestamp, value) without the key.
     */
    private static final class Reply {
        final WireWriter w = new WireWriter();
        int count;
        /** Records in full (a scratch list filled by {@link EntryRecords}, then emptied). */
        final List<Record> records = new ArrayList<>();

        void flush() {
            for (Record rec : records) {
                w.varint(0).bytes(rec.encode());
            }
            count += records.size();
            records.clear();
        }

        void value(int ref, Entry e) {
            w.varint(ref).u8(e.hasValue() ? VALUE : TOMBSTONE).raw(Probe.longBytes(e.timestamp()));
            if (e.hasValue()) {
                w.bytes(e.value());
            }
            count++;
        }
    }

    /** The entries of s in region d that lie in [from, to). */
    static List<Entry> entries(TreeState s, Region d, byte[] from, byte[] to) {
        List<Entry> out = new ArrayList<>();
        byte[] start = d.exact() ? Arrays.copyOf(d.prefix(), d.nibbles() >> 1) : Nibbles.low(d.prefix(), d.nibbles());
        for (Iterator<Entry> it = s.entries(start); it.hasNext(); ) {
            Entry e = it.next();
            if (!Nibbles.hasPrefix(e.key(), d.prefix(), d.nibbles()) || d.exact() && e.key().length * 2 != d.nibbles()) {
                break;
            }
            if (Nibbles.inRange(e.key(), from, to)) {
                out.add(e);
            }
        }
        return out;
    }

    static void writeRange(WireWriter w, byte[] from, byte[] to) {
        w.bool(from != null);
        if (from != null) {
            w.bytes(from).bytes(to);
        }
    }

    static byte[][] readRange(WireReader r) {
        return r.bool() ? new byte[][] {r.bytes(), r.bytes()} : new byte[][] {null, null};
    }
}

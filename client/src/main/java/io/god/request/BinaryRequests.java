package io.god.request;

import io.god.request.Request.SetExpression;
import io.god.wire.Call;
import io.god.wire.WireException;
import io.god.wire.WireReader;
import io.god.wire.WireWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Predicate;

/**
 * The binary codec of every {@link Request} record ({@link io.god.wire.Ops#COMMAND}), the binary sibling of
 * the node's {@code JsonRequests}: one entry per record type below, so the command table stays {@link Command}'s (its
 * {@link Command#id} names the command on the wire, its {@link Request#type} the fields that follow).
 *
 * <pre>
 *   varint  command id     {@link Command#id}; an id this version does not know is refused (400)
 *   u8      flags          bit 0 Sync, bit 1 {@link Call#EXECUTE} (else ROUTE), bit 2 Stamped
 *   varint  hops           forwards so far (≤ 255)
 *   bytes   authorization  UTF-8, null = none
 *   zigzag  stamp          the first node's write timestamp, 0 = none ({@link Call#stamp()})
 *   ...     the record's fields, in its components' order: byte strings (null ≠ empty), UTF-8 strings,
 *           zigzag numbers, a bool before an optional number; a set expression's Op as a tree (a bool before
 *           each optional part, a varint count + 1 for a list, 0 = null), nested within god.limits.set-depth
 * </pre>
 *
 * Sync and Stamped are flags, refused on a command that has no such argument. Decoding never allocates from a
 * declared length before checking it against the bytes that follow ({@link WireReader}); a set expression's depth
 * and source count are checked against the node's limits as they are read (a 400 naming the limit):
 * the node passes them as {@link Bounds}, so the codec (shared with the client, which only encodes) knows no node
 * settings.
 */
public final class BinaryRequests {

    private BinaryRequests() {
    }

    /**
     * The bounds a decoded set expression is checked against as it is read, before anything deeper is read (no
     * stack or memory from an untrusted nesting): the node's limits, which throw the refusal naming the limit.
     */
    public interface Bounds {
        /** Refuses an Op at nesting level depth (1 = the root). */
        void checkDepth(int depth);

        /** Refuses one Op level with count sources. */
        void checkSourceCount(long count);
    }

    /** The deepest set expression any node takes (setop.SetOp's MAX_DEPTH): past it the call is malformed. */
    public static final int MAX_SET_DEPTH = 64;

    static final int SYNC = 1;
    static final int EXECUTE = 2;
    static final int STAMPED = 4;

    /** A command with where it comes from (what the node's {@code Executor.Origin} takes, less the time it arrived). */
    public record Envelope(Request request, String authorization, int hops, int mode, long stamp) {
        public Envelope {
            if (mode != Call.ROUTE && mode != Call.EXECUTE) {
                throw new IllegalArgumentException("unknown call mode " + mode);
            }
            if (hops < 0 || hops > 255 || stamp < 0) {
                throw new IllegalArgumentException("hops " + hops + " or stamp " + stamp + " out of range");
            }
        }

        public byte[] encode() {
            return BinaryRequests.encode(this);
        }
    }

    /** How one record type's fields are written and read. */
    private record Fields<R extends Request>(Class<R> type, BiConsumer<R, WireWriter> write, Read<R> read,
                                             Predicate<R> sync, boolean stamped) {
    }

    @FunctionalInterface
    private interface Read<R> {
        R read(Command c, WireReader r, boolean sync, boolean stamped, Bounds limits);
    }

    private static <R extends Request> Map.Entry<Class<?>, Fields<?>> fields(Class<R> type, BiConsumer<R, WireWriter> w,
                                                                           Read<R> r) {
        return Map.entry(type, new Fields<>(type, w, r, null, false));
    }

    private static <R extends Request> Map.Entry<Class<?>, Fields<?>> synced(Class<R> type, BiConsumer<R, WireWriter> w,
                                                                           Read<R> r, Predicate<R> sync) {
        return Map.entry(type, new Fields<>(type, w, r, sync, false));
    }

    private static <R extends Request> Map.Entry<Class<?>, Fields<?>> stamped(Class<R> type,
                                                                            BiConsumer<R, WireWriter> w, Read<R> r) {
        return Map.entry(type, new Fields<>(type, w, r, null, true));
    }

    // Java evaluates arguments left to right: each reader reads the fields in the order its writer wrote them
    private static final Map<Class<?>, Fields<?>> FIELDS = Map.ofEntries(
            synced(Request.Put.class, (q, w) -> w.bytes(q.key()).bytes(q.value()),
                    (c, r, s, t, l) -> new Request.Put(r.bytes(), r.bytes(), s), Request.Put::sync),
            synced(Request.Del.class, (q, w) -> w.bytes(q.key()),
                    (c, r, s, t, l) -> new Request.Del(r.bytes(), s), Request.Del::sync),
            synced(Request.SubPut.class, (q, w) -> w.bytes(q.key()).bytes(q.subKey()).bytes(q.value()),
                    (c, r, s, t, l) -> new Request.SubPut(r.bytes(), r.bytes(), r.bytes(), s), Request.SubPut::sync),
            synced(Request.SubDel.class, (q, w) -> w.bytes(q.key()).bytes(q.subKey()),
                    (c, r, s, t, l) -> new Request.SubDel(r.bytes(), r.bytes(), s), Request.SubDel::sync),
            synced(Request.SubClear.class, (q, w) -> w.bytes(q.key()),
                    (c, r, s, t, l) -> new Request.SubClear(r.bytes(), s), Request.SubClear::sync),
            synced(Request.SubUpdate.class, (q, w) -> w.bytes(q.key()).bytes(q.update()),
                    (c, r, s, t, l) -> new Request.SubUpdate(r.bytes(), r.bytes(), s), Request.SubUpdate::sync),
            fields(Request.Clear.class, (q, w) -> { }, (c, r, s, t, l) -> new Request.Clear()),
            fields(Request.AddConfiguration.class, (q, w) -> w.string(q.key()).string(q.value()),
                    (c, r, s, t, l) -> new Request.AddConfiguration(r.string(), r.string())),
            fields(Request.SubAddConfiguration.class, (q, w) -> w.bytes(q.treeKey()).string(q.key()).string(q.value()),
                    (c, r, s, t, l) -> new Request.SubAddConfiguration(r.bytes(), r.string(), r.string())),
            stamped(Request.Get.class, (q, w) -> w.bytes(q.key()), (c, r, s, t, l) -> new Request.Get(r.bytes(), t)),
            stamped(Request.SubGet.class, (q, w) -> w.bytes(q.key()).bytes(q.subKey()),
                    (c, r, s, t, l) -> new Request.SubGet(r.bytes(), r.bytes(), t)),
            fields(Request.Next.class, (q, w) -> w.bytes(q.key()), (c, r, s, t, l) -> new Request.Next(c, r.bytes())),
            fields(Request.KeyNext.class, (q, w) -> w.bytes(q.key()), (c, r, s, t, l) -> new Request.KeyNext(r.bytes())),
            fields(Request.SubNext.class, (q, w) -> w.bytes(q.key()).bytes(q.subKey()),
                    (c, r, s, t, l) -> new Request.SubNext(c, r.bytes(), r.bytes())),
            fields(Request.First.class, (q, w) -> w.bytes(q.key()), (c, r, s, t, l) -> new Request.First(c, r.bytes())),
            fields(Request.NextIndex.class, (q, w) -> w.bytes(q.key()).signed(q.index()),
                    (c, r, s, t, l) -> new Request.NextIndex(c, r.bytes(), r.signed())),
            fields(Request.IndexOf.class, (q, w) -> w.bytes(q.key()).bytes(q.subKey()),
                    (c, r, s, t, l) -> new Request.IndexOf(c, r.bytes(), r.bytes())),
            fields(Request.SubSize.class, (q, w) -> w.bytes(q.key()), (c, r, s, t, l) -> new Request.SubSize(r.bytes())),
            fields(Request.SubConfiguration.class, (q, w) -> w.bytes(q.key()),
                    (c, r, s, t, l) -> new Request.SubConfiguration(r.bytes())),
            fields(Request.Count.class, (q, w) -> w.bytes(q.key()).bytes(q.min()).bytes(q.max()).bool(q.minInc())
                    .bool(q.maxInc()), (c, r, s, t, l) -> new Request.Count(c, r.bytes(), r.bytes(), r.bytes(), r.bool(),
                    r.bool())),
            stamped(Request.Slice.class, (q, w) -> w.bytes(q.key()).bytes(q.min()).bytes(q.max()).bool(q.minInc())
                    .bool(q.maxInc()), (c, r, s, t, l) -> new Request.Slice(c, r.bytes(), r.bytes(), r.bytes(), r.bool(),
                    r.bool(), t)),
            fields(Request.SliceIndex.class, (q, w) -> optional(optional(w.bytes(q.key()), q.minIndex()), q.maxIndex()),
                    (c, r, s, t, l) -> new Request.SliceIndex(c, r.bytes(), optional(r), optional(r))),
            stamped(Request.SliceLen.class, (q, w) -> w.bytes(q.key()).bytes(q.from()).bool(q.fromInc()).signed(q.len()),
                    (c, r, s, t, l) -> new Request.SliceLen(c, r.bytes(), r.bytes(), r.bool(), r.signed(), t)),
            fields(Request.Size.class, (q, w) -> { }, (c, r, s, t, l) -> new Request.Size()),
            fields(Request.KeyCount.class, (q, w) -> { }, (c, r, s, t, l) -> new Request.KeyCount()),
            fields(Request.Owned.class, (q, w) -> { }, (c, r, s, t, l) -> new Request.Owned()),
            fields(Request.Configuration.class, (q, w) -> { }, (c, r, s, t, l) -> new Request.Configuration()),
            fields(Request.Describe.class, (q, w) -> { }, (c, r, s, t, l) -> new Request.Describe()),
            fields(Request.DescribeTree.class, (q, w) -> { }, (c, r, s, t, l) -> new Request.DescribeTree()),
            fields(Request.Nodes.class, (q, w) -> w.bool(q.expected()), (c, r, s, t, l) -> new Request.Nodes(r.bool())),
            fields(SetExpression.class, BinaryRequests::setExpression, (c, r, s, t, l) -> setExpression(r, l)));

    /** The fields of a record type; every type of the table has an entry (RequestRecordsTest encodes them all). */
    @SuppressWarnings("unchecked")
    private static <R extends Request> Fields<R> of(Class<R> type) {
        Fields<R> f = (Fields<R>) FIELDS.get(type);
        if (f == null) {
            throw new IllegalStateException("no binary encoding for " + type.getSimpleName());
        }
        return f;
    }

    /** The envelope and the record in the binary form. */
    public static byte[] encode(Envelope e) {
        return write(e.request(), of(e.request().getClass()), e);
    }

    private static <R extends Request> byte[] write(Request request, Fields<R> f, Envelope e) {
        R q = f.type().cast(request);
        boolean sync = f.sync() != null && f.sync().test(q);
        int flags = (sync ? SYNC : 0) | (e.mode() == Call.EXECUTE ? EXECUTE : 0) | (q.stamped() ? STAMPED : 0);
        WireWriter w = new WireWriter(64).varint(q.command().id()).u8(flags).varint(e.hops()).string(e.authorization())
                .signed(e.stamp());
        f.write().accept(q, w);
        return w.toBytes();
    }

    /** The envelope alone (the request left null): who may send it is decided before it is decoded in full. */
    public static Envelope peek(byte[] payload) {
        return read(new WireReader(payload), null);
    }

    /**
     * Decodes a call: anything truncated, trailing, out of range or unknown is a {@link WireException}; a set
     * expression past the node's depth or source limit what its {@link Bounds} throw.
     */
    public static Envelope decode(byte[] payload, Bounds limits) {
        WireReader r = new WireReader(payload);
        Envelope e = read(r, limits);
        r.end();
        return e;
    }

    private static Envelope read(WireReader r, Bounds limits) {
        long id = r.varint();
        Command c = id > Integer.MAX_VALUE || id < 0 ? null : Command.byId((int) id);
        if (c == null) {
            throw new WireException("unknown command id " + Long.toUnsignedString(id)
                    + " (a newer node's command, or not a command)");
        }
        int flags = r.u8();
        if ((flags & ~(SYNC | EXECUTE | STAMPED)) != 0) {
            throw new WireException("unknown flags " + flags);
        }
        int hops = r.count(255);
        String authorization = r.string();
        long stamp = r.signed();
        if (stamp < 0) {
            throw new WireException("stamp must not be negative");
        }
        int mode = (flags & EXECUTE) != 0 ? Call.EXECUTE : Call.ROUTE;
        if (limits == null) {
            return new Envelope(null, authorization, hops, mode, stamp);
        }
        Fields<?> f = of(c.requestType());
        if ((flags & SYNC) != 0 && f.sync() == null) {
            throw new WireException("Sync on " + c.method() + ", which takes none");
        }
        if ((flags & STAMPED) != 0 && !f.stamped()) {
            throw new WireException("Stamped on " + c.method() + ", which takes none");
        }
        Request q = f.read().read(c, r, (flags & SYNC) != 0, (flags & STAMPED) != 0, limits);
        return new Envelope(q, authorization, hops, mode, stamp);
    }

    private static WireWriter optional(WireWriter w, Long n) {
        w.bool(n != null);
        return n == null ? w : w.signed(n);
    }

    private static Long optional(WireReader r) {
        return r.bool() ? r.signed() : null;
    }

    // ------------------------------------------------------------------ set expressions

    private static void setExpression(SetExpression q, WireWriter w) {
        w.bool(q.op() != null);
        if (q.op() != null) {
            op(q.op(), w);
        }
        w.string(q.code()).bytes(q.min()).bytes(q.max()).bool(q.minInc()).bool(q.maxInc()).signed(q.len())
                .bytes(q.dest()).bool(q.exactNumbers());
    }

    private static SetExpression setExpression(WireReader r, Bounds limits) {
        SetExpression.Op op = r.bool() ? op(r, 1, limits) : null;
        return new SetExpression(op, r.string(), r.bytes(), r.bytes(), r.bool(), r.bool(), r.signed(), r.bytes(),
                r.bool());
    }

    private static void op(SetExpression.Op op, WireWriter w) {
        w.signed(op.type()).signed(op.merge());
        if (op.sources() == null) {
            w.varint(0);
            return;
        }
        w.varint(op.sources().size() + 1L);
        for (SetExpression.Source s : op.sources()) {
            w.bool(s != null);
            if (s == null) {
                continue;
            }
            w.bytes(s.key()).bool(s.op() != null);
            if (s.op() != null) {
                op(s.op(), w);
            }
            w.bool(s.weight() != null);
            if (s.weight() != null) {
                w.signed(Double.doubleToRawLongBits(s.weight()));
            }
        }
    }

    /** An Op at nesting level depth (1 = the root), checked against the limits before it is built. */
    private static SetExpression.Op op(WireReader r, int depth, Bounds limits) {
        limits.checkDepth(depth); // before reading deeper: no stack from an untrusted nesting
        if (depth > MAX_SET_DEPTH) {
            throw new WireException("SetOp nested deeper than " + MAX_SET_DEPTH + " levels");
        }
        int type = (int) r.signed();
        int merge = (int) r.signed();
        int n = r.count(Math.max(0, r.remaining()) + 1); // each source takes a byte at least
        if (n == 0) {
            return new SetExpression.Op(null, type, merge);
        }
        limits.checkSourceCount(n - 1L);
        List<SetExpression.Source> sources = new ArrayList<>(n - 1);
        for (int i = 1; i < n; i++) {
            if (!r.bool()) {
                sources.add(null);
                continue;
            }
            byte[] key = r.bytes();
            SetExpression.Op nested = r.bool() ? op(r, depth + 1, limits) : null;
            Double weight = r.bool() ? Double.longBitsToDouble(r.signed()) : null;
            sources.add(new SetExpression.Source(key, nested, weight));
        }
        return new SetExpression.Op(sources, type, merge);
    }
}

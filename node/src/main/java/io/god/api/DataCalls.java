package io.god.api;

import io.god.command.Admission;
import io.god.command.Command;
import io.god.command.CommandError;
import io.god.cluster.Cluster;
import io.god.node.GodNode;
import io.god.persist.Record;
import io.god.tree.Item;
import io.god.tree.TreeState;
import io.god.wire.Call;
import io.god.wire.DataCall;
import io.god.wire.Ops;
import io.god.wire.WireException;
import java.util.List;

/**
 * The binary data calls ({@link Ops#DATA}: Get, Put, Del, SubGet, SubPut, SubDel as {@link DataCall}s)
 * with the JSON contract's semantics ({@link JsonRpc}): token for writes, size limits, 503 while
 * joining or after leaving, routing to the owner with fail-over ({@link Cluster#forward}), the write
 * stamp chosen by the first node ({@link io.god.node.Timestamps#forWrite}), replication, Sync. Errors
 * are {@link DataCall.Reply} statuses with a message (a malformed call is a 400), and change nothing.
 *
 * <p>Called on the network event loop first ({@code mayBlock} false): it answers there what needs no
 * waiting — reads this node executes (a tree version is immutable), asynchronous writes to an
 * in-memory store, and errors — and hands the rest (forwarding, Sync writes, durable stores whose log
 * may wait for the disk) back to the handler pool.
 */
final class DataCalls implements GodNode.DataHandler {

    private static final System.Logger LOG = System.getLogger(DataCalls.class.getName());
    private static final byte[] EMPTY = new byte[0];

    private final GodNode node;
    private final Admission admission;
    private final JsonRpc.Observer observer;

    DataCalls(GodNode node, Admission admission, JsonRpc.Observer observer) {
        this.node = node;
        this.admission = admission;
        this.observer = observer;
    }

    @Override
    public byte[] handle(byte[] payload, boolean mayBlock) {
        long start = System.nanoTime();
        DataCall c;
        try {
            c = DataCall.decode(payload);
        } catch (WireException e) {
            return done("unknown", DataCall.Reply.error(400, "malformed DHash.Data call: " + e.getMessage()), start);
        }
        DataCall.Reply r;
        try {
            r = handle(c, mayBlock, start);
        } catch (CommandError e) {
            r = DataCall.Reply.error(e.status(), e.getMessage());
        } catch (io.god.limits.LimitExceededException e) {
            observer.limitRefused(e.limit());
            r = DataCall.Reply.error(400, e.getMessage());
        } catch (io.god.persist.PersistenceException e) {
            r = DataCall.Reply.error(500, UnloggedWrites.NODE.refuse("DHash." + c.method() + " (binary)", e));
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.ERROR, "DHash." + c.method() + " (binary) failed", e);
            r = DataCall.Reply.error(500, "internal error: " + e);
        }
        return r == null ? null : done(c.method(), r, start);
    }

    private byte[] done(String method, DataCall.Reply r, long start) {
        observer.completed(method, r.status(), System.nanoTime() - start);
        return r.encode();
    }

    /** The reply, or null when it needs the handler pool and {@code mayBlock} is false. */
    private DataCall.Reply handle(DataCall c, boolean mayBlock, long since) {
        checkLimits(c);
        if (c.hops() == 0 && c.stamp() != 0) {
            // time belongs to the ring (issue 23): the entry node stamps; only a forwarding peer (hops > 0)
            // passes its stamp on, and even that moves this node's clock at most by god.time.max-skew
            throw new CommandError(400, "stamp: a client may not choose the timestamp of DHash." + c.method()
                    + " (the entry node stamps every write); send stamp 0");
        }
        Command command = Command.named(c.method());
        admission.authorize(command, c.authorization());
        admission.admit(command);
        Cluster cluster = node.cluster();
        boolean read = !c.writes();
        boolean local = cluster == null || (c.mode() == Call.EXECUTE
                ? !(read && c.hops() < Cluster.MAX_HOPS && cluster.readBelongsElsewhere(c.key())) // catching up, older view
                : cluster.executesHere(c.key(), c.hops(), read));
        if (!mayBlock && (!local || c.writes() && (c.sync() || node.store().durable())
                || read && cluster != null && !cluster.servesReads())) {
            return null;
        }
        long stamp = admission.stamp(command, c.stamp(), c.hops(), since);
        if (!local) {
            Cluster.Forwarded f = cluster.forward(c.key(), c.hops(), Ops.DATA, mode -> c.forwarded(mode, stamp).encode(),
                    read);
            if (f != null) {
                return f.reply() != null ? DataCall.Reply.decode(f.reply()) : DataCall.Reply.error(f.status(), f.message());
            }
        }
        if (read && cluster != null && !cluster.servesReads() && c.hops() >= Cluster.MAX_HOPS
                && !cluster.ownCopyComplete()) {
            return DataCall.Reply.error(503, AWAITS_REPAIR); // e.g. another node's merged read: not from this copy
        }
        if (read && cluster != null && !cluster.servesReads() && c.hops() < Cluster.MAX_HOPS) {
            // every replica catches up: the newest of a majority of them, else no answer rather than a stale one
            if (!cluster.mergeRead(c.key(), c.kind() == DataCall.SUB_GET ? c.subKey() : null)) {
                return DataCall.Reply.error(503, MERGE_UNAVAILABLE);
            }
        }
        return switch (c.kind()) {
            case DataCall.GET -> found(node.store().state().get(c.key()));
            case DataCall.SUB_GET -> found(node.store().state().sub(c.key()).get(c.subKey()));
            case DataCall.PUT -> write(Record.put(c.key(), c.value(), stamp), c.sync());
            case DataCall.DEL -> write(Record.delete(c.key(), stamp), c.sync());
            case DataCall.SUB_PUT -> write(Record.subPut(c.key(), c.subKey(), c.value(), stamp), c.sync());
            default -> write(Record.subDelete(c.key(), c.subKey(), stamp), c.sync());
        };
    }

    /** A read that only this node's copy could answer while that copy awaits repair (GodNode.awaitsRepair). */
    public static final String AWAITS_REPAIR = "this node lost records to damage and is catching up with the ring;"
            + " it answers no read from its own copy and no other replica answered; retry";

    /** A merged read (every replica catching up) that heard fewer than a majority of the replicas. */
    public static final String MERGE_UNAVAILABLE =
            "every replica of this key is catching up and too few of them answered to be sure of the newest value; retry";

    private void checkLimits(DataCall c) {
        admission.checkKey(c.key(), "Key");
        admission.checkKey(c.subKey(), "SubKey");
        admission.checkValue(c.value(), "Value");
    }

    private static DataCall.Reply found(Item i) {
        return DataCall.Reply.found(i.exists(), i.timestamp(), i.exists() ? i.value() : EMPTY);
    }

    private DataCall.Reply write(Record r, boolean sync) {
        node.store().apply(r);
        Cluster cluster = node.cluster();
        if (cluster != null) { // also when alone in the view: Sync counts over the expected membership
            try {
                cluster.replicate(List.of(r), r.key(), sync);
            } catch (Cluster.ReplicationException e) {
                return DataCall.Reply.error(503, e.getMessage());
            }
        }
        return DataCall.Reply.ok();
    }
}

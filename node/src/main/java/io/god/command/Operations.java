package io.god.command;

import io.god.cluster.Cluster;
import io.god.limits.CallBudget;
import io.god.limits.Limits;
import io.god.node.GodNode;
import io.god.node.NodeSettings;
import io.god.node.Store;
import io.god.persist.Record;
import io.god.request.Request;
import io.god.request.Result;
import io.god.setop.SetEntry;
import io.god.setop.SetExpression;
import io.god.setop.SetOp;
import io.god.setop.SetOps;
import io.god.tree.TreeState;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * What each command does on the node that executes it, once {@link Executor} has admitted, stamped and routed it:
 * writes to the store and their replication (with Sync), configuration, set expressions, the tree reads
 * ({@link TreeReads}) and the node's own views ({@link NodeViews}).
 */
final class Operations {

    private static final byte[] EMPTY = new byte[0];

    private final GodNode node;
    private final Admission admission;
    private final CommandObserver observer;
    private final SetSources sources;
    private final Limits limits;
    private final NodeViews views;
    private final SubUpdates subUpdates;

    Operations(GodNode node, Admission admission, CommandObserver observer, SetSources sources) {
        this.node = node;
        this.admission = admission;
        this.observer = observer;
        this.sources = sources;
        this.limits = node.settings().limits();
        this.views = new NodeViews(node);
        this.subUpdates = new SubUpdates(node, admission);
    }

    /** Runs a command here; {@code stamp} is the write timestamp of a STAMPED one ({@link Admission#stamp}). */
    Object run(Request request, String authorization, long stamp) {
        if (request instanceof Request.SetExpression e) {
            return setExpression(e, authorization);
        }
        if (request instanceof Request.AddConfiguration c) {
            return configure(false, null, c.key(), c.value());
        }
        if (request instanceof Request.SubAddConfiguration c) {
            return configure(true, c.treeKey(), c.key(), c.value());
        }
        TreeState s = store().state();
        return switch (request.command()) {
            case CLEAR -> {
                store().apply(Record.clear(stamp));
                yield Forwarding.NOTHING;
            }
            case SIZE -> views.owned(s, false);
            case KEY_COUNT -> views.ownedKeys(s);
            case OWNED -> views.owned(s, true);
            case DESCRIBE -> views.describe(s);
            case DESCRIBE_TREE -> NodeViews.describeTree(s);
            case NODES -> views.nodes(((Request.Nodes) request).expected());
            case CONFIGURATION -> TreeReads.configuration(s);
            default -> keyed((Request.Keyed) request, s, stamp);
        };
    }

    /** A command on a key: its Key (and SubKey) within the size limits for reads too, one rule for every codec. */
    private Object keyed(Request.Keyed request, TreeState s, long stamp) {
        byte[] key = key(request.key(), "Key");
        if (request instanceof Request.Put q) {
            return write(Record.put(key, value(q.value(), "Value"), stamp), q.sync());
        }
        if (request instanceof Request.Del q) {
            return write(Record.delete(key, stamp), q.sync());
        }
        if (request instanceof Request.SubPut q) {
            return write(Record.subPut(key, key(q.subKey(), "SubKey"), value(q.value(), "Value"), stamp), q.sync());
        }
        if (request instanceof Request.SubDel q) {
            return write(Record.subDelete(key, key(q.subKey(), "SubKey"), stamp), q.sync());
        }
        if (request instanceof Request.SubClear q) {
            return write(Record.subClear(key, stamp), q.sync());
        }
        if (request instanceof Request.SubUpdate q) { // a read-modify-write of a hash or sorted set (RESP), at the owner
            SubUpdates.Outcome o = subUpdates.run(store(), key, q.update());
            if (!o.records().isEmpty()) {
                replicate(o.records(), key, q.sync());
            }
            return new Result.UpdateRes(o.n(), o.values());
        }
        admission.checkKey(TreeReads.subKey(request), "SubKey");
        return TreeReads.read(request, s, limits.budget(node.clock()));
    }

    /** Applies a write here and replicates it (Sync: confirmed by every live replica, else 503). */
    Object write(Record r, boolean sync) {
        store().apply(r);
        replicate(List.of(r), r.key(), sync);
        return Forwarding.NOTHING;
    }

    /**
     * Writes applied here together — one tree version, one log append on a durable store — each then replicated as
     * {@link #write} replicates it ({@code sync} for all). Nothing applied when the append fails.
     */
    void writeAll(List<Record> records, boolean sync) {
        if (records.isEmpty()) {
            return;
        }
        store().applyAll(records);
        for (Record r : records) {
            replicate(List.of(r), r.key(), sync);
        }
    }

    /**
     * As {@link #write} without a thread waiting for the replicas: applied here now, the future completes when a Sync
     * write is confirmed (or fails with the 503 write throws). For an in-memory store: a durable one may wait for the
     * disk when it logs the write.
     */
    java.util.concurrent.CompletableFuture<Void> writeStarted(Record r, boolean sync) {
        store().apply(r);
        Cluster cluster = node.cluster();
        if (cluster == null) {
            return java.util.concurrent.CompletableFuture.completedFuture(null);
        }
        return cluster.replicateAsync(List.of(r), r.key(), sync).thenAccept(refusal -> {
            if (refusal != null) {
                throw new CommandError(503, refusal);
            }
        });
    }

    private void replicate(List<Record> records, byte[] key, boolean sync) {
        Cluster cluster = node.cluster();
        if (cluster == null) { // also when alone in the view: Sync counts over the expected membership
            return;
        }
        try {
            cluster.replicate(records, key, sync);
        } catch (Cluster.ReplicationException e) {
            throw new CommandError(503, e.getMessage());
        }
    }

    /** The node's configuration or a sub tree's (its TreeKey checked after the configuration's key and value). */
    private Object configure(boolean ofTree, byte[] tree, String key, String value) {
        String k = key == null ? "" : key;
        String v = value == null ? "" : value;
        if (k.getBytes(StandardCharsets.UTF_8).length > node.settings().keySize()) {
            observer.limitRefused(NodeSettings.KEY_SIZE);
            throw new CommandError(400, "configuration Key exceeds god.limits.key-size");
        }
        if (v.getBytes(StandardCharsets.UTF_8).length > node.settings().valueSize()) {
            observer.limitRefused(NodeSettings.VALUE_SIZE);
            throw new CommandError(400, "configuration Value exceeds god.limits.value-size");
        }
        if (!ofTree) {
            store().configure(k, v, node.timestamps().next());
        } else {
            byte[] treeKey = key(tree, "TreeKey");
            store().subConfigure(treeKey, k, v, node.timestamps().next());
            TreeState sub = store().state().sub(treeKey);
            replicate(List.of(Record.subSetConfiguration(treeKey, sub.configuration(), sub.configurationTimestamp())),
                    treeKey, true);
        }
        return Forwarding.NOTHING;
    }

    private Object setExpression(Request.SetExpression q, String authorization) {
        if (q.dest() != null) {
            admission.authorizeWrite("SetExpression with Dest", authorization);
        }
        if (q.op() == null && q.code() == null) {
            throw new CommandError(400, "SetExpression needs Code or Op");
        }
        SetOp op = q.op() != null ? SetSources.op(q.op(), 1, limits) : limits.parse(q.code());
        int len = (int) Math.max(Math.min(q.len(), Integer.MAX_VALUE), Integer.MIN_VALUE);
        SetExpression expr = SetExpression.of(null, op, q.min(), q.max(), q.minInc(), q.maxInc(), len, q.dest());
        if (q.exactNumbers()) {
            expr = expr.withExactNumbers();
        }
        TreeState s = store().state();
        CallBudget budget = limits.budget(node.clock());
        if (q.dest() == null) {
            List<Result.SetOpResult> out = new ArrayList<>();
            SetOps.each(expr, sources.resolver(s, authorization), budget, e -> {
                budget.row(rowSize(e));
                out.add(new Result.SetOpResult(e.key(), e.values()));
            });
            return out;
        }
        byte[] dest = key(q.dest(), "Dest");
        SetOps.checkStorable(expr);
        List<SetEntry> results = SetOps.evaluate(expr, sources.resolver(s, authorization), budget,
                e -> budget.row(rowSize(e)));
        List<Record> writes = new ArrayList<>(results.size());
        for (SetEntry e : results) {
            writes.add(Record.subPut(dest, key(e.key(), "result key"), value(e.firstValue(), "result value"),
                    node.timestamps().next()));
        }
        if (!writes.isEmpty()) {
            store().applyAll(writes);
            replicate(writes, dest, false);
        }
        return null;
    }

    /** Bytes of a set-expression result: its key and every value. */
    private static long rowSize(SetEntry e) {
        long n = e.key().length;
        for (byte[] v : e.values()) {
            n += v == null ? 0 : v.length;
        }
        return n;
    }

    private byte[] key(byte[] k, String field) {
        admission.checkKey(k, field);
        return k == null ? EMPTY : k;
    }

    private byte[] value(byte[] v, String field) {
        admission.checkValue(v, field);
        return v == null ? EMPTY : v;
    }

    private Store store() {
        return node.store();
    }
}

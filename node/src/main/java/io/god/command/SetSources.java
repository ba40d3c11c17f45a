package io.god.command;

import io.god.cluster.Cluster;
import io.god.command.CommandError;
import io.god.node.GodNode;
import io.god.request.Command;
import io.god.request.Request;
import io.god.request.Result;
import io.god.setop.PagedSource;
import io.god.setop.SetExpression;
import io.god.setop.SetOp;
import io.god.setop.SetOpSource;
import io.god.setop.SourceResolver;
import io.god.setop.TreeSource;
import io.god.tree.TreeState;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Where a set expression's sources live: the JSON form of an operation tree turned into a
 * {@link SetOp} (with the contract's 400s), the resolver that opens each source here or pages it from
 * its owner ({@code SliceLen}), and the largest raw source (so an expression without Dest runs next to
 * most of its data). {@link Operations} evaluates and writes; this class only finds and reads sources.
 */
final class SetSources {

    private static final byte[] EMPTY = new byte[0];

    private final GodNode node;
    private final PeerCommands peers;

    SetSources(GodNode node, PeerCommands peers) {
        this.node = node;
        this.peers = peers;
    }

    /** A read at its key's owner, typed ({@link PeerCommands}): its result, or null when this node owns the key. */
    private Forwarding.Answer ask(Cluster cluster, Request r, String authorization, byte[] key) {
        return peers.route(cluster, r, authorization, 0, key, 0, false);
    }

    /**
     * Data locality for a set expression without Dest: the raw source with the most entries (SubSize,
     * asked of each source's owner); null when it lives here, or when the expression is invalid (the
     * local execution then reports the error).
     */
    byte[] largest(Cluster cluster, Request.SetExpression q, String authorization) {
        SetOp op;
        try {
            io.god.limits.Limits limits = node.settings().limits();
            op = q.op() != null ? op(q.op(), 1, limits) : q.code() != null ? limits.parse(q.code()) : null;
        } catch (RuntimeException e) {
            return null;
        }
        if (op == null) {
            return null;
        }
        java.util.Map<String, byte[]> keys = new java.util.LinkedHashMap<>();
        collectSources(op, keys);
        byte[] best = null;
        long bestSize = -1;
        for (byte[] k : keys.values()) {
            long size;
            io.god.ring.Member owner = cluster.ring().successor(k);
            if (owner == null || owner.address().equals(node.address())) {
                size = node.store().state().sub(k).values().size();
            } else {
                try {
                    Forwarding.Answer a = ask(cluster, new Request.SubSize(k), authorization, k);
                    size = a == null ? -1 : ((Number) peers.typedResult(new Request.SubSize(k), a.result())).longValue();
                } catch (RuntimeException e) { // not known: the source is not chosen for its size
                    size = -1;
                }
            }
            if (size > bestSize) {
                bestSize = size;
                best = k;
            }
        }
        if (best == null) {
            return null;
        }
        io.god.ring.Member owner = cluster.ring().successor(best);
        return owner == null || owner.address().equals(node.address()) ? null : best;
    }

    static void collectSources(SetOp op, java.util.Map<String, byte[]> into) {
        for (SetOpSource src : op.sources()) {
            if (src.op() != null) {
                collectSources(src.op(), into);
            } else if (src.key() != null) {
                into.putIfAbsent(java.util.HexFormat.of().formatHex(src.key()), src.key());
            }
        }
    }

    /** Sources of a set expression: local sub trees, or owned elsewhere and read a page at a time. */
    SourceResolver resolver(TreeState s, String authorization) {
        Cluster cluster = node.cluster();
        SourceResolver local = TreeSource.subTrees(s);
        if (cluster == null || cluster.alone()) {
            return local;
        }
        return name -> {
            io.god.ring.Member owner = cluster.ring().successor(name);
            if (owner == null || owner.address().equals(node.address())) {
                return local.open(name);
            }
            // a page is one SliceLen at the owner, under its god.limits.result-rows: never ask for more rows than
            // that (the limit bounds what a call returns, not how much of a source an evaluation reads)
            int pageSize = Math.min(PagedSource.DEFAULT_PAGE, node.settings().limits().resultRows());
            return new PagedSource((min, inclusive, limit) -> {
                Request ask = new Request.SliceLen(Command.SLICE_LEN, name, min, inclusive, limit, false);
                Forwarding.Answer a;
                try {
                    a = ask(cluster, ask, authorization, name);
                } catch (CommandError refused) {
                    String why = "reading set source " + io.god.setop.SetEntry.show(name) + " from its owner failed: "
                            + refused.getMessage();
                    // the owner's refusal (a limit, auth, unavailable) is the caller's answer, not an internal error
                    if (refused.status() >= 400 && refused.status() < 500 || refused.status() == 503) {
                        throw new CommandError(refused.status(), why);
                    }
                    throw new IllegalStateException(why);
                }
                if (a == null) {
                    return pageOf(local.open(name), min, inclusive, limit);
                }
                List<io.god.setop.SetEntry> page = new ArrayList<>();
                for (Object o : (List<?>) peers.typedResult(ask, a.result())) {
                    Result.ValueRes v = (Result.ValueRes) o;
                    page.add(io.god.setop.SetEntry.of(v.key() == null ? EMPTY : v.key(), v.value() == null ? EMPTY
                            : v.value()));
                }
                return page;
            }, pageSize);
        };
    }

    private static List<io.god.setop.SetEntry> pageOf(io.god.setop.SortedSource src, byte[] min, boolean inc, int limit) {
        List<io.god.setop.SetEntry> out = new ArrayList<>();
        io.god.setop.SetEntry e = min == null ? src.next() : src.skip(min, inc);
        while (e != null && out.size() < limit) {
            out.add(e);
            e = src.next();
        }
        return out;
    }

    /**
     * The operation tree of the JSON {@code Op} form, within the set-expression limits (depth checked
     * per level, the number of sources per level before its sources are built, the total at the top).
     */
    static SetOp op(Request.SetExpression.Op j, int depth, io.god.limits.Limits limits) {
        SetOp op = op(j, depth, limits, true);
        if (depth == 1) {
            limits.check(op);
        }
        return op;
    }

    private static SetOp op(Request.SetExpression.Op j, int depth, io.god.limits.Limits limits, boolean unused) {
        limits.checkDepth(depth);
        if (depth > SetOp.MAX_DEPTH) {
            throw new CommandError(400, "SetOp nested deeper than " + SetOp.MAX_DEPTH + " levels");
        }
        if (j.sources() == null || j.sources().isEmpty()) {
            throw new CommandError(400, "SetOp without sources not allowed");
        }
        limits.checkSourceCount(j.sources().size());
        List<SetOpSource> sources = new ArrayList<>(j.sources().size());
        for (Request.SetExpression.Source src : j.sources()) {
            if (src == null) {
                throw new CommandError(400, "SetOp source must not be null");
            }
            sources.add(SetOpSource.of(src.op() == null ? orEmptyIfNoOp(src) : null,
                    src.op() == null ? null : op(src.op(), depth + 1, limits, true), src.weight()));
        }
        return SetOp.of(j.type(), j.merge(), sources);
    }

    /** A source with neither Key nor SetOp names the empty key (Go's nil key). */
    private static byte[] orEmptyIfNoOp(Request.SetExpression.Source src) {
        return src.key() == null ? EMPTY : src.key();
    }
}

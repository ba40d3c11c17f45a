package io.god.api;

import io.god.command.CommandError;
import io.god.command.Executor;
import io.god.node.GodNode;
import io.god.wire.DataCall;
import io.god.wire.Ops;
import io.god.wire.SliceCall;
import io.god.wire.WireException;

/**
 * The binary data calls ({@link Ops#DATA}: Get, Put, Del, SubGet, SubPut, SubDel as {@link DataCall}s; Stamped
 * slices and their digests as {@link SliceCall}s) as a codec
 * over the node's one {@link Executor} ({@link Executor#point}): a malformed call is a 400, every refusal a
 * {@link DataCall.Reply} status with the same message the JSON contract answers. Called on the network event loop
 * first ({@code mayBlock} false); null hands the call back to the handler pool.
 */
final class DataCalls implements GodNode.DataHandler {

    private final Executor executor;

    DataCalls(Executor executor) {
        this.executor = executor;
    }

    @Override
    public byte[] handle(byte[] payload, boolean mayBlock) {
        long start = System.nanoTime();
        if (SliceCall.isSlice(payload)) {
            return slice(payload, mayBlock, start);
        }
        DataCall c;
        try {
            c = DataCall.decode(payload);
        } catch (WireException e) {
            return done("unknown", DataCall.Reply.error(400, "malformed DHash.Data call: " + e.getMessage()), start);
        }
        DataCall.Reply r;
        try {
            r = executor.point(c, mayBlock, start);
        } catch (RuntimeException e) {
            CommandError refused = executor.failure(e, "DHash." + c.method() + " (binary)");
            r = DataCall.Reply.error(refused.status(), refused.getMessage());
        }
        return r == null ? null : done(c.method(), r, start);
    }

    /**
     * A point call forwarded or replicated without this thread waiting ({@link Executor#pointStarted}); a slice, a
     * malformed call, and what must wait here (a merged read, a durable write) as {@link #handle} answers them.
     */
    @Override
    public java.util.concurrent.CompletableFuture<byte[]> started(byte[] payload, java.util.concurrent.Executor mayWait) {
        java.util.concurrent.CompletableFuture<DataCall.Reply> r = null;
        if (!SliceCall.isSlice(payload)) {
            try {
                r = executor.pointStarted(DataCall.decode(payload), mayWait);
            } catch (WireException e) {
                r = null; // answered by handle, as malformed
            }
        }
        return r == null ? java.util.concurrent.CompletableFuture.completedFuture(handle(payload, true))
                : r.thenApply(DataCall.Reply::encode);
    }

    private byte[] slice(byte[] payload, boolean mayBlock, long start) {
        SliceCall c;
        try {
            c = SliceCall.decode(payload);
        } catch (WireException e) {
            return sliceDone("unknown", SliceCall.Reply.error(400, "malformed DHash.Data slice call: " + e.getMessage()),
                    start);
        }
        byte[] answer;
        try {
            SliceCall.Entries r = executor.slice(c, mayBlock, start);
            if (r == null) {
                return null;
            }
            // a digest kind: the same answer, hashed as it is written (never built)
            answer = c.digest() ? SliceCall.DigestReply.of(r) : SliceCall.encodeOk(r);
        } catch (RuntimeException e) {
            CommandError refused = executor.failure(e, "DHash." + c.method() + " (binary)");
            return sliceDone(c.method(), SliceCall.Reply.error(refused.status(), refused.getMessage()), start);
        }
        executor.observer().completed(c.method(), 200, System.nanoTime() - start);
        return answer;
    }

    private byte[] sliceDone(String method, SliceCall.Reply r, long start) {
        executor.observer().completed(method, r.status(), System.nanoTime() - start);
        return r.encode();
    }

    private byte[] done(String method, DataCall.Reply r, long start) {
        executor.observer().completed(method, r.status(), System.nanoTime() - start);
        return r.encode();
    }
}

package io.god.api;

import io.god.command.CommandError;
import io.god.command.Executor;
import io.god.node.GodNode;
import io.god.node.NodeSettings;
import io.god.request.BinaryRequests;
import io.god.request.BinaryResults;
import io.god.wire.Ops;
import io.god.wire.WireException;

/**
 * The binary commands ({@link Ops#COMMAND}: any command as a {@link BinaryRequests.Envelope}, answered as a typed
 * {@link BinaryResults.Reply}) as a codec over the node's one {@link Executor}: what the other members forward, and
 * what a client may send. A call over {@code god.limits.body-size} (the JSON contract's bound on a call's arguments)
 * or malformed (truncated, trailing bytes, a length past the end, an unknown command id or flag) is a 400 naming the
 * fault; every refusal the same status and message the JSON contract answers. Runs on the handler pool.
 */
final class CommandCalls implements GodNode.CommandHandler {

    private final Executor executor;

    CommandCalls(Executor executor) {
        this.executor = executor;
    }

    @Override
    public byte[] handle(byte[] payload) {
        long start = System.nanoTime();
        String method = "unknown";
        BinaryResults.Reply reply;
        byte[] out;
        try {
            long limit = executor.node().settings().bodySize();
            if (payload.length > limit) {
                executor.observer().limitRefused(NodeSettings.BODY_SIZE);
                throw new CommandError(400, "binary command of " + payload.length + " bytes exceeds"
                        + " god.limits.body-size (" + limit + " bytes)");
            }
            BinaryRequests.Envelope e;
            try {
                e = BinaryRequests.decode(payload, executor.node().settings().limits());
            } catch (WireException malformed) {
                throw new CommandError(400, "malformed DHash.Command call: " + malformed.getMessage());
            }
            method = e.request().command().method();
            Object result = executor.run(e.request(), new Executor.Origin(e.authorization(), e.hops(), e.mode(),
                    e.stamp(), start));
            reply = BinaryResults.Reply.ok(executor.typed(e.request(), result));
            out = reply.encode();
        } catch (RuntimeException failed) {
            CommandError refused = executor.failure(failed, "DHash." + method + " (binary)");
            reply = BinaryResults.Reply.error(refused.status(), refused.getMessage());
            out = reply.encode();
        }
        executor.observer().completed(method, reply.status(), System.nanoTime() - start);
        return out;
    }
}

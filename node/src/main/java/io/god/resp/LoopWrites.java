package io.god.resp;

import io.god.command.Executor;
import io.god.wire.DataCall;
import io.vertx.core.Context;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The plain SETs that the connections of one RESP event loop read in one turn of the loop, applied together once the
 * turn's reads are done: the keys of several connections' SETs prefetched side by side, then one tree version and, on
 * a durable node, one log append ({@link Executor#pointWrites}) — as Redis writes its AOF buffer once a loop turn,
 * before the turn's replies go out. Each connection's SETs get their replies (or refusals) in order when the group is
 * applied; the connection reads nothing further meanwhile, so its next command sees its SETs. Used on the event loop
 * only, by the connections of {@code loop}: no locking.
 */
final class LoopWrites {

    private final Executor executor;
    private final Context loop;
    private final List<DataCall> calls = new ArrayList<>();
    private final List<Member> members = new ArrayList<>();
    private boolean scheduled;
    /** What the prefetch read, kept so that its reads are not optimised away; never read. */
    private int prefetched;

    private record Member(int from, int count, CompletableFuture<List<DataCall.Reply>> replies) {
    }

    LoopWrites(Executor executor, Context loop) {
        this.executor = executor;
        this.loop = loop;
    }

    /** Whether this thread runs this loop's tasks (a connection's chain may go on on a worker or a transport thread). */
    boolean current() {
        return io.vertx.core.Vertx.currentContext() == loop;
    }

    /**
     * Adds one connection's SETs to this turn's group: their replies in order once the group is applied, or null,
     * nothing done, when the group could not be applied together (the ring changed: a key went to another member);
     * then the caller runs them one by one.
     */
    CompletableFuture<List<DataCall.Reply>> add(List<DataCall> sets) {
        CompletableFuture<List<DataCall.Reply>> replies = new CompletableFuture<>();
        members.add(new Member(calls.size(), sets.size(), replies));
        calls.addAll(sets);
        if (!scheduled) {
            scheduled = true;
            loop.runOnContext(v -> apply()); // a task of the loop: it runs after the turn's reads
        }
        return replies;
    }

    private void apply() {
        List<DataCall> group = List.copyOf(calls);
        List<Member> waiting = List.copyOf(members);
        calls.clear();
        members.clear();
        scheduled = false; // the members' continuations below may start the next group
        List<DataCall.Reply> replies;
        try {
            if (waiting.size() > 1) { // one connection's run was prefetched with its read (RespServer#received)
                byte[][] keys = new byte[group.size()][];
                for (int i = 0; i < keys.length; i++) {
                    keys[i] = group.get(i).key();
                }
                prefetched += executor.prefetch(keys, keys.length);
            }
            replies = executor.pointWrites(group, false);
        } catch (RuntimeException e) {
            waiting.forEach(m -> m.replies.completeExceptionally(e));
            return;
        }
        for (Member m : waiting) {
            m.replies.complete(replies == null ? null : replies.subList(m.from, m.from + m.count));
        }
    }
}

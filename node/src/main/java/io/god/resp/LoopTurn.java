package io.god.resp;

import io.god.command.Executor;
import io.god.wire.DataCall;
import io.vertx.core.Context;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The plain SETs and GETs that the connections of one RESP event loop read in one turn of the loop, run together once
 * the turn's reads are done. Their keys are prefetched side by side ({@link Executor#prefetch}: the descents' cache
 * misses overlap instead of coming one connection after another — in a large tree a GET's descent was its largest
 * cost); the SETs are then applied as one tree version and, on a durable node, one log append
 * ({@link Executor#pointWrites}) — as Redis writes its AOF buffer once a loop turn, before the turn's replies go out —
 * and the GETs run after them. Each connection's SETs get their replies (or refusals) in order when the group is
 * applied; a GET's connection runs it then, as it would have; a connection reads nothing further meanwhile, so its next
 * command sees what it waited for. Used on the event loop only, by the connections of {@code loop}: no locking.
 */
final class LoopTurn {

    private final Executor executor;
    private final Context loop;
    private final List<DataCall> calls = new ArrayList<>();
    private final List<Member> members = new ArrayList<>();
    private final List<byte[]> readKeys = new ArrayList<>();
    private final List<CompletableFuture<Void>> reads = new ArrayList<>();
    private boolean scheduled;
    /** What the prefetch read, kept so that its reads are not optimised away; never read. */
    private int prefetched;
    /** How many keys the groups prefetched, for tests: grouped commands of several connections. */
    private volatile long keysPrefetched; // written on the loop only

    private record Member(int from, int count, CompletableFuture<List<DataCall.Reply>> replies) {
    }

    LoopTurn(Executor executor, Context loop) {
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
        schedule();
        return replies;
    }

    /**
     * Adds one connection's GET of {@code key} to this turn's group: completes once its key is prefetched with the
     * others' and the group's SETs are applied; the caller then runs the GET.
     */
    CompletableFuture<Void> read(byte[] key) {
        CompletableFuture<Void> ready = new CompletableFuture<>();
        readKeys.add(key);
        reads.add(ready);
        schedule();
        return ready;
    }

    long keysPrefetched() {
        return keysPrefetched;
    }

    private void schedule() {
        if (!scheduled) {
            scheduled = true;
            loop.runOnContext(v -> apply()); // a task of the loop: it runs after the turn's reads
        }
    }

    private void apply() {
        List<DataCall> group = List.copyOf(calls);
        List<Member> waiting = List.copyOf(members);
        List<byte[]> keysRead = List.copyOf(readKeys);
        List<CompletableFuture<Void>> readers = List.copyOf(reads);
        calls.clear();
        members.clear();
        readKeys.clear();
        reads.clear();
        scheduled = false; // the members' continuations below may start the next group
        List<DataCall.Reply> replies;
        try {
            if (waiting.size() + readers.size() > 1) { // one connection's run was prefetched with its read (RespServer)
                byte[][] keys = new byte[group.size() + keysRead.size()][];
                for (int i = 0; i < group.size(); i++) {
                    keys[i] = group.get(i).key();
                }
                for (int i = 0; i < keysRead.size(); i++) {
                    keys[group.size() + i] = keysRead.get(i);
                }
                prefetched += executor.prefetch(keys, keys.length);
                keysPrefetched += keys.length;
            }
            replies = group.isEmpty() ? List.of() : executor.pointWrites(group, false);
        } catch (RuntimeException e) {
            waiting.forEach(m -> m.replies.completeExceptionally(e));
            readers.forEach(r -> r.complete(null)); // the GETs run as they would have alone
            return;
        }
        for (Member m : waiting) {
            m.replies.complete(replies == null ? null : replies.subList(m.from, m.from + m.count));
        }
        readers.forEach(r -> r.complete(null));
    }
}

package io.god.cluster;

import io.god.transport.Retry;
import io.god.transport.TransportException;
import io.god.wire.Ops;
import io.god.wire.WireWriter;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Coalesces the {@link Ops#REPLICATE} calls to each target (issue 29): at most one call per target is in flight;
 * records handed over while it is (by any writer, Sync or not) wait in that target's lane and go together in one
 * call when it completes — at most {@link #MAX_RECORDS} records and {@link #MAX_BYTES} bytes of them, though a
 * single writer's records always go whole. Nothing waits for company: a lane that is idle sends at once, so a
 * lone writer's copy leaves as it did before, and no timer is involved (what coalesces is only what arrived while
 * the previous call was under way, so the in-memory simulation replays a seed identically).
 *
 * <p>Each writer's hand-over has its own deadline, fixed when it was handed over; a call carries the earliest of
 * its writers' (their remaining time) and retries UNREACHABLE failures like {@link Retry#call}. Every writer of a
 * call learns that call's outcome: the reply, or the same {@link TransportException} — so a Sync writer counts a
 * confirmation only when the call that carried its own records was acknowledged, and a failed call fails each
 * writer in it with the message a call of its own would have failed with. Replicas apply a batch as any
 * {@link Ops#REPLICATE} payload (the format is unchanged: a count, then the records).
 *
 * <p>A lane holds at most {@code god.replication.queue} waiting hand-overs and {@link #MAX_WAITING_BYTES} of their
 * records; beyond, a hand-over fails at once (a Sync writer counts that replica unconfirmed; anti-entropy repairs the
 * copy), so a replica that stops answering costs bounded memory until its calls' deadlines.
 */
final class ReplicationLanes {

    /** Records in one call at most (unless one writer's records are more: they go alone). */
    static final int MAX_RECORDS = 1024;
    /** Encoded record bytes in one call at most (unless one writer's are more: they go alone). */
    static final int MAX_BYTES = 256 * 1024;

    /** Encoded record bytes waiting in one lane at most (a replica that answers slowly, or not, until its deadline). */
    static final long MAX_WAITING_BYTES = 64L * 1024 * 1024;

    private final Retry retry;
    private final int maxWaiting;
    private final Map<String, Lane> lanes = new ConcurrentHashMap<>();
    private final AtomicLong calls = new AtomicLong();
    private final AtomicLong records = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();

    /**
     * @param maxWaiting writers' hand-overs waiting in one lane at most ({@code god.replication.queue}): a Sync writer
     *                   no longer waits for a replica past W confirmations, so a replica that stopped answering
     *                   would otherwise collect what every writer hands over until the calls' deadlines
     */
    ReplicationLanes(Retry retry, int maxWaiting) {
        this.retry = retry;
        this.maxWaiting = maxWaiting;
    }

    /** One writer's records, encoded ({@link io.god.persist.Record#encode}), for one target. */
    record Batch(byte[][] encoded, int bytes) {
        static Batch of(List<io.god.persist.Record> records) {
            byte[][] encoded = new byte[records.size()][];
            int bytes = 0;
            for (int i = 0; i < encoded.length; i++) {
                encoded[i] = records.get(i).encode();
                bytes += encoded[i].length;
            }
            return new Batch(encoded, bytes);
        }
    }

    /**
     * Sends {@code batch} to {@code target}, alone or with others' records, within {@code timeout} from now.
     * Never blocks; the future completes with the reply of the call that carried the records, or fails as it did.
     */
    CompletableFuture<byte[]> send(String target, Batch batch, Duration timeout) {
        Waiting w = new Waiting(batch, retry.deadline(timeout), new CompletableFuture<>());
        lanes.computeIfAbsent(target, Lane::new).add(w);
        return w.done;
    }

    /** REPLICATE calls sent (each carrying one or more writers' records). */
    long calls() {
        return calls.get();
    }

    /** Records sent in REPLICATE calls (counted once per target). */
    long records() {
        return records.get();
    }

    /** Hand-overs refused because their lane was full (the copy is left to anti-entropy). */
    long refused() {
        return refused.get();
    }

    private record Waiting(Batch batch, long until, CompletableFuture<byte[]> done) {
    }

    /** One target's queue: what waits for the call in flight to complete. */
    private final class Lane {
        private final String address;
        private final ArrayDeque<Waiting> waiting = new ArrayDeque<>();
        private long waitingBytes;
        private boolean busy;

        Lane(String address) {
            this.address = address;
        }

        void add(Waiting w) {
            List<Waiting> next;
            synchronized (this) {
                if (!waiting.isEmpty() && (waiting.size() >= maxWaiting
                        || waitingBytes + w.batch().bytes() > MAX_WAITING_BYTES)) {
                    refused.incrementAndGet();
                    w.done().completeExceptionally(new TransportException(TransportException.Reason.UNREACHABLE,
                            waiting.size() + " copies (" + waitingBytes + " bytes) already wait for " + address
                                    + " (god.replication.queue): it answers slowly or not at all; this copy is left"
                                    + " to anti-entropy"));
                    return;
                }
                waiting.add(w);
                waitingBytes += w.batch().bytes();
                if (busy) {
                    return; // goes with the next call, when the one in flight completes
                }
                busy = true;
                next = take();
            }
            dispatch(next);
        }

        /** The next call's writers, oldest first, within the bounds (at least one). Under the lock. */
        private List<Waiting> take() {
            List<Waiting> out = new ArrayList<>();
            int n = 0;
            long bytes = 0;
            while (!waiting.isEmpty()) {
                Batch b = waiting.peek().batch();
                if (!out.isEmpty() && (n + b.encoded().length > MAX_RECORDS || bytes + b.bytes() > MAX_BYTES)) {
                    break;
                }
                out.add(waiting.poll());
                waitingBytes -= b.bytes();
                n += b.encoded().length;
                bytes += b.bytes();
            }
            return out;
        }

        /** Sends one call for {@code batch}; when it completes, tells its writers and sends what waits next. */
        private void dispatch(List<Waiting> batch) {
            while (true) {
                List<Waiting> live = new ArrayList<>(batch.size());
                for (Waiting w : batch) {
                    if (retry.passed(w.until())) {
                        w.done().completeExceptionally(Retry.deadlinePassed(address));
                    } else {
                        live.add(w);
                    }
                }
                if (!live.isEmpty()) {
                    send(live);
                    return;
                }
                synchronized (this) {
                    if (waiting.isEmpty()) {
                        busy = false;
                        return;
                    }
                    batch = take();
                }
            }
        }

        private void send(List<Waiting> batch) {
            int n = 0;
            long until = batch.get(0).until(); // the earliest deadline of the call's writers (nano instants)
            for (Waiting w : batch) {
                n += w.batch().encoded().length;
                if (w.until() - until < 0) {
                    until = w.until();
                }
            }
            WireWriter out = new WireWriter().varint(n);
            for (Waiting w : batch) {
                for (byte[] r : w.batch().encoded()) {
                    out.bytes(r);
                }
            }
            calls.incrementAndGet();
            records.addAndGet(n);
            retry.callUntil(address, Ops.REPLICATE, out.toBytes(), until).whenComplete((reply, error) -> {
                for (Waiting w : batch) {
                    if (error == null) {
                        w.done().complete(reply);
                    } else {
                        w.done().completeExceptionally(TransportException.of(error));
                    }
                }
                List<Waiting> next;
                synchronized (this) {
                    if (waiting.isEmpty()) {
                        busy = false;
                        return;
                    }
                    next = take();
                }
                dispatch(next);
            });
        }
    }
}

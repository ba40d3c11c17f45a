package io.god.client;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.god.client.NodeCalls.StampedSlice;
import io.god.wire.SliceCall;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;

/**
 * One attempt of a merged SliceLen/ReverseSliceLen page as a digest read (Cassandra's): one replica is asked for
 * its Stamped entries, the others — in parallel, on the same thread's pipelined connections — for the
 * {@link SliceCall#digest} of the answer they would give. A replica whose digest equals that of the entries holds
 * exactly those entries (keys, values, stamps, tombstones of the same window), so its answer is those entries — the
 * very list object, which {@link MergedSlices} merges once. A replica whose digest differs, that predates digests,
 * or whose peer asked for entries failed, is asked for its own entries within what is left of the attempt. So the
 * merge sees the same answers as when every replica sends its entries, and a read of agreeing replicas moves one
 * answer's entries instead of N (the N answers' decoding and merge were most of the client's cost).
 */
final class DigestRead implements ReplicaReads.AtNode<List<SliceCall.Stamped>> {

    private final NodeCalls calls;
    private final SliceCall entriesCall;
    private final SliceCall digestCall;
    private final Supplier<ObjectNode> json;
    /** The replica asked for entries. */
    private final String entriesAt;
    private Answer entries;
    private long firstSend;
    private boolean sent;

    /**
     * @param call the Stamped slice asking for entries (EXECUTE mode)
     * @param json the same call in JSON, for nodes older than the binary one (made only for them)
     * @param entriesAt the replica asked for entries (one of the attempt's replicas)
     */
    DigestRead(NodeCalls calls, SliceCall call, Supplier<ObjectNode> json, String entriesAt) {
        this.calls = calls;
        this.entriesCall = call.asDigest(false);
        this.digestCall = call.asDigest(true);
        this.json = json;
        this.entriesAt = entriesAt;
    }

    @Override
    public Connections.Sent<List<SliceCall.Stamped>> send(String address, Duration budget) {
        if (!sent) {
            sent = true;
            firstSend = System.nanoTime();
        }
        if (address.equals(entriesAt)) {
            entries = new Answer(calls.sendSlice(address, entriesCall, json, budget));
            return () -> entries.get().entries;
        }
        if (!calls.digests(address)) {
            Connections.Sent<StampedSlice> s = calls.sendSlice(address, entriesCall, json, budget);
            return () -> s.answer().entries;
        }
        Connections.Sent<byte[]> digest = calls.sendSliceDigest(address, digestCall, budget);
        return () -> {
            byte[] theirs = digest.answer(); // this replica's failure is its own (the read's majority rule)
            StampedSlice ours = entries == null ? null : entries.orNull();
            if (theirs != null && ours != null && Arrays.equals(theirs, ours.digest())) {
                return ours.entries;
            }
            return calls.sendSlice(address, entriesCall, json, left(address, budget)).answer().entries;
        };
    }

    /** What is left of the attempt's budget for a second request to a replica; none left is that replica's timeout. */
    private Duration left(String address, Duration budget) {
        long left = budget.toNanos() - (System.nanoTime() - firstSend);
        if (left <= 0) {
            throw new GodUnavailableException(address + " did not answer " + entriesCall.method() + " within "
                    + budget.toMillis() + " ms", null);
        }
        return Duration.ofNanos(left);
    }

    /** The entries replica's answer, awaited once: by the first of its own read or a digest's comparison. */
    private static final class Answer {
        private final Connections.Sent<StampedSlice> sent;
        private boolean done;
        private StampedSlice value;
        private GodException failure;

        Answer(Connections.Sent<StampedSlice> sent) {
            this.sent = sent;
        }

        StampedSlice get() {
            if (!done) {
                done = true;
                try {
                    value = sent.answer();
                } catch (GodException e) {
                    failure = e;
                }
            }
            if (failure != null) {
                throw failure;
            }
            return value;
        }

        StampedSlice orNull() {
            try {
                return get();
            } catch (GodException e) {
                return null;
            }
        }
    }
}

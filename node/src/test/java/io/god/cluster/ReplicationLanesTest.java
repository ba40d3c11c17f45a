package io.god.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.god.persist.Record;
import io.god.transport.Retry;
import io.god.transport.Transport;
import io.god.transport.TransportException;
import io.god.wire.Ops;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

/**
 * {@link ReplicationLanes}: one REPLICATE call per target in flight; what writers hand over meanwhile goes in the
 * next call, within the bounds; every writer of a call learns its outcome. A transport the test answers by hand,
 * time on a clock the test moves.
 */
class ReplicationLanesTest {

    static final String A = "10.0.0.1:9191";
    static final String B = "10.0.0.2:9191";
    static final Duration TIMEOUT = Duration.ofSeconds(2);
    static final int MAX_WAITING = 2_000;

    /** The calls sent, each answered by the test. */
    static final class HeldTransport implements Transport {
        record Sent(String to, int op, byte[] payload, CompletableFuture<byte[]> reply) {
            List<Record> records() {
                return Cluster.decode(payload);
            }
        }

        final List<Sent> sent = new ArrayList<>();
        /** The next calls that throw instead of returning a future (a bug, a closed client). */
        int throwing;

        @Override
        public CompletableFuture<byte[]> call(String address, int op, byte[] payload, Duration deadline) {
            if (throwing > 0) {
                throwing--;
                throw new IllegalStateException("client is closed");
            }
            Sent s = new Sent(address, op, payload, new CompletableFuture<>());
            sent.add(s);
            return s.reply();
        }

        @Override
        public String address() {
            return "self:9191";
        }

        @Override
        public void serve(Handler handler) {
        }

        @Override
        public void close() {
        }
    }

    long now = 1_000_000_000L;
    final List<Runnable> scheduled = new ArrayList<>();
    final HeldTransport transport = new HeldTransport();
    final ReplicationLanes lanes = new ReplicationLanes(new Retry(transport, (delay, task) -> {
        scheduled.add(task);
        return () -> { };
    }, () -> now, 3, Duration.ofMillis(10)), MAX_WAITING);

    static ReplicationLanes.Batch batch(String... keys) {
        List<Record> records = new ArrayList<>();
        for (String k : keys) {
            records.add(Record.put(k.getBytes(StandardCharsets.UTF_8), new byte[] {1}, 7));
        }
        return ReplicationLanes.Batch.of(records);
    }

    static List<String> keys(HeldTransport.Sent s) {
        return s.records().stream().map(r -> new String(r.key(), StandardCharsets.UTF_8)).toList();
    }

    @Test
    void whatArrivesWhileACallIsInFlightGoesTogetherInTheNext() throws Exception {
        CompletableFuture<byte[]> first = lanes.send(A, batch("k1"), TIMEOUT);
        assertThat(transport.sent).hasSize(1); // an idle lane sends at once: a lone write waits for nobody
        List<CompletableFuture<byte[]>> later = new ArrayList<>();
        for (int i = 2; i <= 5; i++) {
            later.add(lanes.send(A, batch("k" + i), TIMEOUT));
        }
        CompletableFuture<byte[]> other = lanes.send(B, batch("b1", "b2"), TIMEOUT);
        assertThat(transport.sent).hasSize(2); // the other target's lane is idle: its call leaves
        assertThat(keys(transport.sent.get(1))).containsExactly("b1", "b2");

        transport.sent.get(0).reply().complete(new byte[0]);
        assertThat(first).isCompleted();
        assertThat(later).noneMatch(CompletableFuture::isDone); // their records are not confirmed yet
        assertThat(transport.sent).hasSize(3);
        HeldTransport.Sent second = transport.sent.get(2);
        assertThat(second.to()).isEqualTo(A);
        assertThat(second.op()).isEqualTo(Ops.REPLICATE);
        assertThat(keys(second)).containsExactly("k2", "k3", "k4", "k5");

        second.reply().complete(new byte[0]);
        assertThat(later).allMatch(f -> f.isDone() && !f.isCompletedExceptionally());
        assertThat(other).isNotDone();
        assertThat(lanes.calls()).isEqualTo(3);
        assertThat(lanes.records()).isEqualTo(7);

        lanes.send(A, batch("k6"), TIMEOUT); // the lane went idle: the next write leaves at once again
        assertThat(transport.sent).hasSize(4);
    }

    /**
     * A replica whose call hangs (until its deadline) collects what every writer hands over: past god.replication.queue
     * waiting hand-overs its lane refuses more at once, naming the replica, while other replicas' lanes go on; once the
     * call completes the lane drains and takes hand-overs again.
     */
    @Test
    void aLaneStuckOnAReplicaRefusesHandOversBeyondItsBound() {
        lanes.send(A, batch("k0"), TIMEOUT); // in flight, not answered
        List<CompletableFuture<byte[]>> waiting = new ArrayList<>();
        for (int i = 1; i <= MAX_WAITING; i++) {
            waiting.add(lanes.send(A, batch("k" + i), TIMEOUT));
        }
        assertThat(waiting).noneMatch(CompletableFuture::isDone);
        CompletableFuture<byte[]> over = lanes.send(A, batch("over"), TIMEOUT);
        assertThat(over).isCompletedExceptionally();
        assertThatThrownBy(over::join).hasCauseInstanceOf(TransportException.class)
                .hasMessageContaining(MAX_WAITING + " copies").hasMessageContaining(A)
                .hasMessageContaining("god.replication.queue");
        assertThat(lanes.refused()).isEqualTo(1);
        CompletableFuture<byte[]> elsewhere = lanes.send(B, batch("b"), TIMEOUT);
        assertThat(elsewhere).isNotDone(); // sent: B's lane is its own
        assertThat(transport.sent).extracting(HeldTransport.Sent::to).containsExactly(A, B);

        transport.sent.get(0).reply().complete(new byte[0]); // the first call answers: the waiting go (1024 a call)
        assertThat(lanes.send(A, batch("again"), TIMEOUT)).isNotDone();
        assertThat(lanes.refused()).isEqualTo(1);
    }

    @Test
    void aFailedCallFailsEachWriterInItWithItsReason() {
        lanes.send(A, batch("k1"), TIMEOUT);
        List<CompletableFuture<byte[]>> writers = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            writers.add(lanes.send(A, batch("w" + i), TIMEOUT));
        }
        transport.sent.get(0).reply().complete(new byte[0]);
        transport.sent.get(1).reply().completeExceptionally(new TransportException(TransportException.Reason.REMOTE,
                A + " has left the ring"));
        for (CompletableFuture<byte[]> w : writers) {
            assertThat(w).isCompletedExceptionally();
            TransportException e = TransportException.of(catchFailure(w));
            assertThat(e.reason()).isEqualTo(TransportException.Reason.REMOTE);
            assertThat(e.getMessage()).isEqualTo(A + " has left the ring");
        }
        assertThat(transport.sent).hasSize(2); // nothing waited: the lane is idle again
    }

    /**
     * A transport that throws instead of returning a future (a bug, a closed client): the call's writers fail with
     * the reason, and the lane stays usable, also when the throwing call is the one sent from the completion of the
     * call before it. A lane that stayed busy would leave every later writer to its deadline.
     */
    @Test
    void aCallThatThrowsFailsItsWritersAndTheLaneGoesOn() {
        HeldTransport held = new HeldTransport();
        held.throwing = 1;
        ReplicationLanes lanes = new ReplicationLanes(new Retry(held, (delay, task) -> {
            scheduled.add(task);
            return () -> { };
        }, () -> now, 1, Duration.ofMillis(10)), MAX_WAITING);

        assertThat(catchFailure(lanes.send(A, batch("k1"), TIMEOUT))).hasMessageContaining("client is closed");
        CompletableFuture<byte[]> second = lanes.send(A, batch("k2"), TIMEOUT);
        assertThat(held.sent).hasSize(1);
        CompletableFuture<byte[]> third = lanes.send(A, batch("k3"), TIMEOUT); // waits for the second
        held.throwing = 1; // the call that carries k3, sent when the second completes, throws
        held.sent.get(0).reply().complete(new byte[] {1});
        assertThat(second).isDone();
        assertThat(second.join()).containsExactly(1);
        assertThat(catchFailure(third)).hasMessageContaining("client is closed");
        CompletableFuture<byte[]> fourth = lanes.send(A, batch("k4"), TIMEOUT);
        assertThat(held.sent).hasSize(2);
        assertThat(keys(held.sent.get(1))).containsExactly("k4");
        held.sent.get(1).reply().complete(new byte[] {2});
        assertThat(fourth).isDone();
        assertThat(fourth.join()).containsExactly(2);
    }

    @Test
    void anUnreachableCallIsRetriedAsAWholeAndKeepsItsWriters() {
        lanes.send(A, batch("k1"), TIMEOUT);
        CompletableFuture<byte[]> w1 = lanes.send(A, batch("w1"), TIMEOUT);
        CompletableFuture<byte[]> w2 = lanes.send(A, batch("w2"), TIMEOUT);
        transport.sent.get(0).reply().complete(new byte[0]);
        transport.sent.get(1).reply().completeExceptionally(new TransportException(
                TransportException.Reason.UNREACHABLE, "connection refused: " + A));
        assertThat(w1).isNotDone();
        scheduled.remove(0).run(); // the back-off passed
        assertThat(transport.sent).hasSize(3);
        assertThat(keys(transport.sent.get(2))).containsExactly("w1", "w2");
        transport.sent.get(2).reply().complete(new byte[0]);
        assertThat(w1).isCompleted();
        assertThat(w2).isCompleted();
    }

    @Test
    void aCallCarriesAtMostTheBoundButOneWritersRecordsGoWhole() {
        lanes.send(A, batch("k0"), TIMEOUT);
        for (int i = 0; i < ReplicationLanes.MAX_RECORDS + 10; i++) {
            lanes.send(A, batch("w" + i), TIMEOUT);
        }
        transport.sent.get(0).reply().complete(new byte[0]);
        assertThat(transport.sent.get(1).records()).hasSize(ReplicationLanes.MAX_RECORDS);
        transport.sent.get(1).reply().complete(new byte[0]);
        assertThat(transport.sent.get(2).records()).hasSize(10);
        transport.sent.get(2).reply().complete(new byte[0]);

        String[] many = new String[ReplicationLanes.MAX_RECORDS + 5];
        for (int i = 0; i < many.length; i++) {
            many[i] = "m" + i;
        }
        lanes.send(A, batch(many), TIMEOUT);
        assertThat(transport.sent.get(3).records()).hasSize(many.length);

        byte[] big = new byte[ReplicationLanes.MAX_BYTES / 2];
        lanes.send(A, ReplicationLanes.Batch.of(List.of(Record.put(new byte[] {1}, big, 7))), TIMEOUT);
        lanes.send(A, ReplicationLanes.Batch.of(List.of(Record.put(new byte[] {2}, big, 7))), TIMEOUT);
        lanes.send(A, ReplicationLanes.Batch.of(List.of(Record.put(new byte[] {3}, big, 7))), TIMEOUT);
        transport.sent.get(3).reply().complete(new byte[0]);
        assertThat(transport.sent.get(4).records()).hasSize(1); // two halves and their framing exceed the bound
    }

    @Test
    void aWriterWhoseDeadlinePassedWhileWaitingFailsAloneAndTheCallGetsTheOthersTimeLeft() {
        lanes.send(A, batch("k1"), TIMEOUT);
        CompletableFuture<byte[]> old = lanes.send(A, batch("old"), TIMEOUT);
        now += TIMEOUT.toNanos() - 1; // the first call took (almost) the whole deadline
        CompletableFuture<byte[]> fresh = lanes.send(A, batch("fresh"), TIMEOUT);
        now += 1;
        transport.sent.get(0).reply().complete(new byte[0]);
        assertThat(old).isCompletedExceptionally();
        assertThat(TransportException.of(catchFailure(old)).getMessage())
                .isEqualTo("no answer from " + A + " within the deadline");
        assertThat(keys(transport.sent.get(1))).containsExactly("fresh");
        assertThat(fresh).isNotDone();
    }

    private static Throwable catchFailure(CompletableFuture<byte[]> f) {
        try {
            f.get();
            throw new AssertionError("expected a failure");
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }
}

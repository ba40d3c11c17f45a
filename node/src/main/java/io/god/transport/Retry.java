package io.god.transport;

import io.god.time.NanoClock;
import io.god.time.Scheduler;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * Bounded retries with exponential back-off for idempotent calls: an UNREACHABLE failure is retried
 * after {@code backoff}, {@code 2·backoff}, ... while attempts remain and the overall deadline leaves
 * room; TIMEOUT and REMOTE failures are final. Each attempt gets the time left of the deadline.
 */
public final class Retry {

    private final Transport transport;
    private final Scheduler scheduler;
    private final NanoClock clock;
    private final int attempts;
    private final Duration backoff;

    public Retry(Transport transport, Scheduler scheduler, NanoClock clock, int attempts, Duration backoff) {
        if (attempts < 1) {
            throw new IllegalArgumentException("attempts must be at least 1");
        }
        this.transport = transport;
        this.scheduler = scheduler;
        this.clock = clock;
        this.attempts = attempts;
        this.backoff = backoff;
    }

    public CompletableFuture<byte[]> call(String address, int op, byte[] payload, Duration deadline) {
        return callUntil(address, op, payload, deadline(deadline));
    }

    /** The instant ({@link NanoClock} nanos) {@code deadline} from now: what {@link #callUntil} takes. */
    public long deadline(Duration deadline) {
        return clock.nanos() + deadline.toNanos();
    }

    /** Whether the instant {@code until} ({@link #deadline}) has passed. */
    public boolean passed(long until) {
        return until - clock.nanos() <= 0;
    }

    /**
     * As {@link #call}, with an overall deadline fixed earlier ({@link #deadline}): a request that waited
     * before it was sent (a coalesced replication batch) gets only what is left of its time.
     */
    public CompletableFuture<byte[]> callUntil(String address, int op, byte[] payload, long until) {
        CompletableFuture<byte[]> result = new CompletableFuture<>();
        attempt(address, op, payload, until, 1, result);
        return result;
    }

    /** The failure of a call whose deadline passed before an answer (also before it was sent). */
    public static TransportException deadlinePassed(String address) {
        return new TransportException(TransportException.Reason.TIMEOUT,
                "no answer from " + address + " within the deadline");
    }

    private void attempt(String address, int op, byte[] payload, long until, int n, CompletableFuture<byte[]> result) {
        long left = until - clock.nanos();
        if (left <= 0) {
            result.completeExceptionally(deadlinePassed(address));
            return;
        }
        CompletableFuture<byte[]> call;
        try {
            call = transport.call(address, op, payload, Duration.ofNanos(left));
        } catch (RuntimeException e) { // the result must complete: a caller (a replication lane) waits for it
            call = CompletableFuture.failedFuture(e);
        }
        call.whenComplete((reply, error) -> {
            if (error == null) {
                result.complete(reply);
                return;
            }
            TransportException te = TransportException.of(error);
            long wait = backoff.toNanos() << Math.min(n - 1, 20);
            if (te.reason() != TransportException.Reason.UNREACHABLE || n >= attempts
                    || clock.nanos() + wait >= until) {
                result.completeExceptionally(te);
                return;
            }
            scheduler.schedule(wait, () -> attempt(address, op, payload, until, n + 1, result));
        });
    }
}

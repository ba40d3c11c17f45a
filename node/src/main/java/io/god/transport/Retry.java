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
        CompletableFuture<byte[]> result = new CompletableFuture<>();
        attempt(address, op, payload, clock.nanos() + deadline.toNanos(), 1, result);
        return result;
    }

    private void attempt(String address, int op, byte[] payload, long until, int n, CompletableFuture<byte[]> result) {
        long left = until - clock.nanos();
        if (left <= 0) {
            result.completeExceptionally(new TransportException(TransportException.Reason.TIMEOUT,
                    "no answer from " + address + " within the deadline"));
            return;
        }
        transport.call(address, op, payload, Duration.ofNanos(left)).whenComplete((reply, error) -> {
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

package io.god.transport;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * How code that needs a peer's answer before it goes on (routing, Sync=true replication, a sync
 * round) waits for a transport future. Production blocks the calling thread with a bound; the
 * deterministic simulation, which runs every node on one thread, instead runs its event queue
 * (message deliveries, timers) until the future completes or the bound passes in simulated time.
 */
@FunctionalInterface
public interface Awaiter {

    /**
     * The future's value; a {@link TransportException}: its failure, or TIMEOUT when it did not complete
     * within {@code limit} (callers pass a bound beyond the call's own deadline, as a safety net).
     */
    <T> T await(CompletableFuture<T> f, Duration limit);

    /** The bound callers use: twice the call deadline plus a second. */
    static Duration limitFor(Duration deadline) {
        return deadline.plus(deadline).plusSeconds(1); // not multipliedBy: that computes in BigDecimal, per write
    }

    /** Blocks the calling thread (production). */
    Awaiter BLOCKING = new Awaiter() {
        @Override
        public <T> T await(CompletableFuture<T> f, Duration limit) {
            try {
                return f.get(limit.toNanos(), TimeUnit.NANOSECONDS);
            } catch (ExecutionException e) {
                throw TransportException.of(e);
            } catch (TimeoutException e) {
                throw new TransportException(TransportException.Reason.TIMEOUT, "no answer");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new TransportException(TransportException.Reason.TIMEOUT, "interrupted");
            }
        }
    };
}

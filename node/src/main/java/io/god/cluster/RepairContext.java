package io.god.cluster;

import io.god.events.EventBus;
import io.god.node.Store;
import io.god.node.Timestamps;
import io.god.ring.Ring;
import io.god.time.NanoClock;
import io.god.transport.Awaiter;
import io.god.transport.Transport;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * What a node's replica-repair tasks (anti-entropy, cleaning) work with: who the node is, its current
 * ring view, the wire, its data, the limits of one round and how it waits for peers' answers. {@code events} may be null (no events).
 */
public record RepairContext(String address, Supplier<Ring> ring, Transport transport, Store store,
                            Timestamps timestamps, EventBus events, NanoClock clock, int redundancy,
                            Duration timeout, Duration window, int budget, Awaiter awaiter) {

    /** Blocking waits for peers' answers (production). */
    public RepairContext(String address, Supplier<Ring> ring, Transport transport, Store store,
                         Timestamps timestamps, EventBus events, NanoClock clock, int redundancy,
                         Duration timeout, Duration window, int budget) {
        this(address, ring, transport, store, timestamps, events, clock, redundancy, timeout, window, budget,
                Awaiter.BLOCKING);
    }
}

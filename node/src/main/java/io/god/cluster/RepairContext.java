package io.god.cluster;

import io.god.events.EventBus;
import io.god.node.Store;
import io.god.node.Timestamps;
import io.god.ring.Ring;
import io.god.time.NanoClock;
import io.god.transport.Transport;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * What a node's replica-repair tasks (anti-entropy, cleaning) work with: who the node is, its current
 * ring view, the wire, its data, and the limits of one round. {@code events} may be null (no events).
 */
public record RepairContext(String address, Supplier<Ring> ring, Transport transport, Store store,
                            Timestamps timestamps, EventBus events, NanoClock clock, int redundancy,
                            Duration timeout, Duration window, int budget) {
}

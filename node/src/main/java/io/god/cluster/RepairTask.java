package io.god.cluster;

import io.god.events.EventBus;
import io.god.node.Store;
import io.god.node.Timestamps;
import io.god.ring.Ring;
import io.god.time.NanoClock;
import io.god.transport.Awaiter;
import io.god.transport.Transport;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/** The state every replica-repair task shares, unpacked from its {@link RepairContext}. */
abstract class RepairTask {

    final String address;
    final Supplier<Ring> ring;
    final Transport transport;
    final Store store;
    final Timestamps timestamps;
    final EventBus events;
    final NanoClock clock;
    final int redundancy;
    final Duration timeout;
    final long windowNanos;
    final int budget;
    final Awaiter awaiter;

    RepairTask(RepairContext c) {
        this.address = c.address();
        this.ring = c.ring();
        this.transport = c.transport();
        this.store = c.store();
        this.timestamps = c.timestamps();
        this.events = c.events();
        this.clock = c.clock();
        this.redundancy = c.redundancy();
        this.timeout = c.timeout();
        this.windowNanos = c.window().toNanos();
        this.budget = c.budget();
        this.awaiter = c.awaiter();
    }

    /** Waits (through the {@link Awaiter} seam) for a peer's answer; TransportException on failure. */
    byte[] await(CompletableFuture<byte[]> f) {
        return awaiter.await(f, Awaiter.limitFor(timeout));
    }
}

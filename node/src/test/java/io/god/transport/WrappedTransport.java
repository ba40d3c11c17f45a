package io.god.transport;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/** A test's transport around a node's own: serves and closes as it does; a test overrides {@link #call}. */
public abstract class WrappedTransport implements Transport {

    protected final Transport inner;

    protected WrappedTransport(Transport inner) {
        this.inner = inner;
    }

    @Override
    public String address() {
        return inner.address();
    }

    @Override
    public void serve(Handler handler) {
        inner.serve(handler);
    }

    @Override
    public CompletableFuture<byte[]> call(String address, int op, byte[] payload, Duration deadline) {
        return inner.call(address, op, payload, deadline);
    }

    @Override
    public void close() {
        inner.close();
    }
}

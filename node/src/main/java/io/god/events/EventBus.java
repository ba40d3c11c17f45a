package io.god.events;

import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The node's in-process event bus. Publishing never blocks on a listener and never fails: listeners
 * must hand events off without blocking (a websocket writes asynchronously, and drops when its
 * connection cannot keep up), and a listener that throws is logged, not propagated. Publishers can
 * skip building an event when nobody listens ({@link #hasListeners()}).
 */
public final class EventBus {

    private static final System.Logger LOG = System.getLogger(EventBus.class.getName());

    private final CopyOnWriteArrayList<Consumer<Event>> listeners = new CopyOnWriteArrayList<>();

    /** A registration; closing it removes the listener (idempotent). */
    public interface Subscription extends AutoCloseable {
        @Override
        void close();
    }

    public Subscription subscribe(Consumer<Event> listener) {
        listeners.add(listener);
        return () -> listeners.remove(listener);
    }

    public boolean hasListeners() {
        return !listeners.isEmpty();
    }

    /** Number of registered listeners (tests check that closed connections leave none behind). */
    public int listenerCount() {
        return listeners.size();
    }

    public void publish(Event event) {
        for (Consumer<Event> l : listeners) {
            try {
                l.accept(event);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "event listener failed on " + event.type() + ": " + e);
            }
        }
    }
}

package io.god.ring;

import io.god.events.Event;
import io.god.events.EventBus;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * What membership tells the node about its view: ring changes to listeners and the event bus (the dashboard),
 * its messages as events, and since when the view and the neighbourhood have been stable (in ticks).
 * {@link #changed} runs under {@link Membership}'s lock; {@link #tell} and {@link #comm} outside it.
 */
final class Changes {

    private final EventBus events;
    private final List<Consumer<Ring>> listeners = new CopyOnWriteArrayList<>();
    private String published = "";
    private long changedAtTick;
    private String around = "";
    private long aroundChangedAtTick;

    Changes(EventBus events) {
        this.events = events;
    }

    void listen(Consumer<Ring> listener) {
        listeners.add(listener);
    }

    /**
     * Whether the (non-empty) view differs from the one last published; if so it is the published one now,
     * changed at {@code tick}, and so is the neighbourhood of {@code self} if it differs too.
     */
    boolean changed(View view, Member self, int neighbours, long tick) {
        String h = view.hash();
        if (h.equals(published)) {
            return false;
        }
        published = h;
        changedAtTick = tick;
        String a = self == null ? h : view.around(self, neighbours);
        if (!a.equals(around)) {
            around = a;
            aroundChangedAtTick = tick;
        }
        return true;
    }

    /** This node left: its (empty) view counts as published. */
    void left(String hash) {
        published = hash;
    }

    /** Whether anybody listens (else the ring is not even built). */
    boolean wanted() {
        return !listeners.isEmpty() || events != null && events.hasListeners();
    }

    long stableTicks(long tick) {
        return tick - changedAtTick;
    }

    long neighbourhoodStableTicks(long tick) {
        return tick - aroundChangedAtTick;
    }

    /** Tells the listeners and the event bus of the new ring as seen by {@code me}. */
    void tell(Ring r, Member me) {
        for (Consumer<Ring> l : listeners) {
            l.accept(r);
        }
        if (events != null && events.hasListeners()) {
            List<Event.NodeRef> refs = new ArrayList<>();
            for (Member m : r.members()) {
                refs.add(new Event.NodeRef(m.position(), m.address()));
            }
            events.publish(new Event.RingChange(new Event.NodeRef(me.position(), me.address()), refs));
        }
    }

    /** A message from {@code me} to {@code to} ({@code dest}: its entry, null when unknown) as an event. */
    void comm(Member me, String to, Member dest, String op) {
        if (events == null || !events.hasListeners() || me == null) {
            return;
        }
        events.publish(new Event.Comm(new Event.NodeRef(me.position(), me.address()),
                dest == null ? new Event.NodeRef(new byte[Positions.SIZE], to)
                        : new Event.NodeRef(dest.position(), dest.address()), null, null, op));
    }
}

package io.god.cluster;

import io.god.events.Event;
import io.god.events.EventBus;
import io.god.node.GodNode;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Collects the events every given node publishes, for tests that assert them. */
final class EventLog implements AutoCloseable {

    private final List<Event> events = new CopyOnWriteArrayList<>();
    private final List<EventBus.Subscription> subscriptions = new ArrayList<>();

    EventLog(List<GodNode> nodes) {
        for (GodNode n : nodes) {
            subscriptions.add(n.events().subscribe(events::add));
        }
    }

    /** The events of one type seen so far, in publication order. */
    <T extends Event> List<T> of(Class<T> type) {
        return events.stream().filter(type::isInstance).map(type::cast).toList();
    }

    @Override
    public void close() throws Exception {
        for (EventBus.Subscription s : subscriptions) {
            s.close();
        }
    }
}

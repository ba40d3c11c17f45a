package io.god.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class EventBusTest {

    private final Event.Migrate event = new Event.Migrate(new Event.NodeRef(new byte[16], "a:1"), new byte[16], new byte[16]);

    @Test
    void deliversToEveryListenerUntilItUnsubscribes() {
        EventBus bus = new EventBus();
        List<String> a = new ArrayList<>();
        List<String> b = new ArrayList<>();
        EventBus.Subscription sa = bus.subscribe(e -> a.add(e.type()));
        bus.subscribe(e -> b.add(e.type()));
        bus.publish(event);
        sa.close();
        sa.close();
        bus.publish(event);
        assertThat(a).containsExactly("Migrate");
        assertThat(b).containsExactly("Migrate", "Migrate");
        assertThat(bus.listenerCount()).isEqualTo(1);
    }

    @Test
    void aFailingListenerDoesNotStopOthersOrThePublisher() {
        EventBus bus = new EventBus();
        List<String> seen = new ArrayList<>();
        bus.subscribe(e -> {
            throw new IllegalStateException("boom");
        });
        bus.subscribe(e -> seen.add(e.type()));
        bus.publish(event);
        assertThat(seen).containsExactly("Migrate");
        assertThat(bus.hasListeners()).isTrue();
    }
}

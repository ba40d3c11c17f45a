package io.god.api.ws;

import io.god.api.NodeBean;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

/** Mounts {@link EventStream} ({@code /ws}) on the Quarkus app's router (port 9192). */
@ApplicationScoped
public class EventRoutes {

    /** The RingChange period of the original ({@code updateInterval}). */
    public static final long RING_CHANGE_INTERVAL_MILLIS = 1000;

    @Inject
    NodeBean bean;

    @Inject
    Vertx vertx;

    private volatile EventStream stream;

    void init(@Observes Router router) {
        stream = EventStream.mount(router, vertx, bean::rpc, RING_CHANGE_INTERVAL_MILLIS);
    }

    /** The stream (tests look at its connections and timer). */
    public EventStream stream() {
        return stream;
    }
}

package io.god.api;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Liveness;

/**
 * Live while every supervised background loop is (log fsync, tombstone collection, ring ticks,
 * anti-entropy): a node whose loop died answers requests but no longer syncs, collects or fsyncs,
 * so it must be restarted ({@link io.god.supervise.Supervisor}).
 */
@Liveness
@ApplicationScoped
public class NodeLiveness implements HealthCheck {

    @Inject
    NodeBean bean;

    @Override
    public HealthCheckResponse call() {
        var node = bean.node();
        HealthCheckResponseBuilder r = HealthCheckResponse.named("god-loops");
        if (node == null || node.closed()) {
            return r.up().build(); // starting (the startup probe covers it) or stopping
        }
        java.util.List<String> dead = node.supervisor().dead();
        for (int i = 0; i < dead.size(); i++) {
            r.withData("dead" + (i == 0 ? "" : "-" + i), dead.get(i));
        }
        return r.status(dead.isEmpty()).build();
    }
}

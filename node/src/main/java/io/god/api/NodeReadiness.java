package io.god.api;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** Ready once the node has started (its data recovered) and while it is ACTIVE in its ring. */
@Readiness
@ApplicationScoped
public class NodeReadiness implements HealthCheck {

    @Inject
    NodeBean bean;

    @Override
    public HealthCheckResponse call() {
        var node = bean.node();
        return HealthCheckResponse.named("god-node").status(node != null && node.ready())
                .withData("state", node == null ? "STARTING" : node.state().name()).build();
    }
}

package io.god.operator.reconcile;

import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Instant;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import org.jboss.logging.Logger;

/** Kubernetes Events (core/v1) on a GodCluster, for what `kubectl describe` should show. Never fails a reconcile. */
public final class EventRecorder {

    private static final Logger LOG = Logger.getLogger(EventRecorder.class);
    public static final String NORMAL = "Normal";
    public static final String WARNING = "Warning";

    private final KubernetesClient client;

    public EventRecorder(KubernetesClient client) {
        this.client = client;
    }

    public void record(HasMetadata about, String type, String reason, String message) {
        String now = Instant.now().toString();
        String name = about.getMetadata().getName() + "."
                + Long.toHexString(System.currentTimeMillis()) + Integer.toHexString(ThreadLocalRandom.current().nextInt(4096));
        try {
            client.v1().events().inNamespace(about.getMetadata().getNamespace()).resource(new EventBuilder()
                    .withNewMetadata().withName(name.toLowerCase(Locale.ROOT))
                    .withNamespace(about.getMetadata().getNamespace()).endMetadata()
                    .withNewInvolvedObject().withApiVersion(about.getApiVersion()).withKind(about.getKind())
                    .withName(about.getMetadata().getName()).withNamespace(about.getMetadata().getNamespace())
                    .withUid(about.getMetadata().getUid()).endInvolvedObject()
                    .withType(type).withReason(reason).withMessage(message)
                    .withFirstTimestamp(now).withLastTimestamp(now).withCount(1)
                    .withNewSource().withComponent("god-operator").endSource()
                    .withReportingComponent("god-operator")
                    .build()).create();
        } catch (RuntimeException e) {
            LOG.warnf("could not record event %s on %s: %s", reason, about.getMetadata().getName(), e.getMessage());
        }
        LOG.infof("%s/%s %s: %s", about.getMetadata().getNamespace(), about.getMetadata().getName(), reason, message);
    }
}

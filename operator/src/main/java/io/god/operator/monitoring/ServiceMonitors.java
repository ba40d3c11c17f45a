package io.god.operator.monitoring;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.god.operator.model.GodCluster;
import io.god.operator.model.MonitoringSpec;
import io.god.operator.resources.DesiredObjects;
import io.god.operator.resources.Labels;
import io.god.operator.resources.Ports;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The ServiceMonitor of a GodCluster (Prometheus Operator), made with plain client calls on a generic resource: an
 * informer on a CRD that is not installed would fail the operator's start-up, and most clusters have no Prometheus
 * Operator. Each pass looks the CRD up by name (one GET), so installing the Prometheus Operator later is picked up by
 * the next reconcile.
 */
public final class ServiceMonitors {

    public static final String CRD = "servicemonitors.monitoring.coreos.com";
    public static final ResourceDefinitionContext CONTEXT = new ResourceDefinitionContext.Builder()
            .withGroup("monitoring.coreos.com").withVersion("v1").withKind("ServiceMonitor")
            .withPlural("servicemonitors").withNamespaced(true).build();

    /** What this pass did, for the Monitoring condition; {@code null} status means "no condition" (disabled). */
    public record Verdict(String status, String reason, String message, String change) {
        static final Verdict DISABLED = new Verdict(null, "Disabled", "", null);
    }

    private final KubernetesClient client;

    public ServiceMonitors(KubernetesClient client) {
        this.client = client;
    }

    public static boolean enabled(GodCluster cluster) {
        return cluster.getSpec() != null && cluster.getSpec().getMonitoring() != null
                && Boolean.TRUE.equals(cluster.getSpec().getMonitoring().getEnabled());
    }

    /**
     * Enabled: creates or repairs the ServiceMonitor, or reports that the CRD is missing. Disabled: deletes the
     * ServiceMonitor when the previous pass had made one ({@code made}), so a disabled cluster costs no API call.
     */
    public Verdict apply(GodCluster cluster, boolean made) {
        String ns = cluster.getMetadata().getNamespace();
        String name = Labels.metricsService(cluster);
        if (!enabled(cluster)) {
            if (made && client.genericKubernetesResources(CONTEXT).inNamespace(ns).withName(name).get() != null) {
                client.genericKubernetesResources(CONTEXT).inNamespace(ns).withName(name).delete();
                return new Verdict(null, "Disabled", "", "deleted ServiceMonitor " + name);
            }
            return Verdict.DISABLED;
        }
        if (client.apiextensions().v1().customResourceDefinitions().withName(CRD).get() == null) {
            return new Verdict("False", "ServiceMonitorCrdMissing", "spec.monitoring.enabled is true but the CRD " + CRD
                    + " is not installed (Prometheus Operator); scrape the Service " + name + " directly or install it",
                    null);
        }
        GenericKubernetesResource desired = desired(cluster);
        var resource = client.genericKubernetesResources(CONTEXT).inNamespace(ns).withName(name);
        GenericKubernetesResource actual = resource.get();
        String change = null;
        if (actual == null) {
            client.genericKubernetesResources(CONTEXT).inNamespace(ns).resource(desired).create();
            change = "created ServiceMonitor " + name;
        } else if (!inSync(actual, desired)) {
            resource.edit(current -> {
                Map<String, String> labels = new LinkedHashMap<>(
                        Optional.ofNullable(current.getMetadata().getLabels()).orElse(Map.of()));
                labels.putAll(desired.getMetadata().getLabels());
                current.getMetadata().setLabels(labels);
                current.getMetadata().setOwnerReferences(desired.getMetadata().getOwnerReferences());
                current.setAdditionalProperty("spec", desired.getAdditionalProperties().get("spec"));
                return current;
            });
            change = "updated ServiceMonitor " + name;
        }
        return new Verdict("True", "ServiceMonitorReady", "ServiceMonitor " + name + " scrapes port management ("
                + Ports.MANAGEMENT + ") /q/metrics of the Service " + name, change);
    }

    /** The monitor selects the metrics Service only (its own label), on the management port, with our labels. */
    public static GenericKubernetesResource desired(GodCluster cluster) {
        MonitoringSpec spec = cluster.getSpec().getMonitoring();
        Map<String, String> labels = new LinkedHashMap<>(Optional.ofNullable(spec.getLabels()).orElse(Map.of()));
        labels.putAll(Labels.common(cluster)); // ours win
        Map<String, String> selector = new LinkedHashMap<>(Labels.selector(cluster));
        selector.put(Labels.METRICS, "true");
        Map<String, Object> endpoint = new LinkedHashMap<>();
        endpoint.put("port", "management");
        endpoint.put("path", "/q/metrics");
        if (spec.getBearerTokenSecret() != null) {
            endpoint.put("authorization", Map.of("type", "Bearer", "credentials", Map.of(
                    "name", spec.getBearerTokenSecret().getName(), "key", spec.getBearerTokenSecret().getKey())));
        }
        Map<String, Object> monitorSpec = new LinkedHashMap<>();
        monitorSpec.put("selector", Map.of("matchLabels", selector));
        monitorSpec.put("namespaceSelector", Map.of("matchNames", List.of(cluster.getMetadata().getNamespace())));
        monitorSpec.put("endpoints", List.of(endpoint));
        GenericKubernetesResource monitor = new GenericKubernetesResource();
        monitor.setApiVersion("monitoring.coreos.com/v1");
        monitor.setKind("ServiceMonitor");
        monitor.setMetadata(new ObjectMetaBuilder().withName(Labels.metricsService(cluster))
                .withNamespace(cluster.getMetadata().getNamespace()).withLabels(labels)
                .withOwnerReferences(DesiredObjects.ownerReference(cluster)).build());
        monitor.setAdditionalProperty("spec", monitorSpec);
        return monitor;
    }

    private static boolean inSync(GenericKubernetesResource actual, GenericKubernetesResource desired) {
        Map<String, String> labels = Optional.ofNullable(actual.getMetadata().getLabels()).orElse(Map.of());
        boolean labelsOk = desired.getMetadata().getLabels().entrySet().stream()
                .allMatch(e -> e.getValue().equals(labels.get(e.getKey())));
        String owner = desired.getMetadata().getOwnerReferences().get(0).getUid();
        boolean owned = Optional.ofNullable(actual.getMetadata().getOwnerReferences()).orElse(List.of()).stream()
                .map(OwnerReference::getUid).anyMatch(owner::equals);
        return labelsOk && owned
                && Objects.equals(actual.getAdditionalProperties().get("spec"), desired.getAdditionalProperties().get("spec"));
    }
}

package io.god.operator.monitoring;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.SecretKeySelector;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.god.operator.model.GodCluster;
import io.god.operator.model.MonitoringSpec;
import io.god.operator.resources.DesiredObjects;
import io.god.operator.resources.Labels;
import io.god.operator.resources.NodeSecrets;
import io.god.operator.resources.Ports;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The monitor of a GodCluster (Prometheus Operator): a ServiceMonitor (default) or a PodMonitor, by
 * {@code spec.monitoring.kind}, made with plain client calls on a generic resource: an informer on a CRD that is not
 * installed would fail the operator's start-up, and most clusters have no Prometheus Operator. Each pass looks the
 * kind's CRD up by name (one GET), so installing the Prometheus Operator later is picked up by the next reconcile.
 */
public final class ServiceMonitors {

    public static final String CRD = "servicemonitors.monitoring.coreos.com";
    public static final String POD_CRD = "podmonitors.monitoring.coreos.com";
    public static final ResourceDefinitionContext CONTEXT = new ResourceDefinitionContext.Builder()
            .withGroup("monitoring.coreos.com").withVersion("v1").withKind("ServiceMonitor")
            .withPlural("servicemonitors").withNamespaced(true).build();
    public static final ResourceDefinitionContext POD_CONTEXT = new ResourceDefinitionContext.Builder()
            .withGroup("monitoring.coreos.com").withVersion("v1").withKind("PodMonitor")
            .withPlural("podmonitors").withNamespaced(true).build();

    public static final String SERVICE_MONITOR = "ServiceMonitor";
    public static final String POD_MONITOR = "PodMonitor";

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

    /** {@code spec.monitoring.kind}: ServiceMonitor (default) or PodMonitor. */
    public static String kind(GodCluster cluster) {
        String kind = cluster.getSpec() == null || cluster.getSpec().getMonitoring() == null ? null
                : cluster.getSpec().getMonitoring().getKind();
        return POD_MONITOR.equals(kind) ? POD_MONITOR : SERVICE_MONITOR;
    }

    private static ResourceDefinitionContext context(String kind) {
        return POD_MONITOR.equals(kind) ? POD_CONTEXT : CONTEXT;
    }

    /** The kind the Monitoring condition of a previous pass says was made ({@code <Kind>Ready}), or null. */
    public static String madeBy(String reason) {
        return reason == null ? null : reason.equals(POD_MONITOR + "Ready") ? POD_MONITOR
                : reason.equals(SERVICE_MONITOR + "Ready") ? SERVICE_MONITOR : null;
    }

    /**
     * Enabled: creates or repairs the monitor of spec.monitoring.kind, or reports that the kind's CRD is missing; the
     * other kind's monitor is deleted when the previous pass had made that one. Disabled: deletes the monitor the previous pass had
     * made ({@code made}: its kind, null = none), so a disabled cluster costs no API call.
     */
    public Verdict apply(GodCluster cluster, String made) {
        String ns = cluster.getMetadata().getNamespace();
        String name = Labels.metricsService(cluster);
        if (!enabled(cluster)) {
            String deleted = made == null ? null : delete(ns, name, made);
            return deleted == null ? Verdict.DISABLED : new Verdict(null, "Disabled", "", deleted);
        }
        String kind = kind(cluster);
        // spec.monitoring.kind changed: the other kind's monitor goes first (even when this kind's CRD is missing,
        // since the condition that remembers it turns False then)
        String replaced = made != null && !made.equals(kind) ? delete(ns, name, made) : null;
        String crd = POD_MONITOR.equals(kind) ? POD_CRD : CRD;
        if (client.apiextensions().v1().customResourceDefinitions().withName(crd).get() == null) {
            return new Verdict("False", kind + "CrdMissing", "spec.monitoring.enabled is true but the CRD " + crd
                    + " is not installed (Prometheus Operator); scrape the " + (POD_MONITOR.equals(kind)
                    ? "member pods' port management" : "Service " + name) + " directly or install it", replaced);
        }
        GenericKubernetesResource desired = desired(cluster);
        var resource = client.genericKubernetesResources(context(kind)).inNamespace(ns).withName(name);
        GenericKubernetesResource actual = resource.get();
        List<String> changes = new java.util.ArrayList<>();
        if (replaced != null) {
            changes.add(replaced);
        }
        if (actual == null) {
            client.genericKubernetesResources(context(kind)).inNamespace(ns).resource(desired).create();
            changes.add("created " + kind + " " + name);
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
            changes.add("updated " + kind + " " + name);
        }
        return new Verdict("True", kind + "Ready", kind + " " + name + " scrapes port management ("
                + Ports.MANAGEMENT + ") /q/metrics of " + (POD_MONITOR.equals(kind) ? "every member pod"
                : "the Service " + name), changes.isEmpty() ? null : String.join("; ", changes));
    }

    /** Deletes the monitor of this kind when it exists; what was done, or null. */
    private String delete(String ns, String name, String kind) {
        var resource = client.genericKubernetesResources(context(kind)).inNamespace(ns).withName(name);
        if (resource.get() == null) {
            return null;
        }
        resource.delete();
        return "deleted " + kind + " " + name;
    }

    /**
     * A ServiceMonitor selects the metrics Service only (its own label); a PodMonitor selects the member pods; both on
     * the management port, with our labels, sending the metrics credential ({@link #bearerSecret}).
     */
    public static GenericKubernetesResource desired(GodCluster cluster) {
        MonitoringSpec spec = cluster.getSpec().getMonitoring();
        String kind = kind(cluster);
        Map<String, String> labels = new LinkedHashMap<>(Optional.ofNullable(spec.getLabels()).orElse(Map.of()));
        labels.putAll(Labels.common(cluster)); // ours win
        Map<String, String> selector = new LinkedHashMap<>(Labels.selector(cluster));
        if (SERVICE_MONITOR.equals(kind)) {
            selector.put(Labels.METRICS, "true");
        }
        Map<String, Object> endpoint = new LinkedHashMap<>();
        endpoint.put("port", "management");
        endpoint.put("path", "/q/metrics");
        endpoint.put("authorization", Map.of("type", "Bearer", "credentials", bearerSecret(cluster)));
        Map<String, Object> monitorSpec = new LinkedHashMap<>();
        monitorSpec.put("selector", Map.of("matchLabels", selector));
        monitorSpec.put("namespaceSelector", Map.of("matchNames", List.of(cluster.getMetadata().getNamespace())));
        monitorSpec.put(SERVICE_MONITOR.equals(kind) ? "endpoints" : "podMetricsEndpoints", List.of(endpoint));
        GenericKubernetesResource monitor = new GenericKubernetesResource();
        monitor.setApiVersion("monitoring.coreos.com/v1");
        monitor.setKind(kind);
        monitor.setMetadata(new ObjectMetaBuilder().withName(Labels.metricsService(cluster))
                .withNamespace(cluster.getMetadata().getNamespace()).withLabels(labels)
                .withOwnerReferences(DesiredObjects.ownerReference(cluster)).build());
        monitor.setAdditionalProperty("spec", monitorSpec);
        return monitor;
    }

    /**
     * The Secret key the monitor sends as {@code Authorization: Bearer}: spec.monitoring.bearerTokenSecret when set,
     * else the metrics credential's Secret (generated {@code <cluster>-metrics-token} unless spec.auth.metricsSecret
     * names one). The field is {@code authorization} on both kinds: a ServiceMonitor endpoint's
     * {@code bearerTokenSecret} is deprecated in the Prometheus Operator in favour of it.
     */
    static Map<String, String> bearerSecret(GodCluster cluster) {
        SecretKeySelector named = cluster.getSpec().getMonitoring().getBearerTokenSecret();
        return named != null ? Map.of("name", named.getName(), "key", named.getKey())
                : Map.of("name", NodeSecrets.credential(cluster, NodeSecrets.Credential.METRICS).secretName(),
                        "key", NodeSecrets.TOKEN_KEY);
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

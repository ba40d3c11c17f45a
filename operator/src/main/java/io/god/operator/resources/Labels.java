package io.god.operator.resources;

import io.god.operator.model.GodCluster;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** Labels on everything the operator owns, and the names of the owned objects. */
public final class Labels {

    public static final String NAME = "app.kubernetes.io/name";
    public static final String INSTANCE = "app.kubernetes.io/instance";
    public static final String MANAGED_BY = "app.kubernetes.io/managed-by";
    public static final String COMPONENT = "app.kubernetes.io/component";
    /** Only on the metrics Service: what the ServiceMonitor selects (every owned Service has the common labels). */
    public static final String METRICS = "god.io/metrics";
    public static final String APP = "god";
    public static final String OPERATOR = "god-operator";
    public static final List<String> SELECTOR_KEYS = List.of(NAME, INSTANCE);
    /** Selects every object the operator owns (its informers watch only these). */
    public static final String MANAGED_SELECTOR = MANAGED_BY + "=" + OPERATOR;

    private Labels() {
    }

    /** Labels that select the member pods of one cluster (StatefulSet, Services, PDB). */
    public static Map<String, String> selector(GodCluster cluster) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(NAME, APP);
        m.put(INSTANCE, cluster.getMetadata().getName());
        return m;
    }

    public static String selectorString(GodCluster cluster) {
        return selector(cluster).entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(","));
    }

    public static Map<String, String> common(GodCluster cluster) {
        Map<String, String> m = selector(cluster);
        m.put(MANAGED_BY, OPERATOR);
        m.put(COMPONENT, "node");
        return m;
    }

    public static String peersService(GodCluster cluster) {
        return cluster.getMetadata().getName() + "-peers";
    }

    /** The headless Service of the members' management port (metrics for Prometheus, issue 37). */
    public static String metricsService(GodCluster cluster) {
        return cluster.getMetadata().getName() + "-metrics";
    }

    public static String clientService(GodCluster cluster) {
        return cluster.getMetadata().getName();
    }

    /** The ConfigMap of what may change while members run (GOD_SEEDS). */
    public static String configMap(GodCluster cluster) {
        return cluster.getMetadata().getName() + "-config";
    }

    /** Label of a revision ConfigMap: the hash of the restart-relevant config it holds. */
    public static final String CONFIG_REVISION = "god.io/config-revision";

    /** The immutable ConfigMap of one revision of the restart-relevant config, named by its hash. */
    public static String configRevision(GodCluster cluster, String hash) {
        return configMap(cluster) + "-" + hash;
    }

    public static String statefulSet(GodCluster cluster) {
        return cluster.getMetadata().getName();
    }

    public static String podDisruptionBudget(GodCluster cluster) {
        return cluster.getMetadata().getName();
    }

    public static String networkPolicy(GodCluster cluster) {
        return cluster.getMetadata().getName();
    }

    public static String pod(GodCluster cluster, int ordinal) {
        return statefulSet(cluster) + "-" + ordinal;
    }

    /** The DNS name a member advertises and other members dial: pod.peers.namespace.svc:9191. */
    public static String podAddress(GodCluster cluster, String podName) {
        return podName + "." + peersService(cluster) + "." + cluster.getMetadata().getNamespace() + ".svc:"
                + Ports.BINARY;
    }
}

package io.god.operator.reconcile;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.god.operator.model.GoDuration;
import io.god.operator.model.GodClusterSpec;
import io.god.operator.model.PodTemplateOverrides;
import io.god.operator.model.Settings;
import io.god.operator.resources.DesiredObjects;
import io.god.operator.resources.Labels;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Checks a spec the API server may not have checked (older CRD, no CEL, a mock server). Returns every problem at
 * once, each naming the field, so one edit can fix them all.
 */
public final class SpecValidator {

    static final Duration MIN_TOMBSTONE_WINDOW = Duration.ofHours(1);
    private static final Set<String> FSYNC = Set.of("always", "everysec", "no");
    private static final Set<String> SERVICE_TYPES = Set.of("ClusterIP", "NodePort", "LoadBalancer");

    private SpecValidator() {
    }

    public static List<String> problems(GodClusterSpec spec, Settings s) {
        List<String> problems = new ArrayList<>();
        if (s.replicas() < 0) {
            problems.add("spec.replicas must be >= 0, got " + s.replicas());
        }
        if (s.redundancy() < 1) {
            problems.add("spec.redundancy must be >= 1, got " + s.redundancy());
        }
        if (s.image() == null || s.image().isBlank()) {
            problems.add("spec.image is empty and the operator has no default image");
        }
        checkWindow(s.tombstoneWindow(), problems);
        checkOperationTimeout(s.operationTimeout(), problems);
        checkSize(s.storageSize(), problems);
        if (!FSYNC.contains(s.fsync())) {
            problems.add("spec.persistence.fsync must be one of always, everysec, no; got '" + s.fsync() + "'");
        }
        if (s.snapshotThreshold() != null && s.snapshotThreshold() < 1) {
            problems.add("spec.persistence.snapshotThreshold must be >= 1, got " + s.snapshotThreshold());
        }
        if (!SERVICE_TYPES.contains(s.serviceType())) {
            problems.add("spec.service.type must be one of ClusterIP, NodePort, LoadBalancer; got '" + s.serviceType() + "'");
        }
        checkPodLabels(s.podTemplate(), problems);
        if (spec != null && spec.getTls() != null
                && (spec.getTls().getSecretName() == null || spec.getTls().getSecretName().isBlank())) {
            problems.add("spec.tls.secretName is required with spec.tls (the Secret with tls.crt, tls.key and ca.crt)");
        }
        return problems;
    }

    /**
     * A cluster's client Service is named after it and its headless Service after it + "-peers": cluster "x-peers"
     * would collide with cluster x's headless Service.
     */
    public static void checkName(String name, List<String> problems) {
        if (name != null && name.endsWith("-peers")) {
            problems.add("metadata.name must not end in -peers (the headless Service of a cluster named '"
                    + name.substring(0, name.length() - "-peers".length()) + "' has that name), got '" + name + "'");
        }
    }

    /**
     * N is fixed after creation: members with different N place copies differently, so a ring never becomes
     * replicated across such a change (DESIGN §8). Move the data to a new GodCluster to change it.
     */
    public static void checkRedundancy(Settings s, Integer fixed, List<String> problems) {
        if (fixed != null && fixed != s.redundancy()) {
            problems.add("spec.redundancy is fixed after creation: the ring runs with " + fixed + ", got "
                    + s.redundancy() + " (set it back; to change N, back up and restore into a new GodCluster)");
        }
    }

    /** Differences between the storage settings and the StatefulSet's claim template, which cannot change. */
    public static List<String> storageChanges(Settings s, StatefulSet existing) {
        List<String> problems = new ArrayList<>();
        existing.getSpec().getVolumeClaimTemplates().stream()
                .filter(t -> DesiredObjects.DATA_VOLUME.equals(t.getMetadata().getName())).findFirst()
                .ifPresent(claim -> {
                    Quantity size = claim.getSpec().getResources().getRequests().get("storage");
                    if (size != null && Quantity.getAmountInBytes(size)
                            .compareTo(Quantity.getAmountInBytes(new Quantity(s.storageSize()))) != 0) {
                        problems.add("spec.storage.size cannot change after creation: the volumes were made with "
                                + size + ", spec asks for " + s.storageSize());
                    }
                    if (!Objects.equals(claim.getSpec().getStorageClassName(), s.storageClassName())) {
                        problems.add("spec.storage.storageClassName cannot change after creation: the volumes use "
                                + claim.getSpec().getStorageClassName() + ", spec asks for " + s.storageClassName());
                    }
                });
        return problems;
    }

    private static void checkWindow(String window, List<String> problems) {
        try {
            if (GoDuration.parse(window).compareTo(MIN_TOMBSTONE_WINDOW) < 0) {
                problems.add("spec.tombstoneWindow must be at least 1h, got " + window);
            }
        } catch (IllegalArgumentException e) {
            problems.add("spec.tombstoneWindow: " + e.getMessage());
        }
    }

    private static void checkOperationTimeout(String timeout, List<String> problems) {
        try {
            if (GoDuration.parse(timeout).isZero()) {
                problems.add("spec.operationTimeout must be positive, got " + timeout);
            }
        } catch (IllegalArgumentException e) {
            problems.add("spec.operationTimeout: " + e.getMessage());
        }
    }

    private static void checkSize(String size, List<String> problems) {
        try {
            if (Quantity.getAmountInBytes(new Quantity(size)).compareTo(BigDecimal.ZERO) <= 0) {
                problems.add("spec.storage.size must be positive, got " + size);
            }
        } catch (RuntimeException e) {
            problems.add("spec.storage.size: '" + size + "' is not a quantity like 10Gi");
        }
    }

    private static void checkPodLabels(PodTemplateOverrides template, List<String> problems) {
        if (template.getLabels() == null) {
            return;
        }
        for (String key : Labels.SELECTOR_KEYS) {
            if (template.getLabels().containsKey(key)) {
                problems.add("spec.podTemplate.labels must not set " + key + " (it selects the member pods)");
            }
        }
    }
}

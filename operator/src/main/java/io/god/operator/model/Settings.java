package io.god.operator.model;

import io.fabric8.kubernetes.api.model.ResourceRequirements;
import java.util.Optional;

/**
 * A spec with every default applied. The API server applies the same defaults from the CRD schema; the operator
 * applies them again so that objects created before a default existed (or on servers without defaulting) behave alike.
 */
public record Settings(int replicas, String image, int redundancy, String tombstoneWindow, String storageSize,
        String storageClassName, boolean deleteClaimOnScaleDown, ResourceRequirements resources, String fsync,
        Long snapshotThreshold, String restartNonce, boolean paused, PodTemplateOverrides podTemplate,
        String serviceType, String operationTimeout) {

    public static final int DEFAULT_REPLICAS = 3;
    public static final int DEFAULT_REDUNDANCY = 3;
    public static final String DEFAULT_TOMBSTONE_WINDOW = "24h";
    public static final String DEFAULT_STORAGE_SIZE = "1Gi";
    public static final String DEFAULT_FSYNC = "everysec";
    public static final String DEFAULT_SERVICE_TYPE = "ClusterIP";
    public static final String DEFAULT_OPERATION_TIMEOUT = "30m";

    public static Settings of(GodClusterSpec spec, String defaultImage) {
        GodClusterSpec s = spec == null ? new GodClusterSpec() : spec;
        StorageSpec storage = Optional.ofNullable(s.getStorage()).orElseGet(StorageSpec::new);
        PersistenceSpec persistence = Optional.ofNullable(s.getPersistence()).orElseGet(PersistenceSpec::new);
        ServiceSettings service = Optional.ofNullable(s.getService()).orElseGet(ServiceSettings::new);
        return new Settings(
                or(s.getReplicas(), DEFAULT_REPLICAS),
                blankOr(s.getImage(), defaultImage),
                or(s.getRedundancy(), DEFAULT_REDUNDANCY),
                blankOr(s.getTombstoneWindow(), DEFAULT_TOMBSTONE_WINDOW),
                blankOr(storage.getSize(), DEFAULT_STORAGE_SIZE),
                storage.getStorageClassName(),
                or(storage.getDeleteClaimOnScaleDown(), true),
                s.getResources(),
                blankOr(persistence.getFsync(), DEFAULT_FSYNC),
                persistence.getSnapshotThreshold(),
                s.getRestartNonce(),
                or(s.getPaused(), false),
                Optional.ofNullable(s.getPodTemplate()).orElseGet(PodTemplateOverrides::new),
                blankOr(service.getType(), DEFAULT_SERVICE_TYPE),
                blankOr(s.getOperationTimeout(), DEFAULT_OPERATION_TIMEOUT));
    }

    private static <T> T or(T value, T fallback) {
        return value == null ? fallback : value;
    }

    private static String blankOr(String value, String fallback) {
        return value == null || value.isBlank() ? fallback : value;
    }
}

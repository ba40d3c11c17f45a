package io.god.operator.model;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.ValidationRule;

/** The PersistentVolumeClaim template of each member. */
public class StorageSpec {

    /** Kubernetes quantity syntax (as in resource.Quantity). */
    public static final String QUANTITY_PATTERN =
            "^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$";

    @Pattern(QUANTITY_PATTERN)
    @Default("1Gi")
    @ValidationRule(value = "self == oldSelf",
            message = "storage.size is immutable (StatefulSet volumeClaimTemplates cannot change)")
    @JsonPropertyDescription("Requested size of each member's volume, e.g. 10Gi. Immutable.")
    private String size;

    @ValidationRule(value = "self == oldSelf", message = "storage.storageClassName is immutable")
    @JsonPropertyDescription("StorageClass of the volumes; the cluster default when empty. Immutable.")
    private String storageClassName;

    @Default("true")
    @JsonPropertyDescription("Delete a member's PVC after it has been drained on scale-down (never on hibernation).")
    private Boolean deleteClaimOnScaleDown;

    public String getSize() { return size; }
    public void setSize(String size) { this.size = size; }
    public String getStorageClassName() { return storageClassName; }
    public void setStorageClassName(String storageClassName) { this.storageClassName = storageClassName; }
    public Boolean getDeleteClaimOnScaleDown() { return deleteClaimOnScaleDown; }
    public void setDeleteClaimOnScaleDown(Boolean deleteClaimOnScaleDown) { this.deleteClaimOnScaleDown = deleteClaimOnScaleDown; }
}

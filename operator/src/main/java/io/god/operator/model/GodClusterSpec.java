package io.god.operator.model;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.model.annotation.SpecReplicas;

/** Desired state of a god ring. Field defaults mirror {@link Defaults}, which the operator applies to unset fields. */
@ValidationRule(value = "has(self.tls) == has(oldSelf.tls) || (has(self.replicas) && self.replicas == 0"
        + " && has(oldSelf.replicas) && oldSelf.replicas == 0)", message = "spec.tls is added or removed only while"
        + " the ring is hibernated (replicas 0 before and after): members with and without TLS cannot talk to each"
        + " other during a roll")
public class GodClusterSpec {

    /** Go-style duration as the node and CEL's duration() accept it: 90m, 24h, 1h30m. */
    public static final String DURATION_PATTERN = "^([0-9]+(\\.[0-9]+)?(ns|us|ms|s|m|h))+$";

    @SpecReplicas
    @Min(0)
    @Default("3")
    @JsonPropertyDescription("Number of ring members (pods). 0 hibernates the ring: pods stop, PVCs and data are kept.")
    private Integer replicas;

    @JsonPropertyDescription("Node container image; the operator's configured default image when empty.")
    private String image;

    @Min(1)
    @Default("3")
    @ValidationRule(value = "self == oldSelf", message = "redundancy is fixed after creation (to change N, back up and"
            + " restore into a new GodCluster)")
    @JsonPropertyDescription("Replication factor N: each key is held by N successive ring members. Fixed after"
            + " creation.")
    private Integer redundancy;

    @Pattern(DURATION_PATTERN)
    @Default("24h")
    @ValidationRule(value = "duration(self) >= duration('1h')", message = "tombstoneWindow must be at least 1h")
    @JsonPropertyDescription("How long tombstones are kept before collection (Go duration, at least 1h).")
    private String tombstoneWindow;

    @Pattern(DURATION_PATTERN)
    @Default("30m")
    @JsonPropertyDescription("How long an operation (drain, restart, removal, replacement) may go without progress"
            + " before the operator reports ProgressDeadlineExceeded (Go duration). It only reports; nothing is"
            + " cancelled.")
    private String operationTimeout;

    @JsonPropertyDescription("Persistent volume of each member.")
    private StorageSpec storage;

    @JsonPropertyDescription("Compute resources of the node container.")
    private ResourceRequirements resources;

    @JsonPropertyDescription("Write-ahead log and snapshot settings of the nodes.")
    private PersistenceSpec persistence;

    @JsonPropertyDescription("Change this value to restart every member, one at a time.")
    private String restartNonce;

    @Default("false")
    @JsonPropertyDescription("When true the operator reports status but changes nothing.")
    private Boolean paused;

    @JsonPropertyDescription("Additions to the member pods: labels, annotations, scheduling.")
    private PodTemplateOverrides podTemplate;

    @JsonPropertyDescription("The client Service (HTTP 9192, binary 9191).")
    private ServiceSettings service;

    @JsonPropertyDescription("Prometheus Operator integration (a ServiceMonitor or PodMonitor for the members' metrics).")
    private MonitoringSpec monitoring;

    @JsonPropertyDescription("The nodes' credentials (client, peer, admin), each from a Secret; made by the operator"
            + " with random values for every Secret not named here.")
    private AuthSpec auth;

    @JsonPropertyDescription("TLS of the members from a Secret (cert-manager layout); plain TCP when absent.")
    private TlsSpec tls;

    @JsonPropertyDescription("The NetworkPolicy fencing the members' ports (on unless enabled is false).")
    private NetworkPolicySpec networkPolicy;

    public Integer getReplicas() { return replicas; }
    public void setReplicas(Integer replicas) { this.replicas = replicas; }
    public String getImage() { return image; }
    public void setImage(String image) { this.image = image; }
    public Integer getRedundancy() { return redundancy; }
    public void setRedundancy(Integer redundancy) { this.redundancy = redundancy; }
    public String getTombstoneWindow() { return tombstoneWindow; }
    public void setTombstoneWindow(String tombstoneWindow) { this.tombstoneWindow = tombstoneWindow; }
    public String getOperationTimeout() { return operationTimeout; }
    public void setOperationTimeout(String operationTimeout) { this.operationTimeout = operationTimeout; }
    public StorageSpec getStorage() { return storage; }
    public void setStorage(StorageSpec storage) { this.storage = storage; }
    public ResourceRequirements getResources() { return resources; }
    public void setResources(ResourceRequirements resources) { this.resources = resources; }
    public PersistenceSpec getPersistence() { return persistence; }
    public void setPersistence(PersistenceSpec persistence) { this.persistence = persistence; }
    public String getRestartNonce() { return restartNonce; }
    public void setRestartNonce(String restartNonce) { this.restartNonce = restartNonce; }
    public Boolean getPaused() { return paused; }
    public void setPaused(Boolean paused) { this.paused = paused; }
    public PodTemplateOverrides getPodTemplate() { return podTemplate; }
    public void setPodTemplate(PodTemplateOverrides podTemplate) { this.podTemplate = podTemplate; }
    public ServiceSettings getService() { return service; }
    public void setService(ServiceSettings service) { this.service = service; }
    public AuthSpec getAuth() { return auth; }
    public void setAuth(AuthSpec auth) { this.auth = auth; }
    public TlsSpec getTls() { return tls; }
    public void setTls(TlsSpec tls) { this.tls = tls; }
    public NetworkPolicySpec getNetworkPolicy() { return networkPolicy; }
    public void setNetworkPolicy(NetworkPolicySpec networkPolicy) { this.networkPolicy = networkPolicy; }
    public MonitoringSpec getMonitoring() { return monitoring; }
    public void setMonitoring(MonitoringSpec monitoring) { this.monitoring = monitoring; }
}

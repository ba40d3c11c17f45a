package io.god.operator.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.model.annotation.LabelSelector;
import io.fabric8.kubernetes.model.annotation.StatusReplicas;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** Observed state of a god ring, written only by the operator. */
// a status written by another operator version (e.g. the removed lastSeenInRing) must still read
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public class GodClusterStatus {

    @JsonPropertyDescription("The metadata.generation this status describes.")
    private Long observedGeneration;

    @StatusReplicas
    @JsonPropertyDescription("Member pods that exist.")
    private Integer replicas;

    @JsonPropertyDescription("Member pods that are Ready.")
    private Integer readyReplicas;

    @LabelSelector
    @JsonPropertyDescription("Label selector of the member pods (scale subresource).")
    private String selector;

    @JsonPropertyDescription("ScalingUp, ScalingDown, ScaleDownRefused, RollingRestart, Running, Degraded, Hibernating, Hibernated, Paused, Invalid or Blocked (an object of the cluster's names belongs to someone else).")
    private String phase;

    @JsonPropertyDescription("Ready, Progressing (reason ScalingUp, ScalingDown, ScaleDownRefused, RollingRestart, Replacing, ProgressDeadlineExceeded or Idle), Replicated, Degraded, FullRedundancy (False while spec.replicas < spec.redundancy), ReconciliationPaused.")
    private List<Condition> conditions = new ArrayList<>();

    @JsonPropertyDescription("One entry per ordinal, as seen through the pods and each node's /admin/status.")
    private List<Member> members = new ArrayList<>();

    @JsonPropertyDescription("The ring hash all reachable members agree on; empty while they disagree.")
    private String ringHash;

    @JsonPropertyDescription("The multi-step operation in progress, so a restarted operator resumes it.")
    private Operation operation;

    @JsonPropertyDescription("PVCs of ordinals outside the StatefulSet that the operator kept (a member removed without"
            + " a drain, or deleteClaimOnScaleDown false). Delete them with kubectl once their data is not needed.")
    private List<String> keptClaims;

    @JsonPropertyDescription("The last replace request accepted (annotation god.io/replace-member).")
    private Replacement lastReplacement;

    @JsonPropertyDescription("The replication factor N the ring was created with: spec.redundancy cannot change it.")
    private Integer redundancy;

    @JsonPropertyDescription("A wait with no operation open (the ring not healthy enough for the next step), since"
            + " when: spec.operationTimeout reports it too.")
    private Wait waiting;

    public Long getObservedGeneration() { return observedGeneration; }
    public void setObservedGeneration(Long observedGeneration) { this.observedGeneration = observedGeneration; }
    public Integer getReplicas() { return replicas; }
    public void setReplicas(Integer replicas) { this.replicas = replicas; }
    public Integer getReadyReplicas() { return readyReplicas; }
    public void setReadyReplicas(Integer readyReplicas) { this.readyReplicas = readyReplicas; }
    public String getSelector() { return selector; }
    public void setSelector(String selector) { this.selector = selector; }
    public String getPhase() { return phase; }
    public void setPhase(String phase) { this.phase = phase; }
    public List<Condition> getConditions() { return conditions; }
    public void setConditions(List<Condition> conditions) { this.conditions = conditions; }
    public List<Member> getMembers() { return members; }
    public void setMembers(List<Member> members) { this.members = members; }
    public String getRingHash() { return ringHash; }
    public void setRingHash(String ringHash) { this.ringHash = ringHash; }
    public Operation getOperation() { return operation; }
    public void setOperation(Operation operation) { this.operation = operation; }
    public List<String> getKeptClaims() { return keptClaims; }
    public void setKeptClaims(List<String> keptClaims) { this.keptClaims = keptClaims; }
    public Replacement getLastReplacement() { return lastReplacement; }
    public void setLastReplacement(Replacement lastReplacement) { this.lastReplacement = lastReplacement; }
    public Integer getRedundancy() { return redundancy; }
    public void setRedundancy(Integer redundancy) { this.redundancy = redundancy; }
    public Wait getWaiting() { return waiting; }
    public void setWaiting(Wait waiting) { this.waiting = waiting; }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof GodClusterStatus s)) return false;
        return Objects.equals(observedGeneration, s.observedGeneration) && Objects.equals(replicas, s.replicas)
                && Objects.equals(readyReplicas, s.readyReplicas) && Objects.equals(selector, s.selector)
                && Objects.equals(phase, s.phase) && Objects.equals(conditions, s.conditions)
                && Objects.equals(members, s.members) && Objects.equals(ringHash, s.ringHash)
                && Objects.equals(operation, s.operation) && Objects.equals(keptClaims, s.keptClaims)
                && Objects.equals(lastReplacement, s.lastReplacement) && Objects.equals(waiting, s.waiting);
    }

    @Override
    public int hashCode() {
        return Objects.hash(observedGeneration, replicas, readyReplicas, phase, ringHash);
    }
}

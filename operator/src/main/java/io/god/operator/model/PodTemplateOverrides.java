package io.god.operator.model;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraint;
import java.util.List;
import java.util.Map;

/** What users may add to the member pods. The operator's own labels always win. */
public class PodTemplateOverrides {

    @ValidationRule(value = "!('app.kubernetes.io/name' in self) && !('app.kubernetes.io/instance' in self)",
            message = "podTemplate.labels must not set app.kubernetes.io/name or app.kubernetes.io/instance (the pod selector)")
    @JsonPropertyDescription("Extra pod labels.")
    private Map<String, String> labels;

    @JsonPropertyDescription("Extra pod annotations.")
    private Map<String, String> annotations;

    @JsonPropertyDescription("Node selector of the pods.")
    private Map<String, String> nodeSelector;

    @JsonPropertyDescription("Tolerations of the pods.")
    private List<Toleration> tolerations;

    @JsonPropertyDescription("Affinity of the pods; without podAntiAffinity the operator adds a preferred spread across nodes.")
    private Affinity affinity;

    @JsonPropertyDescription("Topology spread constraints of the pods (e.g. across zones).")
    private List<TopologySpreadConstraint> topologySpreadConstraints;

    @JsonPropertyDescription("Timing of the node container's startup, liveness and readiness probes.")
    private ProbeOverrides probes;

    public Map<String, String> getLabels() { return labels; }
    public void setLabels(Map<String, String> labels) { this.labels = labels; }
    public Map<String, String> getAnnotations() { return annotations; }
    public void setAnnotations(Map<String, String> annotations) { this.annotations = annotations; }
    public Map<String, String> getNodeSelector() { return nodeSelector; }
    public void setNodeSelector(Map<String, String> nodeSelector) { this.nodeSelector = nodeSelector; }
    public List<Toleration> getTolerations() { return tolerations; }
    public void setTolerations(List<Toleration> tolerations) { this.tolerations = tolerations; }
    public Affinity getAffinity() { return affinity; }
    public void setAffinity(Affinity affinity) { this.affinity = affinity; }
    public List<TopologySpreadConstraint> getTopologySpreadConstraints() { return topologySpreadConstraints; }
    public void setTopologySpreadConstraints(List<TopologySpreadConstraint> c) { this.topologySpreadConstraints = c; }
    public ProbeOverrides getProbes() { return probes; }
    public void setProbes(ProbeOverrides probes) { this.probes = probes; }
}

package io.god.operator.model;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import java.util.List;

/**
 * The NetworkPolicy <cluster> fencing the members' ports: everything from the cluster's own pods (ring traffic), the
 * management port 9000 from the operator's namespace and {@link #monitoring}, the data ports from {@link #clients}.
 */
public class NetworkPolicySpec {

    @Default("true")
    @JsonPropertyDescription("When true (the default) the operator keeps the NetworkPolicy <cluster>; false deletes it.")
    private Boolean enabled;

    @JsonPropertyDescription("Who may reach the data ports (HTTP 9192, binary 9191, RESP 6379), as NetworkPolicy"
            + " peers (podSelector, namespaceSelector, ipBlock). Default: every pod of the cluster's namespace.")
    private List<NetworkPolicyPeer> clients;

    @JsonPropertyDescription("Who else may reach the management port 9000 (/q/metrics), e.g. Prometheus:"
            + " [{namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: monitoring}}}]. The operator's"
            + " namespace always may.")
    private List<NetworkPolicyPeer> monitoring;

    public Boolean getEnabled() { return enabled; }
    public void setEnabled(Boolean enabled) { this.enabled = enabled; }
    public List<NetworkPolicyPeer> getClients() { return clients; }
    public void setClients(List<NetworkPolicyPeer> clients) { this.clients = clients; }
    public List<NetworkPolicyPeer> getMonitoring() { return monitoring; }
    public void setMonitoring(List<NetworkPolicyPeer> monitoring) { this.monitoring = monitoring; }
}

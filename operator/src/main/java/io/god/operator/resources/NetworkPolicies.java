package io.god.operator.resources;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyIngressRule;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyIngressRuleBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeerBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPort;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPortBuilder;
import io.god.operator.model.GodCluster;
import io.god.operator.model.NetworkPolicySpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;

/**
 * The NetworkPolicy of a GodCluster (spec.networkPolicy), ingress only: the cluster's own pods reach every port (ring,
 * replication, sync, forwarding), the operator's namespace and the monitoring peers the management port, the client
 * peers the data ports. Anything else is dropped by a CNI that enforces NetworkPolicies; the kubelet's probes are
 * host traffic, which NetworkPolicies do not fence.
 */
public final class NetworkPolicies {

    /** The label every namespace carries with its name (Kubernetes 1.21+). */
    static final String NAMESPACE_NAME = "kubernetes.io/metadata.name";
    static final List<Integer> DATA_PORTS = List.of(Ports.HTTP, Ports.BINARY, Ports.RESP);

    private NetworkPolicies() {
    }

    public static boolean enabled(GodCluster cluster) {
        return spec(cluster).map(NetworkPolicySpec::getEnabled).orElse(true);
    }

    private static Optional<NetworkPolicySpec> spec(GodCluster cluster) {
        return Optional.ofNullable(cluster.getSpec().getNetworkPolicy());
    }

    /** @param operatorNamespace where the operator runs: its /admin calls come from there */
    static NetworkPolicy desired(GodCluster cluster, io.fabric8.kubernetes.api.model.ObjectMeta meta,
            String operatorNamespace) {
        Map<String, String> pods = Labels.selector(cluster);
        List<NetworkPolicyPeer> management = new ArrayList<>(List.of(new NetworkPolicyPeerBuilder()
                .withNewNamespaceSelector().addToMatchLabels(NAMESPACE_NAME, operatorNamespace).endNamespaceSelector()
                .build()));
        spec(cluster).map(NetworkPolicySpec::getMonitoring).ifPresent(management::addAll);
        List<NetworkPolicyPeer> clients = spec(cluster).map(NetworkPolicySpec::getClients)
                .filter(c -> !c.isEmpty())
                // an empty podSelector without a namespaceSelector: every pod of the policy's namespace
                .orElseGet(() -> List.of(new NetworkPolicyPeerBuilder().withNewPodSelector().endPodSelector().build()));
        return new NetworkPolicyBuilder().withMetadata(meta)
                .withNewSpec()
                .withNewPodSelector().withMatchLabels(pods).endPodSelector()
                .withPolicyTypes("Ingress")
                .withIngress(
                        rule(List.of(new NetworkPolicyPeerBuilder().withNewPodSelector().withMatchLabels(pods)
                                .endPodSelector().build()), List.of()),
                        rule(management, ports(Ports.MANAGEMENT)),
                        rule(clients, ports(DATA_PORTS.stream().mapToInt(Integer::intValue).toArray())))
                .endSpec().build();
    }

    /** No ports: every port. */
    private static NetworkPolicyIngressRule rule(List<NetworkPolicyPeer> from, List<NetworkPolicyPort> ports) {
        return new NetworkPolicyIngressRuleBuilder().withFrom(from).withPorts(ports.isEmpty() ? null : ports).build();
    }

    private static List<NetworkPolicyPort> ports(int... ports) {
        return IntStream.of(ports).mapToObj(p -> new NetworkPolicyPortBuilder().withProtocol("TCP")
                .withPort(new IntOrString(p)).build()).toList();
    }
}

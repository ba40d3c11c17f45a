package io.god.operator.resources;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyIngressRule;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeerBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPort;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.god.operator.model.GodCluster;
import io.god.operator.model.NetworkPolicySpec;
import io.god.operator.model.Settings;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The NetworkPolicy against spec.networkPolicy, read back as the API server would hand it (YAML → fabric8 model). */
class NetworkPoliciesTest {

    static final Map<String, String> MEMBERS = Map.of("app.kubernetes.io/name", "god", "app.kubernetes.io/instance",
            "demo");

    static NetworkPolicy policy(GodCluster gc) {
        NetworkPolicy desired = new DesiredObjects(gc, Settings.of(gc.getSpec(), "img:1"),
                new DesiredObjects.Secured("h", "god-ops")).networkPolicy().orElseThrow();
        return Serialization.unmarshal(Serialization.asYaml(desired), NetworkPolicy.class);
    }

    static List<Integer> ports(NetworkPolicyIngressRule rule) {
        return rule.getPorts().stream().map(NetworkPolicyPort::getPort).map(IntOrString::getIntVal).toList();
    }

    @Test
    void byDefaultTheRingTalksToItselfTheOperatorManagesAndTheNamespaceIsTheClient() {
        NetworkPolicy policy = policy(NodeSecretsTest.cluster(s -> { }));
        assertThat(policy.getMetadata().getName()).isEqualTo("demo");
        assertThat(policy.getMetadata().getOwnerReferences()).singleElement()
                .satisfies(r -> assertThat(r.getUid()).isEqualTo("uid-1"));
        assertThat(policy.getSpec().getPodSelector().getMatchLabels()).isEqualTo(MEMBERS);
        assertThat(policy.getSpec().getPolicyTypes()).containsExactly("Ingress");
        List<NetworkPolicyIngressRule> rules = policy.getSpec().getIngress();
        assertThat(rules).hasSize(3);

        NetworkPolicyIngressRule ring = rules.get(0);
        assertThat(ring.getPorts()).as("every port between members").isEmpty();
        assertThat(ring.getFrom()).singleElement().satisfies(from -> {
            assertThat(from.getPodSelector().getMatchLabels()).isEqualTo(MEMBERS);
            assertThat(from.getNamespaceSelector()).as("the cluster's own namespace").isNull();
        });

        NetworkPolicyIngressRule management = rules.get(1);
        assertThat(ports(management)).containsExactly(9000);
        assertThat(management.getPorts()).allSatisfy(p -> assertThat(p.getProtocol()).isEqualTo("TCP"));
        assertThat(management.getFrom()).singleElement().satisfies(from -> {
            assertThat(from.getNamespaceSelector().getMatchLabels())
                    .isEqualTo(Map.of("kubernetes.io/metadata.name", "god-ops"));
            assertThat(from.getPodSelector()).isNull();
        });

        NetworkPolicyIngressRule data = rules.get(2);
        assertThat(ports(data)).containsExactly(9192, 9191, 6379);
        assertThat(data.getFrom()).singleElement().satisfies(from -> {
            assertThat(from.getPodSelector()).as("every pod").isNotNull();
            assertThat(from.getPodSelector().getMatchLabels()).isNullOrEmpty();
            assertThat(from.getNamespaceSelector()).as("of the same namespace").isNull();
        });
    }

    @Test
    void clientsAndMonitoringComeFromTheSpec() {
        NetworkPolicySpec spec = new NetworkPolicySpec();
        spec.setClients(List.of(new NetworkPolicyPeerBuilder().withNewNamespaceSelector()
                .addToMatchLabels("team", "shop").endNamespaceSelector().build(),
                new NetworkPolicyPeerBuilder().withNewIpBlock().withCidr("10.1.0.0/16").endIpBlock().build()));
        spec.setMonitoring(List.of(new NetworkPolicyPeerBuilder().withNewNamespaceSelector()
                .addToMatchLabels("kubernetes.io/metadata.name", "monitoring").endNamespaceSelector()
                .withNewPodSelector().addToMatchLabels("app", "prometheus").endPodSelector().build()));
        List<NetworkPolicyIngressRule> rules = policy(NodeSecretsTest.cluster(s -> s.setNetworkPolicy(spec)))
                .getSpec().getIngress();
        assertThat(rules.get(1).getFrom()).hasSize(2).last().satisfies(from -> {
            assertThat(from.getNamespaceSelector().getMatchLabels())
                    .containsEntry("kubernetes.io/metadata.name", "monitoring");
            assertThat(from.getPodSelector().getMatchLabels()).containsEntry("app", "prometheus");
        });
        assertThat(rules.get(1).getFrom().get(0).getNamespaceSelector().getMatchLabels())
                .as("the operator still manages").containsEntry("kubernetes.io/metadata.name", "god-ops");
        assertThat(rules.get(2).getFrom()).hasSize(2);
        assertThat(rules.get(2).getFrom().get(0).getNamespaceSelector().getMatchLabels()).containsEntry("team", "shop");
        assertThat(rules.get(2).getFrom().get(1).getIpBlock().getCidr()).isEqualTo("10.1.0.0/16");
        assertThat(ports(rules.get(2))).containsExactly(9192, 9191, 6379);
    }

    @Test
    void disabledMeansNoPolicy() {
        NetworkPolicySpec off = new NetworkPolicySpec();
        off.setEnabled(false);
        GodCluster gc = NodeSecretsTest.cluster(s -> s.setNetworkPolicy(off));
        assertThat(new DesiredObjects(gc, Settings.of(gc.getSpec(), "img:1")).networkPolicy()).isEmpty();
    }

    @Test
    void aPolicyReadBackFromTheServerIsInSyncWithItsSpec() {
        GodCluster gc = NodeSecretsTest.cluster(s -> { });
        NetworkPolicy desired = new DesiredObjects(gc, Settings.of(gc.getSpec(), "img:1"),
                new DesiredObjects.Secured("h", "god-ops")).networkPolicy().orElseThrow();
        assertThat(OwnedObjects.networkPolicyInSync(policy(gc), desired)).isTrue();
        NetworkPolicy drifted = policy(gc);
        drifted.getSpec().getIngress().get(2).getFrom().get(0).setPodSelector(null);
        drifted.getSpec().getIngress().get(2).getFrom().get(0).setNamespaceSelector(
                new io.fabric8.kubernetes.api.model.LabelSelector());
        assertThat(OwnedObjects.networkPolicyInSync(drifted, desired)).as("opened to every namespace").isFalse();
    }
}

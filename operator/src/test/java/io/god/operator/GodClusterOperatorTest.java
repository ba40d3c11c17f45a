package io.god.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.god.operator.admin.NodeStatus;
import io.god.operator.fake.FakeNodeAdmin;
import io.god.operator.model.GodCluster;
import io.god.operator.model.GodClusterStatus;
import io.god.operator.model.Member;
import io.god.operator.model.MonitoringSpec;
import io.god.operator.model.PersistenceSpec;
import io.god.operator.monitoring.ServiceMonitors;
import io.god.operator.resources.Labels;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.god.operator.model.PodTemplateOverrides;
import io.god.operator.model.ServiceSettings;
import io.god.operator.model.StorageSpec;
import io.god.operator.reconcile.Conditions;
import io.god.testing.TimeScale;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.KubernetesServer;
import io.quarkus.test.kubernetes.client.KubernetesTestServer;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The operator in the Quarkus app against the fabric8 mock API server (CRUD mode), with a fake StatefulSet/Pod/PVC
 * controller and a fake NodeAdmin. Each scenario uses its own namespace; the last test checks every API call the
 * operator made during all of them against deploy/'s ClusterRole.
 */
@QuarkusTest
@WithKubernetesTestServer(crud = true)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class GodClusterOperatorTest extends ScenarioSupport {

    @KubernetesTestServer
    KubernetesServer server;

    @Inject
    FakeNodeAdmin nodeAdmin;

    @io.quarkus.test.common.http.TestHTTPResource("/q/health/ready")
    java.net.URL healthUrl;

    @io.quarkus.test.common.http.TestHTTPResource("/q/metrics")
    java.net.URL metricsUrl;


    @BeforeAll
    void startFakes() {
        startFakes(server);
    }

    @AfterAll
    void stopFakes() {
        closeFakes();
    }

    @Test
    @Order(1)
    void createsTheOwnedObjectsOfAMinimalCluster() {
        GodCluster gc = create("create", "demo", spec -> spec.setReplicas(3));
        String ns = "create";
        GodClusterStatus status = awaitPhase(ns, "demo", "Running");

        List<String> configMaps = templateConfigMaps(ns);
        assertThat(configMaps).hasSize(2).endsWith("demo-config");
        assertThat(configMaps.get(0)).matches("demo-config-[0-9a-f]{16}");
        ConfigMap revision = k8s.configMaps().inNamespace(ns).withName(configMaps.get(0)).get();
        assertThat(revision.getImmutable()).as("a config revision never changes").isTrue();
        assertThat(revision.getMetadata().getOwnerReferences()).singleElement()
                .satisfies(r -> assertThat(r.getUid()).isEqualTo(gc.getMetadata().getUid()));
        assertThat(k8s.configMaps().inNamespace(ns).withName("demo-config").get().getData())
                .as("only what members may see change while they run").containsOnlyKeys("GOD_SEEDS");
        assertThat(nodeConfig(ns)).containsEntry("GOD_DATA_DIR", "/var/lib/god")
                .containsEntry("GOD_REDUNDANCY", "3")
                .containsEntry("GOD_TOMBSTONE_WINDOW", "24h")
                .containsEntry("GOD_PERSISTENCE_FSYNC", "everysec")
                .doesNotContainKey("GOD_PERSISTENCE_SNAPSHOT_THRESHOLD")
                .containsEntry("GOD_SEEDS", "demo-0.demo-peers.create.svc:9191,demo-1.demo-peers.create.svc:9191,"
                        + "demo-2.demo-peers.create.svc:9191");

        Service peers = k8s.services().inNamespace(ns).withName("demo-peers").get();
        assertThat(peers.getSpec().getClusterIP()).isEqualTo("None");
        assertThat(peers.getSpec().getPublishNotReadyAddresses()).isTrue();
        assertThat(peers.getSpec().getSelector()).containsOnly(
                Map.entry("app.kubernetes.io/name", "god"), Map.entry("app.kubernetes.io/instance", "demo"));
        assertThat(ports(peers)).containsExactly("binary:9191");

        Service client = k8s.services().inNamespace(ns).withName("demo").get();
        assertThat(client.getSpec().getType()).isEqualTo("ClusterIP");
        assertThat(ports(client)).containsExactlyInAnyOrder("http:9192", "binary:9191", "resp:6379");
        assertThat(client.getSpec().getSelector()).isEqualTo(peers.getSpec().getSelector());

        // every member's management port (metrics), not-ready ones included
        Service metrics = k8s.services().inNamespace(ns).withName("demo-metrics").get();
        assertThat(metrics.getSpec().getClusterIP()).isEqualTo("None");
        assertThat(metrics.getSpec().getPublishNotReadyAddresses()).isTrue();
        assertThat(ports(metrics)).containsExactly("management:9000");
        assertThat(metrics.getSpec().getSelector()).isEqualTo(peers.getSpec().getSelector());

        StatefulSet sts = k8s.apps().statefulSets().inNamespace(ns).withName("demo").get();
        assertThat(sts.getSpec().getReplicas()).isEqualTo(3);
        assertThat(sts.getSpec().getServiceName()).isEqualTo("demo-peers");
        assertThat(sts.getSpec().getPodManagementPolicy()).isEqualTo("Parallel");
        assertThat(sts.getSpec().getUpdateStrategy().getType()).isEqualTo("OnDelete");
        assertThat(sts.getSpec().getSelector().getMatchLabels()).isEqualTo(peers.getSpec().getSelector());
        PersistentVolumeClaim claim = sts.getSpec().getVolumeClaimTemplates().get(0);
        assertThat(claim.getMetadata().getName()).isEqualTo("data");
        assertThat(claim.getSpec().getResources().getRequests()).containsEntry("storage", new Quantity("1Gi"));
        assertThat(claim.getSpec().getStorageClassName()).isNull();

        var pod = sts.getSpec().getTemplate();
        assertThat(pod.getMetadata().getLabels()).containsAllEntriesOf(peers.getSpec().getSelector());
        String hash = sts.getMetadata().getAnnotations().get("god.io/spec-hash");
        assertThat(hash).isNotBlank().isEqualTo(pod.getMetadata().getAnnotations().get("god.io/spec-hash"));
        assertThat(pod.getSpec().getSecurityContext().getRunAsNonRoot()).isTrue();
        assertThat(pod.getSpec().getAffinity().getPodAntiAffinity().getPreferredDuringSchedulingIgnoredDuringExecution())
                .singleElement().satisfies(term -> {
                    assertThat(term.getPodAffinityTerm().getTopologyKey()).isEqualTo("kubernetes.io/hostname");
                    assertThat(term.getPodAffinityTerm().getLabelSelector().getMatchLabels())
                            .isEqualTo(peers.getSpec().getSelector());
                });
        Container node = pod.getSpec().getContainers().get(0);
        assertThat(node.getImage()).isEqualTo(IMAGE);
        assertThat(node.getPorts()).extracting(p -> p.getName() + ":" + p.getContainerPort())
                .containsExactlyInAnyOrder("http:9192", "binary:9191", "resp:6379", "management:9000");
        assertThat(node.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/q/health/ready");
        assertThat(node.getReadinessProbe().getHttpGet().getPort()).isEqualTo(new IntOrString("management"));
        assertThat(node.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/q/health/live");
        assertThat(node.getLivenessProbe().getHttpGet().getPort()).isEqualTo(new IntOrString("management"));
        assertThat(node.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
        assertThat(node.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
        assertThat(node.getVolumeMounts()).extracting(m -> m.getName() + ":" + m.getMountPath())
                .contains("data:/var/lib/god", "tmp:/tmp");
        assertThat(node.getEnvFrom()).extracting(e -> e.getConfigMapRef().getName()).isEqualTo(configMaps);
        assertThat(node.getEnv()).anySatisfy(e -> {
            assertThat(e.getName()).isEqualTo("POD_NAME");
            assertThat(e.getValueFrom().getFieldRef().getFieldPath()).isEqualTo("metadata.name");
        });
        assertThat(node.getEnv()).anySatisfy(e -> {
            assertThat(e.getName()).isEqualTo("GOD_NODE_ADVERTISE");
            assertThat(e.getValue()).isEqualTo("$(POD_NAME).demo-peers.create.svc:9191");
        });
        assertThat(node.getEnv().stream().map(e -> e.getName()).toList())
                .as("POD_NAME is defined before it is referenced").containsSubsequence("POD_NAME", "GOD_NODE_ADVERTISE");

        PodDisruptionBudget pdb = k8s.policy().v1().podDisruptionBudget().inNamespace(ns).withName("demo").get();
        assertThat(pdb.getSpec().getMaxUnavailable()).isEqualTo(new IntOrString(1));
        assertThat(pdb.getSpec().getSelector().getMatchLabels()).isEqualTo(peers.getSpec().getSelector());

        for (HasMetadata owned : List.<HasMetadata>of(revision, k8s.configMaps().inNamespace(ns).withName("demo-config").get(), peers, client, sts, pdb)) {
            assertThat(owned.getMetadata().getOwnerReferences()).as(owned.getKind()).singleElement().satisfies(ref -> {
                assertThat(ref.getUid()).isEqualTo(gc.getMetadata().getUid());
                assertThat(ref.getKind()).isEqualTo("GodCluster");
                assertThat(ref.getApiVersion()).isEqualTo("god.io/v1alpha1");
                assertThat(ref.getController()).isTrue();
            });
            assertThat(owned.getMetadata().getLabels()).containsEntry("app.kubernetes.io/managed-by", "god-operator");
        }

        assertThat(k8s.persistentVolumeClaims().inNamespace(ns).list().getItems())
                .extracting(p -> p.getMetadata().getName())
                .containsExactlyInAnyOrder("data-demo-0", "data-demo-1", "data-demo-2");

        assertThat(status.getObservedGeneration()).isEqualTo(current(ns, "demo").getMetadata().getGeneration());
        assertThat(status.getReplicas()).isEqualTo(3);
        assertThat(status.getReadyReplicas()).isEqualTo(3);
        assertThat(status.getSelector()).isEqualTo("app.kubernetes.io/name=god,app.kubernetes.io/instance=demo");
        assertThat(status.getRingHash()).isEqualTo("ring-create");
        assertThat(status.getOperation()).isNull();
        assertThat(status.getMembers()).extracting(Member::getOrdinal, Member::getPod, Member::getState, Member::getReady)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(0, "demo-0", "ACTIVE", true),
                        org.assertj.core.groups.Tuple.tuple(1, "demo-1", "ACTIVE", true),
                        org.assertj.core.groups.Tuple.tuple(2, "demo-2", "ACTIVE", true));
        assertThat(status.getMembers()).allSatisfy(m -> {
            assertThat(m.getPosition()).isNotBlank();
        });
        assertCondition(status, Conditions.READY, "True", "AllMembersReady");
        assertCondition(status, Conditions.PROGRESSING, "False", "Idle");
        assertCondition(status, Conditions.REPLICATED, "True", "Replicated");
        assertCondition(status, Conditions.DEGRADED, "False", "AsExpected");
        assertCondition(status, Conditions.PAUSED, "False", "Reconciling");
        assertThat(eventReasons(ns)).contains("ScalingUp");
    }

    @Test
    @Order(2)
    void defaultsApplyWhenTheSpecIsEmpty() {
        create("defaults", "plain", spec -> {
        });
        awaitPhase("defaults", "plain", "Running");
        StatefulSet sts = k8s.apps().statefulSets().inNamespace("defaults").withName("plain").get();
        assertThat(sts.getSpec().getReplicas()).as("default replicas").isEqualTo(3);
        assertThat(sts.getSpec().getTemplate().getSpec().getContainers().get(0).getImage())
                .as("the operator's default image").isEqualTo("ghcr.io/god-io/god-node:0.1.0");
        assertThat(nodeConfig("defaults", "plain"))
                .containsEntry("GOD_REDUNDANCY", "3").containsEntry("GOD_TOMBSTONE_WINDOW", "24h");
    }

    @Test
    @Order(3)
    void appliesEverySpecField() {
        String ns = "custom";
        create(ns, "big", spec -> {
            spec.setReplicas(1);
            spec.setRedundancy(1);
            spec.setTombstoneWindow("48h");
            StorageSpec storage = new StorageSpec();
            storage.setSize("5Gi");
            storage.setStorageClassName("fast");
            spec.setStorage(storage);
            PersistenceSpec persistence = new PersistenceSpec();
            persistence.setFsync("always");
            persistence.setSnapshotThreshold(1_000_000L);
            spec.setPersistence(persistence);
            spec.setResources(new ResourceRequirementsBuilder().addToRequests("cpu", new Quantity("250m"))
                    .addToLimits("memory", new Quantity("1Gi")).build());
            PodTemplateOverrides template = new PodTemplateOverrides();
            template.setLabels(Map.of("team", "storage"));
            template.setAnnotations(Map.of("example.org/scrape", "true"));
            template.setNodeSelector(Map.of("disktype", "ssd"));
            template.setTolerations(List.of(new TolerationBuilder().withKey("dedicated").withOperator("Equal")
                    .withValue("god").withEffect("NoSchedule").build()));
            spec.setPodTemplate(template);
            ServiceSettings service = new ServiceSettings();
            service.setType("NodePort");
            spec.setService(service);
        });
        awaitPhase(ns, "big", "Running");
        assertThat(nodeConfig(ns, "big"))
                .containsEntry("GOD_REDUNDANCY", "1")
                .containsEntry("GOD_TOMBSTONE_WINDOW", "48h")
                .containsEntry("GOD_PERSISTENCE_FSYNC", "always")
                .containsEntry("GOD_PERSISTENCE_SNAPSHOT_THRESHOLD", "1000000")
                .containsEntry("GOD_SEEDS", "big-0.big-peers.custom.svc:9191");
        StatefulSet sts = k8s.apps().statefulSets().inNamespace(ns).withName("big").get();
        PersistentVolumeClaim claim = sts.getSpec().getVolumeClaimTemplates().get(0);
        assertThat(claim.getSpec().getResources().getRequests()).containsEntry("storage", new Quantity("5Gi"));
        assertThat(claim.getSpec().getStorageClassName()).isEqualTo("fast");
        var pod = sts.getSpec().getTemplate();
        assertThat(pod.getMetadata().getLabels()).containsEntry("team", "storage")
                .containsEntry("app.kubernetes.io/instance", "big");
        assertThat(pod.getMetadata().getAnnotations()).containsEntry("example.org/scrape", "true")
                .containsKey("god.io/spec-hash");
        assertThat(pod.getSpec().getNodeSelector()).containsEntry("disktype", "ssd");
        assertThat(pod.getSpec().getTolerations()).singleElement().satisfies(t -> assertThat(t.getKey()).isEqualTo("dedicated"));
        Container node = pod.getSpec().getContainers().get(0);
        assertThat(node.getResources().getRequests()).containsEntry("cpu", new Quantity("250m"));
        assertThat(node.getResources().getLimits()).containsEntry("memory", new Quantity("1Gi"));
        assertThat(k8s.services().inNamespace(ns).withName("big").get().getSpec().getType()).isEqualTo("NodePort");
        assertThat(k8s.policy().v1().podDisruptionBudget().inNamespace(ns).withName("big").get())
                .as("no PDB for a single member").isNull();
    }

    @Test
    @Order(4)
    void repairsDriftOfOwnedObjects() {
        String ns = "drift";
        create(ns, "demo", spec -> spec.setReplicas(2));
        awaitPhase(ns, "demo", "Running");
        String hash = k8s.apps().statefulSets().inNamespace(ns).withName("demo").get().getMetadata().getAnnotations()
                .get("god.io/spec-hash");

        k8s.services().inNamespace(ns).withName("demo").edit(s -> {
            s.getSpec().setPorts(List.of(s.getSpec().getPorts().get(0)));
            s.getSpec().getPorts().get(0).setPort(80);
            s.getSpec().setSelector(Map.of("app", "other"));
            return s;
        });
        k8s.services().inNamespace(ns).withName("demo-peers").delete();
        k8s.configMaps().inNamespace(ns).withName("demo-config").edit(c -> {
            c.getData().put("GOD_SEEDS", "evil-0:9191");
            c.getData().put("GOD_REDUNDANCY", "9");
            return c;
        });
        k8s.apps().statefulSets().inNamespace(ns).withName("demo").edit(s -> {
            s.getMetadata().getAnnotations().put("god.io/spec-hash", "tampered");
            s.getSpec().getTemplate().getSpec().getContainers().get(0).setImage("evil:latest");
            return s;
        });
        k8s.policy().v1().podDisruptionBudget().inNamespace(ns).withName("demo").delete();

        await().atMost(TIMEOUT).untilAsserted(() -> {
            Service client = k8s.services().inNamespace(ns).withName("demo").get();
            assertThat(ports(client)).containsExactlyInAnyOrder("http:9192", "binary:9191", "resp:6379");
            assertThat(client.getSpec().getSelector()).containsEntry("app.kubernetes.io/instance", "demo")
                    .doesNotContainKey("app");
            Service peers = k8s.services().inNamespace(ns).withName("demo-peers").get();
            assertThat(peers).isNotNull();
            assertThat(peers.getSpec().getPublishNotReadyAddresses()).isTrue();
            assertThat(k8s.configMaps().inNamespace(ns).withName("demo-config").get().getData())
                    .containsOnlyKeys("GOD_SEEDS").containsEntry("GOD_SEEDS",
                            "demo-0.demo-peers.drift.svc:9191,demo-1.demo-peers.drift.svc:9191");
            StatefulSet sts = k8s.apps().statefulSets().inNamespace(ns).withName("demo").get();
            assertThat(sts.getMetadata().getAnnotations()).containsEntry("god.io/spec-hash", hash);
            assertThat(sts.getSpec().getTemplate().getSpec().getContainers().get(0).getImage()).isEqualTo(IMAGE);
            assertThat(sts.getSpec().getReplicas()).as("repair leaves replicas alone").isEqualTo(2);
            assertThat(k8s.policy().v1().podDisruptionBudget().inNamespace(ns).withName("demo").get()).isNotNull();
            // the event is recorded after the repair it reports: inside the wait, not one check after it
            assertThat(eventReasons(ns)).contains("OwnedObjectRepaired");
        });
    }

    @Test
    @Order(5)
    void scalesUpWithoutMakingRunningMembersOutdated() {
        String ns = "scale-up";
        create(ns, "demo", spec -> spec.setReplicas(2));
        awaitPhase(ns, "demo", "Running");
        String hashBefore = specHash(ns);
        List<String> podUidsBefore = podUids(ns);

        edit(ns, "demo", gc -> gc.getSpec().setReplicas(4));
        GodClusterStatus status = await().atMost(TIMEOUT).until(() -> current(ns, "demo").getStatus(),
                s -> s.getReadyReplicas() == 4 && "Running".equals(s.getPhase()));

        assertThat(k8s.apps().statefulSets().inNamespace(ns).withName("demo").get().getSpec().getReplicas()).isEqualTo(4);
        assertThat(k8s.configMaps().inNamespace(ns).withName("demo-config").get().getData().get("GOD_SEEDS").split(","))
                .hasSize(4).contains("demo-3.demo-peers.scale-up.svc:9191");
        assertThat(specHash(ns)).as("seeds are not part of the spec hash").isEqualTo(hashBefore);
        assertThat(podUids(ns)).as("running members were not restarted").containsAll(podUidsBefore).hasSize(4);
        assertThat(status.getMembers()).hasSize(4).allSatisfy(m -> assertThat(m.getState()).isEqualTo("ACTIVE"));
        assertThat(status.getOperation()).isNull();
        assertThat(events(ns)).anySatisfy(e -> {
            assertThat(e.getReason()).isEqualTo("ScalingUp");
            assertThat(e.getMessage()).contains("from 2 to 4");
        });
    }

    @Test
    @Order(7)
    void hibernatesKeepingClaimsAndWakesUp() {
        String ns = "hibernate";
        create(ns, "demo", spec -> spec.setReplicas(3));
        GodClusterStatus running = awaitPhase(ns, "demo", "Running");
        List<String> claimUids = claimUids(ns);

        edit(ns, "demo", gc -> gc.getSpec().setReplicas(0));
        GodClusterStatus hibernated = awaitPhase(ns, "demo", "Hibernated");
        assertThat(k8s.apps().statefulSets().inNamespace(ns).withName("demo").get().getSpec().getReplicas()).isZero();
        assertThat(k8s.pods().inNamespace(ns).list().getItems()).isEmpty();
        assertThat(claimUids(ns)).as("PVCs are kept").isEqualTo(claimUids);
        assertThat(hibernated.getReplicas()).isZero();
        assertThat(hibernated.getReadyReplicas()).isZero();
        assertCondition(hibernated, Conditions.READY, "False", "Hibernated");
        assertThat(hibernated.getMembers()).as("members survive hibernation").hasSize(3)
                .allSatisfy(m -> assertThat(m.getState()).isEqualTo("Absent"));
        assertThat(hibernated.getMembers()).extracting(Member::getPosition)
                .isEqualTo(running.getMembers().stream().map(Member::getPosition).toList());
        assertThat(eventReasons(ns)).contains("Hibernating");

        edit(ns, "demo", gc -> gc.getSpec().setReplicas(3));
        awaitPhase(ns, "demo", "Running");
        assertThat(claimUids(ns)).as("the members come back on their old volumes").isEqualTo(claimUids);
    }

    @Test
    @Order(8)
    void rejectsAnInvalidSpecWithAConditionAndAnEvent() {
        String ns = "invalid";
        create(ns, "bad", spec -> {
            spec.setReplicas(2);
            spec.setRedundancy(0);
            spec.setTombstoneWindow("30m");
            StorageSpec storage = new StorageSpec();
            storage.setSize("lots");
            spec.setStorage(storage);
        });
        GodClusterStatus status = awaitPhase(ns, "bad", "Invalid");
        Conditions.find(status.getConditions(), Conditions.DEGRADED).ifPresentOrElse(c -> {
            assertThat(c.getStatus()).isEqualTo("True");
            assertThat(c.getReason()).isEqualTo("InvalidSpec");
            assertThat(c.getMessage()).contains("spec.redundancy", "spec.tombstoneWindow", "spec.storage.size");
        }, () -> {
            throw new AssertionError("no Degraded condition");
        });
        assertThat(events(ns)).anySatisfy(e -> {
            assertThat(e.getReason()).isEqualTo("InvalidSpec");
            assertThat(e.getType()).isEqualTo("Warning");
        });
        assertThat(k8s.apps().statefulSets().inNamespace(ns).withName("bad").get()).as("nothing is created").isNull();

        edit(ns, "bad", gc -> {
            gc.getSpec().setRedundancy(2);
            gc.getSpec().setTombstoneWindow("2h");
            gc.getSpec().getStorage().setSize("2Gi");
        });
        GodClusterStatus fixed = awaitPhase(ns, "bad", "Running");
        assertCondition(fixed, Conditions.DEGRADED, "False", "AsExpected");
    }

    @Test
    @Order(8)
    void refusesToChangeStorageAfterCreation() {
        String ns = "storage";
        create(ns, "demo", spec -> spec.setReplicas(2));
        awaitPhase(ns, "demo", "Running");
        edit(ns, "demo", gc -> {
            gc.getSpec().setStorage(new StorageSpec());
            gc.getSpec().getStorage().setSize("2Gi");
            gc.getSpec().setRedundancy(2);
        });
        GodClusterStatus status = awaitPhase(ns, "demo", "Invalid");
        assertThat(Conditions.find(status.getConditions(), Conditions.DEGRADED).get().getMessage())
                .contains("spec.storage.size cannot change after creation", "1Gi", "2Gi");
        assertThat(nodeConfig(ns)).as("nothing else of the edit is applied either").containsEntry("GOD_REDUNDANCY", "3");

        assertThat(Conditions.find(status.getConditions(), Conditions.DEGRADED).get().getMessage())
                .contains("spec.redundancy is fixed after creation: the ring runs with 3, got 2");
        assertThat(status.getRedundancy()).isEqualTo(3);

        edit(ns, "demo", gc -> gc.getSpec().getStorage().setSize("1024Mi"));
        GodClusterStatus stillInvalid = await().atMost(TIMEOUT).until(() -> current(ns, "demo").getStatus(),
                s -> !Conditions.find(s.getConditions(), Conditions.DEGRADED).get().getMessage().contains("storage"));
        assertThat(stillInvalid.getPhase()).as("N stays refused").isEqualTo("Invalid");
        edit(ns, "demo", gc -> gc.getSpec().setRedundancy(null)); // back to the default, 3
        awaitPhase(ns, "demo", "Running");
        assertThat(nodeConfig(ns)).containsEntry("GOD_REDUNDANCY", "3");
    }

    /** A running cluster of this N, paused, its status.redundancy removed. */
    void pausedWithoutRecordedRedundancy(String ns, int replicas, int redundancy) {
        create(ns, "demo", spec -> {
            spec.setReplicas(replicas);
            spec.setRedundancy(redundancy);
        });
        awaitPhase(ns, "demo", "Running");
        edit(ns, "demo", gc -> gc.getSpec().setPaused(true));
        awaitPhase(ns, "demo", "Paused");
        k8s.resources(GodCluster.class).inNamespace(ns).withName("demo").editStatus(gc -> {
            gc.getStatus().setRedundancy(null);
            return gc;
        });
    }

    /**
     * A cluster made before status.redundancy existed: the N its ConfigMap gives the nodes is the fixed one, and
     * the first pass records it.
     */
    @Test
    @Order(8)
    void theRedundancyOfAnOlderClusterIsTakenFromItsConfigMap() {
        String ns = "older";
        pausedWithoutRecordedRedundancy(ns, 1, 2); // as an operator before issue 26 wrote the status
        k8s.configMaps().inNamespace(ns).withName("demo-config").edit(c -> {
            c.getData().put("GOD_REDUNDANCY", "2"); // where that operator kept N
            return c;
        });
        k8s.apps().statefulSets().inNamespace(ns).withName("demo").edit(sts -> {
            // that operator's template named only the shared ConfigMap
            sts.getSpec().getTemplate().getSpec().getContainers().get(0).getEnvFrom()
                    .removeIf(e -> !"demo-config".equals(e.getConfigMapRef().getName()));
            return sts;
        });
        edit(ns, "demo", gc -> {
            gc.getSpec().setPaused(false);
            gc.getSpec().setRedundancy(3);
        });
        GodClusterStatus refused = awaitPhase(ns, "demo", "Invalid");
        assertThat(Conditions.find(refused.getConditions(), Conditions.DEGRADED).get().getMessage())
                .contains("the ring runs with 2, got 3");
        assertThat(templateConfigMaps(ns)).as("nothing is applied").containsExactly("demo-config");
        edit(ns, "demo", gc -> gc.getSpec().setRedundancy(2));
        assertThat(awaitPhase(ns, "demo", "Running").getRedundancy()).isEqualTo(2);
    }

    /**
     * The first pass after an upgrade (or a new cluster's first pass) failed before it recorded N, and the template's
     * config says nothing about N any more: the N the running members report still refuses another spec.redundancy,
     * before anything of the edit reaches the objects.
     */
    @Test
    @Order(8)
    void aRedundancyEditIsRefusedByTheNTheMembersReport() {
        String ns = "reported";
        nodeAdmin.redundancy(ns, 2);
        pausedWithoutRecordedRedundancy(ns, 2, 2); // the pass that would have recorded N failed
        String revision = templateConfigMaps(ns).get(0);
        k8s.configMaps().inNamespace(ns).withName(revision).delete(); // no config tells N
        edit(ns, "demo", gc -> {
            gc.getSpec().setPaused(false);
            gc.getSpec().setRedundancy(3);
        });
        GodClusterStatus refused = awaitPhase(ns, "demo", "Invalid");
        assertThat(Conditions.find(refused.getConditions(), Conditions.DEGRADED).get().getMessage())
                .contains("spec.redundancy is fixed after creation: the running members report N 2, got 3");
        assertThat(refused.getRedundancy()).as("not recorded from the refused spec").isNull();
        assertThat(templateConfigMaps(ns)).as("the template keeps its revision").startsWith(revision);
        assertThat(k8s.configMaps().inNamespace(ns).withName(revision).get()).as("not made again").isNull();

        edit(ns, "demo", gc -> gc.getSpec().setRedundancy(2));
        assertThat(awaitPhase(ns, "demo", "Running").getRedundancy()).isEqualTo(2);
        assertThat(nodeConfig(ns)).containsEntry("GOD_REDUNDANCY", "2");
    }

    @Test
    @Order(8)
    void aNameEndingInPeersIsRefused() {
        String ns = "names";
        create(ns, "demo-peers", spec -> spec.setReplicas(1));
        GodClusterStatus status = awaitPhase(ns, "demo-peers", "Invalid");
        assertThat(Conditions.find(status.getConditions(), Conditions.DEGRADED).get().getMessage())
                .contains("metadata.name must not end in -peers", "'demo'");
        assertThat(k8s.services().inNamespace(ns).list().getItems()).as("nothing is created").isEmpty();
    }

    /**
     * Objects with the cluster's names that another owner has are never adopted: the cluster is Blocked with a
     * condition and one event naming them, nothing of theirs changes, and once they are gone the cluster is made.
     */
    @Test
    @Order(8)
    void foreignObjectsWithOurNamesAreNeverAdopted() {
        String ns = "foreign";
        k8s.namespaces().resource(new io.fabric8.kubernetes.api.model.NamespaceBuilder().withNewMetadata().withName(ns)
                .endMetadata().build()).create();
        k8s.configMaps().inNamespace(ns).resource(new io.fabric8.kubernetes.api.model.ConfigMapBuilder()
                .withNewMetadata().withName("demo-config").withNamespace(ns).endMetadata()
                .withData(Map.of("owner", "someone else")).build()).create();
        k8s.services().inNamespace(ns).resource(new io.fabric8.kubernetes.api.model.ServiceBuilder()
                .withNewMetadata().withName("demo-peers").withNamespace(ns).endMetadata()
                .withNewSpec().withSelector(Map.of("app", "theirs")).addNewPort().withName("web").withPort(80).endPort()
                .endSpec().build()).create();

        create(ns, "demo", spec -> spec.setReplicas(1));
        GodClusterStatus blocked = awaitPhase(ns, "demo", "Blocked");
        assertCondition(blocked, Conditions.DEGRADED, "True", "OwnedObjectConflict");
        assertThat(Conditions.find(blocked.getConditions(), Conditions.DEGRADED).get().getMessage())
                .contains("ConfigMap demo-config exists and is not this GodCluster's (no owner)",
                        "Service demo-peers exists and is not this GodCluster's");
        ScaledTimeouts.stillAfter(Duration.ofMillis(1500)).untilAsserted(() -> {
            ConfigMap theirs = k8s.configMaps().inNamespace(ns).withName("demo-config").get();
            assertThat(theirs.getData()).containsExactly(Map.entry("owner", "someone else"));
            assertThat(theirs.getMetadata().getOwnerReferences()).isNullOrEmpty();
            Service peers = k8s.services().inNamespace(ns).withName("demo-peers").get();
            assertThat(peers.getSpec().getSelector()).containsExactly(Map.entry("app", "theirs"));
            assertThat(peers.getMetadata().getOwnerReferences()).isNullOrEmpty();
            assertThat(k8s.apps().statefulSets().inNamespace(ns).withName("demo").get()).as("no members").isNull();
        });
        assertThat(eventReasons(ns)).containsOnlyOnce("OwnedObjectConflict");

        k8s.configMaps().inNamespace(ns).withName("demo-config").delete();
        k8s.services().inNamespace(ns).withName("demo-peers").delete();
        GodClusterStatus running = awaitPhase(ns, "demo", "Running"); // found again at the next resync
        assertCondition(running, Conditions.DEGRADED, "False", "AsExpected");
    }

    @Test
    @Order(9)
    void pausedClusterIsLeftAlone() {
        String ns = "paused";
        create(ns, "demo", spec -> spec.setReplicas(2));
        awaitPhase(ns, "demo", "Running");
        edit(ns, "demo", gc -> gc.getSpec().setPaused(true));
        GodClusterStatus paused = awaitPhase(ns, "demo", "Paused");
        assertCondition(paused, Conditions.PAUSED, "True", "Paused");

        edit(ns, "demo", gc -> gc.getSpec().setReplicas(4));
        k8s.services().inNamespace(ns).withName("demo").delete();
        ScaledTimeouts.stillAfter(Duration.ofMillis(1500)).untilAsserted(() -> {
            assertThat(k8s.apps().statefulSets().inNamespace(ns).withName("demo").get().getSpec().getReplicas())
                    .isEqualTo(2);
            assertThat(k8s.services().inNamespace(ns).withName("demo").get()).isNull();
        });

        edit(ns, "demo", gc -> gc.getSpec().setPaused(false));
        GodClusterStatus resumed = await().atMost(TIMEOUT).until(() -> current(ns, "demo").getStatus(),
                s -> "Running".equals(s.getPhase()) && s.getReadyReplicas() == 4);
        assertCondition(resumed, Conditions.PAUSED, "False", "Reconciling");
        assertThat(k8s.services().inNamespace(ns).withName("demo").get()).isNotNull();
    }

    @Test
    @Order(10)
    void reportsWhatTheMembersSay() {
        String ns = "members";
        create(ns, "demo", spec -> spec.setReplicas(3));
        awaitPhase(ns, "demo", "Running");

        nodeAdmin.answer(ns, "demo-1", FakeNodeAdmin.status(NodeStatus.ACTIVE, "ring-other", false, ns + "/demo-1"));
        GodClusterStatus split = await().atMost(TIMEOUT).until(() -> current(ns, "demo").getStatus(),
                s -> s.getRingHash() == null && !Conditions.isTrue(s.getConditions(), Conditions.READY));
        assertCondition(split, Conditions.READY, "False", "RingNotConverged");
        assertCondition(split, Conditions.REPLICATED, "False", "NotReplicated");

        nodeAdmin.reset(ns, "demo-1");
        nodeAdmin.unreachable(ns, "demo-2");
        GodClusterStatus unreachable = await().atMost(TIMEOUT).until(() -> current(ns, "demo").getStatus(),
                s -> Conditions.isTrue(s.getConditions(), Conditions.DEGRADED));
        assertCondition(unreachable, Conditions.DEGRADED, "True", "MembersUnreachable");
        assertThat(unreachable.getMembers().get(2).getState()).isEqualTo("Unreachable");
        assertThat(unreachable.getPhase()).isEqualTo("Degraded");

        nodeAdmin.reset(ns, "demo-2");
        markNotReady(ns, "demo-0");
        GodClusterStatus notReady = await().atMost(TIMEOUT).until(() -> current(ns, "demo").getStatus(),
                s -> s.getReadyReplicas() == 2);
        assertCondition(notReady, Conditions.READY, "False", "MembersNotReady");
        assertCondition(notReady, Conditions.DEGRADED, "True", "MembersNotReady");
        // an unready pod is still asked: it says what it is doing (issue 26), here ACTIVE
        assertThat(notReady.getMembers().get(0).getState()).isEqualTo("ACTIVE");
        assertThat(notReady.getMembers().get(0).getReady()).isFalse();
    }

    @Test
    @Order(11)
    void deletionIsNotBlockedAndLeavesTheVolumes() {
        String ns = "delete";
        create(ns, "demo", spec -> spec.setReplicas(2));
        awaitPhase(ns, "demo", "Running");
        // a finalizer would block deletion while the operator is away: the operator adds none
        assertThat(current(ns, "demo").getMetadata().getFinalizers()).isNullOrEmpty();
        List<String> claims = claimUids(ns);
        assertThat(claims).hasSize(2);
        k8s.resources(GodCluster.class).inNamespace(ns).withName("demo").delete();
        await().atMost(TIMEOUT).until(() -> current(ns, "demo") == null);
        // stand in for the garbage collector (owner references were asserted above), then make sure nothing returns;
        // a pass that read the GodCluster just before its deletion may still be under way and make an object again
        // (its owner is gone: the collector takes it again), so the collector's part is played twice at most
        for (int round = 1; ; round++) {
            k8s.apps().statefulSets().inNamespace(ns).withName("demo").delete();
            k8s.services().inNamespace(ns).withName("demo").delete();
            try {
                ScaledTimeouts.stillAfter(Duration.ofMillis(1500)).atMost(TimeScale.seconds(5)).untilAsserted(() -> {
                    assertThat(k8s.apps().statefulSets().inNamespace(ns).withName("demo").get()).isNull();
                    assertThat(k8s.services().inNamespace(ns).withName("demo").get()).isNull();
                });
                break;
            } catch (org.awaitility.core.ConditionTimeoutException e) {
                if (round == 2) {
                    throw e;
                }
            }
        }
        assertThat(claimUids(ns)).as("data is never deleted with the CR: the same claims").isEqualTo(claims);
    }

    /**
     * spec.monitoring without the Prometheus Operator: a False condition and one Warning event, the cluster runs.
     * Once the CRD is installed the next pass creates the ServiceMonitor (owned, our labels, the metrics Service's
     * port, sending the generated metrics Secret's token), repairs drift of it; spec.monitoring.kind: PodMonitor replaces it by a PodMonitor of the member pods
     * (once that CRD is installed), which is deleted when monitoring is disabled again.
     */
    /** What both monitor kinds send by default: the generated metrics credential (issue 34). */
    static final Map<String, Object> METRICS_AUTHORIZATION = Map.of("type", "Bearer",
            "credentials", Map.of("name", "demo-metrics-token", "key", "token"));

    @Test
    @Order(45)
    void serviceMonitorFollowsSpecMonitoringAndItsCrd() {
        String ns = "monitoring";
        GodCluster gc = create(ns, "demo", spec -> {
            spec.setReplicas(1);
            spec.setMonitoring(new MonitoringSpec());
            spec.getMonitoring().setEnabled(true);
            spec.getMonitoring().setLabels(Map.of("release", "prom", Labels.INSTANCE, "not-ours"));
        });
        var monitor = k8s.genericKubernetesResources(ServiceMonitors.CONTEXT).inNamespace(ns).withName("demo-metrics");
        GodClusterStatus missing = awaitPhase(ns, "demo", "Running");
        assertCondition(missing, Conditions.MONITORING, "False", "ServiceMonitorCrdMissing");
        assertThat(Conditions.find(missing.getConditions(), Conditions.MONITORING).get().getMessage())
                .contains("servicemonitors.monitoring.coreos.com", "demo-metrics");
        await().atMost(TIMEOUT).untilAsserted(() -> assertThat(eventReasons(ns)).contains("MonitoringUnavailable"));
        assertThat(monitor.get()).isNull();

        k8s.apiextensions().v1().customResourceDefinitions().resource(serviceMonitorCrd()).create();
        await().atMost(TIMEOUT).untilAsserted(() -> {
            assertCondition(current(ns, "demo").getStatus(), Conditions.MONITORING, "True", "ServiceMonitorReady");
            assertThat(monitor.get()).isNotNull();
        });
        GenericKubernetesResource made = monitor.get();
        assertThat(made.getMetadata().getLabels()).containsEntry("release", "prom")
                .containsEntry(Labels.INSTANCE, "demo").containsEntry(Labels.MANAGED_BY, Labels.OPERATOR);
        assertThat(made.getMetadata().getOwnerReferences()).singleElement()
                .satisfies(r -> assertThat(r.getUid()).isEqualTo(current(ns, "demo").getMetadata().getUid()));
        Map<String, String> selected = made.get("spec", "selector", "matchLabels");
        Service metricsService = k8s.services().inNamespace(ns).withName("demo-metrics").get();
        assertThat(metricsService.getMetadata().getLabels()).containsAllEntriesOf(selected);
        for (String other : List.of("demo", "demo-peers")) {
            assertThat(k8s.services().inNamespace(ns).withName(other).get().getMetadata().getLabels())
                    .as("only the metrics Service is selected").doesNotContainKeys(Labels.METRICS);
        }
        List<Map<String, Object>> endpoints = made.get("spec", "endpoints");
        assertThat(endpoints).singleElement().satisfies(e -> assertThat(e)
                .containsEntry("port", "management").containsEntry("path", "/q/metrics")
                .containsEntry("authorization", METRICS_AUTHORIZATION));
        assertThat(k8s.secrets().inNamespace(ns).withName("demo-metrics-token").get().getMetadata()
                .getOwnerReferences()).as("the metrics credential the monitor sends is generated and owned")
                .singleElement().satisfies(r -> assertThat(r.getUid()).isEqualTo(gc.getMetadata().getUid()));
        assertThat(ports(metricsService)).containsExactly("management:9000");

        monitor.edit(m -> {
            m.setAdditionalProperty("spec", Map.of("endpoints", List.of(Map.of("port", "http"))));
            return m;
        });
        await().atMost(TIMEOUT).untilAsserted(() -> {
            List<Map<String, Object>> repaired = monitor.get().get("spec", "endpoints");
            assertThat(repaired).singleElement().satisfies(e -> assertThat(e).containsEntry("port", "management"));
        });

        // spec.monitoring.kind: PodMonitor replaces the ServiceMonitor; first without the PodMonitor CRD
        var podMonitor = k8s.genericKubernetesResources(ServiceMonitors.POD_CONTEXT).inNamespace(ns).withName("demo-metrics");
        edit(ns, "demo", c -> c.getSpec().getMonitoring().setKind("PodMonitor"));
        await().atMost(TIMEOUT).untilAsserted(() -> {
            assertCondition(current(ns, "demo").getStatus(), Conditions.MONITORING, "False", "PodMonitorCrdMissing");
            assertThat(monitor.get()).as("the ServiceMonitor goes when the kind changes").isNull();
        });
        assertThat(Conditions.find(current(ns, "demo").getStatus().getConditions(), Conditions.MONITORING).get()
                .getMessage()).contains("podmonitors.monitoring.coreos.com");
        assertThat(podMonitor.get()).isNull();
        k8s.apiextensions().v1().customResourceDefinitions().resource(monitorCrd("PodMonitor", "podmonitors")).create();
        await().atMost(TIMEOUT).untilAsserted(() -> {
            assertCondition(current(ns, "demo").getStatus(), Conditions.MONITORING, "True", "PodMonitorReady");
            assertThat(podMonitor.get()).isNotNull();
        });
        GenericKubernetesResource pm = podMonitor.get();
        assertThat(pm.getKind()).isEqualTo("PodMonitor");
        assertThat(pm.getMetadata().getLabels()).containsEntry("release", "prom").containsEntry(Labels.INSTANCE, "demo");
        assertThat(pm.getMetadata().getOwnerReferences()).singleElement()
                .satisfies(r -> assertThat(r.getUid()).isEqualTo(current(ns, "demo").getMetadata().getUid()));
        Map<String, String> podSelector = pm.get("spec", "selector", "matchLabels");
        assertThat(podSelector).doesNotContainKey(Labels.METRICS);
        assertThat(k8s.apps().statefulSets().inNamespace(ns).withName("demo").get().getSpec().getTemplate().getMetadata()
                .getLabels()).as("the PodMonitor selects the member pods").containsAllEntriesOf(podSelector);
        List<Map<String, Object>> podEndpoints = pm.get("spec", "podMetricsEndpoints");
        assertThat(podEndpoints).singleElement().satisfies(e -> assertThat(e)
                .containsEntry("port", "management").containsEntry("path", "/q/metrics")
                .containsEntry("authorization", METRICS_AUTHORIZATION));
        assertThat(monitor.get()).isNull();

        edit(ns, "demo", c -> c.getSpec().getMonitoring().setEnabled(false));
        await().atMost(TIMEOUT).untilAsserted(() -> {
            assertThat(podMonitor.get()).as("deleted when disabled").isNull();
            assertThat(monitor.get()).isNull();
            assertThat(Conditions.find(current(ns, "demo").getStatus().getConditions(), Conditions.MONITORING))
                    .isEmpty();
        });
    }

    /** The Prometheus Operator's CRD as far as the mock API server needs it (names, scope, version). */
    private static CustomResourceDefinition serviceMonitorCrd() {
        return monitorCrd("ServiceMonitor", "servicemonitors");
    }

    private static CustomResourceDefinition monitorCrd(String kind, String plural) {
        return new CustomResourceDefinitionBuilder().withNewMetadata().withName(plural + ".monitoring.coreos.com").endMetadata()
                .withNewSpec().withGroup("monitoring.coreos.com").withScope("Namespaced")
                .withNewNames().withKind(kind).withPlural(plural)
                .withSingular(kind.toLowerCase(java.util.Locale.ROOT)).withListKind(kind + "List").endNames()
                .addNewVersion().withName("v1").withServed(true).withStorage(true)
                .withNewSchema().withNewOpenAPIV3Schema().withType("object").withXKubernetesPreserveUnknownFields(true)
                .endOpenAPIV3Schema().endSchema().endVersion()
                .endSpec().build();
    }

    @Test
    @Order(50)
    void servesHealthAndReconcileMetrics() throws Exception {
        java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
        var health = http.send(java.net.http.HttpRequest.newBuilder(healthUrl.toURI()).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(health.statusCode()).isEqualTo(200);
        assertThat(health.body()).contains("\"status\": \"UP\"");
        var started = http.send(java.net.http.HttpRequest.newBuilder(healthUrl.toURI().resolve("/q/health/started"))
                .build(), java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(started.statusCode()).as("deploy/06-deployment.yaml's startupProbe path").isEqualTo(200);
        String metrics = http.send(java.net.http.HttpRequest.newBuilder(metricsUrl.toURI()).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString()).body();
        double settled = metrics.lines().filter(l -> l.startsWith("god_operator_reconciles_total{")
                        && l.contains("result=\"settled\"")).mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
                .sum();
        assertThat(settled).as(metrics.lines().filter(l -> l.startsWith("god_operator")).toList().toString())
                .isGreaterThan(0);
        assertThat(metrics).contains("god_operator_reconciles_total{result=\"invalid\"}");
    }

    @Test
    @Order(100)
    void rbacAllowsEveryCallTheOperatorMade() throws Exception {
        assertRbacAllowsEveryCall(server, "create apps/statefulsets", "update god.io/godclusters/status", "watch /pods",
                "create /events", "get apiextensions.k8s.io/customresourcedefinitions",
                "create monitoring.coreos.com/servicemonitors", "patch monitoring.coreos.com/servicemonitors",
                "delete monitoring.coreos.com/servicemonitors", "create monitoring.coreos.com/podmonitors",
                "delete monitoring.coreos.com/podmonitors");
    }
}

package io.god.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.god.operator.model.GodCluster;
import io.god.operator.model.GodClusterSpec;
import io.god.operator.model.GodClusterStatus;
import io.god.operator.reconcile.Conditions;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.god.operator.fake.ApiCall;
import io.god.operator.fake.FakeStatefulSetController;
import io.god.operator.fake.Rbac;
import io.quarkus.test.kubernetes.client.KubernetesServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.function.Consumer;

/** Helpers of the operator scenario tests: create and edit GodClusters, wait for a phase, read what the operator made. */
abstract class ScenarioSupport {

    static final String TEST_AGENT = "god-test";
    static final Duration TIMEOUT = ScaledTimeouts.TIMEOUT;
    static final String IMAGE = "example.org/god-node:test";

    /** The test's own client: its calls carry another User-Agent, so they are not counted as the operator's. */
    protected KubernetesClient k8s;
    protected FakeStatefulSetController fakeController;

    protected void startFakes(KubernetesServer server) {
        startFakes(server, FakeStatefulSetController::new);
    }

    /** With what runs in the pods made from the test's own client (e.g. real node processes). */
    protected void startFakes(KubernetesServer server,
            java.util.function.Function<KubernetesClient, FakeStatefulSetController> controller) {
        k8s = new KubernetesClientBuilder().withConfig(new ConfigBuilder(server.getClient().getConfiguration())
                .withUserAgent(TEST_AGENT).build()).build();
        fakeController = controller.apply(k8s).start();
    }

    protected void closeFakes() {
        fakeController.close();
        k8s.close();
    }

    /** The fake controller keeps this pod unready (a Pending or failing member). */
    protected void markNotReady(String ns, String pod) {
        k8s.pods().inNamespace(ns).withName(pod).edit(p -> {
            p.getMetadata().getAnnotations().put(FakeStatefulSetController.NOT_READY, "true");
            return p;
        });
    }

    /** The fake controller lets the pod be Ready again. */
    protected void markReady(String ns, String pod) {
        k8s.pods().inNamespace(ns).withName(pod).edit(p -> {
            p.getMetadata().getAnnotations().remove(FakeStatefulSetController.NOT_READY);
            return p;
        });
    }

    protected GodCluster create(String ns, String name, Consumer<GodClusterSpec> spec) {
        if (k8s.namespaces().withName(ns).get() == null) {
            k8s.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build()).create();
        }
        GodCluster gc = new GodCluster();
        gc.getMetadata().setName(name);
        gc.getMetadata().setNamespace(ns);
        gc.setSpec(new GodClusterSpec());
        if (!name.equals("plain")) {
            gc.getSpec().setImage(IMAGE);
        }
        spec.accept(gc.getSpec());
        return k8s.resource(gc).create();
    }

    protected GodCluster current(String ns, String name) {
        return k8s.resources(GodCluster.class).inNamespace(ns).withName(name).get();
    }

    /**
     * Edits the resource like {@code kubectl edit}: read, change, write with the resourceVersion read. The
     * operator writes the status concurrently, so a 409 conflict is retried on a fresh read (bounded).
     */
    protected void edit(String ns, String name, Consumer<GodCluster> change) {
        for (int attempt = 1; ; attempt++) {
            try {
                k8s.resources(GodCluster.class).inNamespace(ns).withName(name).edit(gc -> {
                    change.accept(gc);
                    return gc;
                });
                return;
            } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
                if (e.getCode() != 409 || attempt >= 10) {
                    throw e;
                }
            }
        }
    }

    protected GodClusterStatus awaitPhase(String ns, String name, String phase) {
        return await().atMost(TIMEOUT).until(() -> {
            GodCluster gc = current(ns, name);
            return gc == null || gc.getStatus() == null
                    || !java.util.Objects.equals(gc.getStatus().getObservedGeneration(), gc.getMetadata().getGeneration())
                    ? null : gc.getStatus();
        }, s -> s != null && phase.equals(s.getPhase()));
    }

    protected static void assertCondition(GodClusterStatus status, String type, String value, String reason) {
        assertThat(Conditions.find(status.getConditions(), type)).as(type + " in " + status.getConditions())
                .hasValueSatisfying(c -> {
                    assertThat(c.getStatus()).as(type + " status").isEqualTo(value);
                    assertThat(c.getReason()).as(type + " reason").isEqualTo(reason);
                    assertThat(c.getLastTransitionTime()).isNotBlank();
                });
    }

    protected static List<String> ports(Service service) {
        return service.getSpec().getPorts().stream().map((ServicePort p) -> p.getName() + ":" + p.getPort()).toList();
    }

    /** The names of the ConfigMaps the StatefulSet's pod template takes its environment from, in order. */
    protected List<String> templateConfigMaps(String ns) {
        return templateConfigMaps(ns, "demo");
    }

    protected List<String> templateConfigMaps(String ns, String cluster) {
        return k8s.apps().statefulSets().inNamespace(ns).withName(cluster).get().getSpec().getTemplate().getSpec()
                .getContainers().get(0).getEnvFrom().stream().map(e -> e.getConfigMapRef().getName()).toList();
    }

    /** The environment a new member pod gets from its ConfigMaps (the config revision and GOD_SEEDS). */
    protected java.util.Map<String, String> nodeConfig(String ns) {
        return nodeConfig(ns, "demo");
    }

    protected java.util.Map<String, String> nodeConfig(String ns, String cluster) {
        java.util.Map<String, String> env = new java.util.TreeMap<>();
        templateConfigMaps(ns, cluster).forEach(name -> env.putAll(k8s.configMaps().inNamespace(ns).withName(name).get().getData()));
        return env;
    }

    protected String specHash(String ns) {
        return k8s.apps().statefulSets().inNamespace(ns).withName("demo").get().getMetadata().getAnnotations()
                .get("god.io/spec-hash");
    }

    protected List<String> podUids(String ns) {
        return k8s.pods().inNamespace(ns).list().getItems().stream().map((Pod p) -> p.getMetadata().getUid()).toList();
    }

    protected List<String> claimUids(String ns) {
        return k8s.persistentVolumeClaims().inNamespace(ns).list().getItems().stream()
                .map(p -> p.getMetadata().getUid()).sorted().toList();
    }

    protected List<Event> events(String ns) {
        return k8s.v1().events().inNamespace(ns).list().getItems();
    }

    /** No ConfigMap, status, event or pod template of the namespace holds any of the tokens. */
    protected void assertNoTokenOutsideItsSecret(String ns, java.util.Collection<String> tokens) {
        List<String> elsewhere = new java.util.ArrayList<>();
        k8s.configMaps().inNamespace(ns).list().getItems().forEach(c -> elsewhere.add(Serialization.asJson(c)));
        elsewhere.add(Serialization.asJson(current(ns, "demo")));
        events(ns).forEach(e -> elsewhere.add(Serialization.asJson(e)));
        elsewhere.add(Serialization.asJson(k8s.apps().statefulSets().inNamespace(ns).withName("demo").get()));
        k8s.pods().inNamespace(ns).list().getItems().forEach(p -> elsewhere.add(Serialization.asJson(p)));
        for (String token : tokens) {
            assertThat(elsewhere).as("a token outside its Secret").noneMatch(text -> text.contains(token));
        }
    }

    /** The current token (first line) of a credential Secret. */
    protected String token(String ns, String name) {
        String value = new String(java.util.Base64.getDecoder().decode(k8s.secrets().inNamespace(ns).withName(name).get()
                .getData().get("token")), java.nio.charset.StandardCharsets.UTF_8);
        return value.lines().findFirst().orElseThrow();
    }

    protected List<String> eventReasons(String ns) {
        return events(ns).stream().map(Event::getReason).toList();
    }

    /**
     * Checks every request the operator sent to the mock API server (all requests not made with the test's own user
     * agent) against deploy/'s ClusterRole and Roles; {@code expected} are calls that must be among them.
     */
    protected static List<ApiCall> assertRbacAllowsEveryCall(KubernetesServer server, String... expected) throws Exception {
        List<RecordedRequest> operatorRequests = new ArrayList<>();
        RecordedRequest request;
        while ((request = server.getKubernetesMockServer().takeRequest(50, TimeUnit.MILLISECONDS)) != null) {
            if (!TEST_AGENT.equals(request.getHeader("User-Agent"))) {
                operatorRequests.add(request);
            }
        }
        List<ApiCall> calls = operatorRequests.stream()
                .map(r -> ApiCall.parse(r.getMethod(), r.getPath())).flatMap(Optional::stream)
                // the test profile applies the CRD at start-up (quarkus.operator-sdk.crd.apply); production does not
                // (the operator's own lookup of the ServiceMonitor CRD is kept: deploy/ must allow it)
                .filter(c -> !c.group().equals("apiextensions.k8s.io") || c.name().endsWith("monitoring.coreos.com"))
                .toList();
        Set<String> distinct = calls.stream().map(c -> c.verb() + " " + c.group() + "/" + c.resource())
                .collect(Collectors.toCollection(TreeSet::new));
        assertThat(distinct).as("the recording works: the operator's own calls are in it").contains(expected);
        System.out.println("API calls made by the operator: " + distinct);
        List<String> denied = new ArrayList<>();
        for (ApiCall c : calls) {
            if (!Rbac.allows(c) && !denied.contains(c.path())) {
                denied.add(c.path());
            }
        }
        assertThat(denied).as("calls deploy/'s ClusterRole and Roles do not allow; operator made: " + distinct).isEmpty();
        return calls;
    }
}

package io.god.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.god.operator.fake.Rbac;
import io.god.operator.fake.RecordingApiServer;
import io.god.operator.fake.RecordingApiServer.Call;
import io.god.operator.model.GodCluster;
import io.god.operator.model.GodClusterSpec;
import io.god.operator.model.Operation;
import io.god.testing.ScaledTimeout;
import io.god.testing.TimeScale;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Two packaged operators (prod profile: leader election on) against one standalone mock API server: the first takes
 * the Lease and reconciles, the second stands by; the leader is killed (SIGKILL, no release of the Lease) and the
 * standby takes the Lease within leaseDuration + retries and does the work the dead leader can no longer do (a
 * GodCluster created after the kill: its ConfigMap, Services, StatefulSet, PodDisruptionBudget and status). Every write
 * the two processes sent (each has its own User-Agent) is checked: the Lease aside, writes come from one identity at a
 * time, the standby's only after it holds the Lease; and deploy/'s RBAC allows every call both made. The operation is
 * a GodCluster's creation, which the operator completes against the API server alone; a scale or a roll would also
 * need real nodes to answer /admin (RealNodesIT).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ScaledTimeout(value = 90, unit = TimeUnit.SECONDS)
class LeaderElectionIT {

    static final Path OUT = Path.of("target", "leader-election-it");
    static final String NAMESPACE = "god-system";
    /** The two replicas of the leader election test (the namespace-scoped test's operator is another identity). */
    static final java.util.Set<String> PAIR = java.util.Set.of("operator-a", "operator-b");
    static final String LEASE = "god-operator";
    static final String NS = "ha";
    /** The children's lease settings, scaled: a loaded machine must not make the live leader miss its renewals. */
    static final Duration LEASE_DURATION = TimeScale.of(Duration.ofSeconds(2));
    static final Duration RETRY_PERIOD = TimeScale.of(Duration.ofMillis(250));
    /**
     * A standby observes the last renewal at most one retry late and retries every retryPeriod × (1 + up to 1.2
     * jitter): the Lease changes hands within leaseDuration + 2 × 2.2 retryPeriods of the kill, plus one JVM's slack.
     */
    static final Duration TAKEOVER_BOUND = LEASE_DURATION.plus(RETRY_PERIOD.multipliedBy(5)).plus(TimeScale.seconds(1));
    static final Duration START_BOUND = TimeScale.seconds(30);

    Path jar;
    RecordingApiServer api;
    KubernetesClient k8s;
    final Map<String, Process> operators = new java.util.LinkedHashMap<>();

    @BeforeAll
    void start() throws Exception {
        jar = Path.of(System.getProperty("god.operator.jar", "target/quarkus-app/quarkus-run.jar"));
        if (!Files.exists(jar)) {
            assertThat("true".equalsIgnoreCase(System.getenv("CI"))).as("CI=true but the operator jar " + jar.toAbsolutePath()
                    + " is missing").isFalse();
            Assumptions.abort("no packaged operator at " + jar.toAbsolutePath() + " (./mvnw -B -o -pl operator -DskipTests package)");
        }
        RealNodesIT.deleteTree(OUT);
        Files.createDirectories(OUT);
        api = new RecordingApiServer();
        k8s = api.server().createClient();
        try (InputStream crd = Files.newInputStream(Path.of(System.getProperty("god.crds.committed",
                "../crds/godclusters.god.io-v1.yml")))) {
            k8s.resource(k8s.getKubernetesSerialization().unmarshal(crd, CustomResourceDefinition.class)).create();
        }
    }

    @AfterAll
    void stop() {
        operators.values().forEach(Process::destroyForcibly);
        if (k8s != null) {
            k8s.close();
        }
        if (api != null) {
            api.close();
        }
    }

    @Test
    void theStandbyTakesOverFromAKilledLeaderAndOnlyOneWritesAtATime() throws Exception {
        Process a = launch("operator-a");
        await().atMost(START_BOUND).until(() -> holder().equals("operator-a"));
        staleLeaseUpdatesAreRefused();
        Process b = launch("operator-b");
        // the standby is up: it checked its Lease rights and reads the Lease held by the other
        await().atMost(START_BOUND).until(() -> api.calls().stream()
                .anyMatch(c -> c.agent().equals("operator-b") && c.isLease() && c.method().equals("GET")));
        // and ready: a rolling update (maxUnavailable 0) and the PodDisruptionBudget count on a ready standby
        assertThat(readiness("operator-b")).isEqualTo(200);

        // the leader is killed mid-operation: "one" scales 3 → 4 and waits for its fourth member to be Ready
        create("one");
        await().atMost(ScaledTimeouts.TIMEOUT).until(() -> replicas("one") == 3 && status("one") != null);
        for (int i = 0; i < 3; i++) {
            readyPod("one", i); // the test plays the StatefulSet controller
        }
        // as `kubectl scale` would: the operator may write the resource between our read and our write (409),
        // then the edit is made again on the newer version
        await().atMost(ScaledTimeouts.TIMEOUT)
                .ignoreExceptionsMatching(e -> e instanceof KubernetesClientException k && k.getCode() == 409)
                .until(() -> k8s.resources(GodCluster.class).inNamespace(NS).withName("one").edit(c -> {
                    c.getSpec().setReplicas(4);
                    return c;
                }) != null);
        await().atMost(ScaledTimeouts.TIMEOUT).until(() -> replicas("one") == 4 && operation("one") != null
                && Integer.valueOf(4).equals(operation("one").getTargetReplicas()));
        Operation recorded = operation("one");
        assertThat(recorded.getType()).isEqualTo(Operation.SCALE_UP);

        a.destroyForcibly().waitFor(START_BOUND.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(a.isAlive()).isFalse();
        // once it is gone: a write it sent just before the kill reaches the API server after a timestamp taken before
        // destroyForcibly (clean-clone CI h1: one status PUT recorded after it)
        long killed = System.nanoTime();
        create("two");
        await().atMost(TAKEOVER_BOUND.plus(ScaledTimeouts.TIMEOUT)).until(() -> holder().equals("operator-b"));
        // the standby resumes the recorded operation (same start), and finishes it once the member is Ready
        await().atMost(ScaledTimeouts.TIMEOUT).until(() -> api.calls().stream().anyMatch(c -> c.agent().equals("operator-b")
                && c.isWrite() && c.path().contains("/godclusters/one")));
        assertThat(operation("one")).as("the operation the killed leader recorded").isNotNull()
                .satisfies(op -> assertThat(op.getStartedAt()).isEqualTo(recorded.getStartedAt()))
                .satisfies(op -> assertThat(op.getType()).isEqualTo(Operation.SCALE_UP));
        readyPod("one", 3);
        await().atMost(ScaledTimeouts.TIMEOUT).until(() -> operation("one") == null);
        List<Call> oneWrites = api.calls().stream().filter(c -> PAIR.contains(c.agent()) && c.isWrite()
                && c.path().contains("/godclusters/one")).toList();
        assertThat(oneWrites.get(oneWrites.size() - 1).agent()).as("who finished the scale-up of one")
                .isEqualTo("operator-b");
        long takenOver = firstLeaseWrite("operator-b");
        Duration takeover = Duration.ofNanos(takenOver - killed);
        System.out.println("LeaderElectionIT: the standby took the Lease " + takeover.toMillis() + " ms after the kill (bound "
                + TAKEOVER_BOUND.toMillis() + " ms)");
        assertThat(takeover).as("from the kill to the standby's Lease").isLessThanOrEqualTo(TAKEOVER_BOUND);
        await().atMost(ScaledTimeouts.TIMEOUT).until(() -> k8s.apps().statefulSets().inNamespace(NS).withName("two").get() != null
                && k8s.services().inNamespace(NS).list().getItems().size() >= 2 && status("two") != null);
        assertThat(b.isAlive()).isTrue();

        List<Call> writes = api.calls().stream().filter(c -> PAIR.contains(c.agent())).filter(Call::isWrite)
                .filter(c -> !c.isLease()).toList();
        assertThat(writes).as("both operators wrote").extracting(Call::agent).contains("operator-a", "operator-b");
        assertThat(identityChanges(writes)).as("writers in order: " + writers(writes)).isEqualTo(1);
        assertThat(writes).filteredOn(c -> c.agent().equals("operator-a")).as("the killed leader wrote before it died")
                .allMatch(c -> c.nanos() < killed);
        assertThat(writes).filteredOn(c -> c.agent().equals("operator-b")).as("the standby writes only once it leads")
                .allMatch(c -> c.nanos() > takenOver);

        List<String> denied = new ArrayList<>();
        for (Call c : api.calls()) {
            if (PAIR.contains(c.agent()) && c.api().isPresent() && !Rbac.allows(c.api().get())) {
                denied.add(c.agent() + " " + c.method() + " " + c.path());
            }
        }
        assertThat(denied).as("calls deploy/'s ClusterRole and Roles do not allow").isEmpty();
    }

    /**
     * The namespace-scoped install (deploy/namespaced/): the packaged operator with that Deployment's watch setting
     * (its value, {@code $(POD_NAMESPACE)}, expanded as the kubelet would) reconciles the GodCluster of its own
     * namespace and never touches one elsewhere, and every call it makes is allowed by the Roles of that install.
     */
    @Test
    void aNamespaceScopedOperatorWatchesOnlyItsNamespace() throws Exception {
        operators.values().forEach(p -> p.destroyForcibly()); // a cluster-wide operator would reconcile both
        for (Process p : operators.values()) {
            p.waitFor(START_BOUND.toMillis(), TimeUnit.MILLISECONDS);
        }
        operators.clear();
        String watched = io.god.operator.fake.NamespacedInstallTest.watchedNamespaces().replace("$(POD_NAMESPACE)",
                NAMESPACE);
        Process scoped = launch("operator-ns", Map.of(io.god.operator.fake.NamespacedInstallTest.WATCHED, watched,
                "GOD_OPERATOR_LEASE_NAME", "god-operator-namespaced"));
        try {
            create("inside", NAMESPACE);
            create("outside", NS);
            await().atMost(START_BOUND.plus(ScaledTimeouts.TIMEOUT)).until(() -> k8s.apps().statefulSets()
                    .inNamespace(NAMESPACE).withName("inside").get() != null && status(NAMESPACE, "inside") != null);
            ScaledTimeouts.stillAfter(Duration.ofSeconds(2)).untilAsserted(() -> {
                assertThat(k8s.apps().statefulSets().inNamespace(NS).withName("outside").get()).isNull();
                assertThat(status(NS, "outside")).isNull();
            });
            List<String> denied = new ArrayList<>();
            for (Call c : api.calls()) {
                if (c.agent().equals("operator-ns") && c.api().isPresent()
                        && !io.god.operator.fake.NamespacedInstallTest.allows(c.api().get())) {
                    denied.add(c.method() + " " + c.path());
                }
            }
            assertThat(denied).as("calls the namespace-scoped Roles do not allow").isEmpty();
            assertThat(api.calls()).as("it made calls").anyMatch(c -> c.agent().equals("operator-ns") && c.isWrite()
                    && !c.isLease());
        } finally {
            scoped.destroyForcibly().waitFor(START_BOUND.toMillis(), TimeUnit.MILLISECONDS);
            operators.remove("operator-ns");
        }
    }

    /** Without this the test could not fail: two writers of the Lease would both win. */
    private void staleLeaseUpdatesAreRefused() {
        Lease read = k8s.leases().inNamespace(NAMESPACE).withName(LEASE).get();
        await().atMost(START_BOUND).until(() -> !Objects.equals(resourceVersion(), read.getMetadata().getResourceVersion()));
        read.getSpec().setHolderIdentity("intruder");
        assertThatThrownBy(() -> k8s.resource(read).patch(PatchContext.of(PatchType.JSON_MERGE)))
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(409));
        assertThatThrownBy(() -> k8s.resource(read).update()).as("a stale PUT")
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(409));
        assertThat(holder()).isEqualTo("operator-a");
    }

    private Process launch(String pod) throws IOException {
        return launch(pod, Map.of());
    }

    /** A packaged operator (prod profile) as pod {@code pod} of god-system, with extra environment. */
    private Process launch(String pod, Map<String, String> env) throws IOException {
        List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx192m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-Dkubernetes.user.agent=" + pod,
                "-Dkubernetes.auth.tryKubeConfig=false", "-Dkubernetes.auth.tryServiceAccount=false",
                "-Dquarkus.kubernetes-client.api-server-url=" + api.url(),
                "-Dquarkus.http.host=127.0.0.1", "-Dquarkus.http.port=0",
                "-Dquarkus.log.file.enabled=false",
                "-Dgod.operator.lease.duration=" + LEASE_DURATION.toMillis() + "ms",
                "-Dgod.operator.lease.renew-deadline=" + LEASE_DURATION.multipliedBy(3).dividedBy(4).toMillis() + "ms",
                "-Dgod.operator.lease.retry-period=" + RETRY_PERIOD.toMillis() + "ms",
                "-Dgod.operator.poll-interval=" + TimeScale.setting("200ms"),
                "-Dgod.operator.admin-timeout=" + TimeScale.setting("200ms"),
                "-jar", jar.toAbsolutePath().toString());
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(OUT.resolve(pod + ".log").toFile()));
        builder.environment().put("POD_NAME", pod);
        builder.environment().put("POD_NAMESPACE", NAMESPACE);
        builder.environment().putAll(env);
        Process process = builder.start();
        operators.put(pod, process);
        return process;
    }

    /** The status of the process's /q/health/ready, on the port its log says it listens on. */
    private static int readiness(String pod) throws Exception {
        Path log = OUT.resolve(pod + ".log");
        Pattern listening = Pattern.compile("Listening on: (http://\\S+)");
        String url = await().atMost(START_BOUND).until(() -> Files.readAllLines(log).stream().map(listening::matcher)
                .filter(Matcher::find).map(m -> m.group(1)).findFirst().orElse(null), Objects::nonNull);
        HttpClient http = HttpClient.newHttpClient();
        return http.send(HttpRequest.newBuilder(URI.create(url + "/q/health/ready")).timeout(TimeScale.seconds(5)).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private void create(String name) {
        create(name, NS);
    }

    private void create(String name, String namespace) {
        GodCluster gc = new GodCluster();
        gc.getMetadata().setName(name);
        gc.getMetadata().setNamespace(namespace);
        gc.setSpec(new GodClusterSpec());
        gc.getSpec().setImage(ScenarioSupport.IMAGE);
        gc.getSpec().setReplicas(3); // the mock API server applies no CRD defaults
        k8s.resource(gc).create();
    }

    private int replicas(String cluster) {
        StatefulSet sts = k8s.apps().statefulSets().inNamespace(NS).withName(cluster).get();
        return sts == null ? -1 : sts.getSpec().getReplicas();
    }

    private Operation operation(String cluster) {
        GodCluster gc = k8s.resources(GodCluster.class).inNamespace(NS).withName(cluster).get();
        return gc == null || gc.getStatus() == null ? null : gc.getStatus().getOperation();
    }

    /** A Ready member pod as the StatefulSet controller makes it from the template, without an IP (no admin call). */
    private void readyPod(String cluster, int ordinal) {
        var template = k8s.apps().statefulSets().inNamespace(NS).withName(cluster).get().getSpec().getTemplate();
        k8s.resource(new PodBuilder().withNewMetadata().withName(cluster + "-" + ordinal).withNamespace(NS)
                .withLabels(template.getMetadata().getLabels()).withAnnotations(template.getMetadata().getAnnotations())
                .endMetadata().withSpec(template.getSpec()).withNewStatus().withPhase("Running").addNewCondition()
                .withType("Ready").withStatus("True")
                .endCondition().endStatus().build()).create();
    }

    private Object status(String name) {
        return status(NS, name);
    }

    private Object status(String namespace, String name) {
        GodCluster gc = k8s.resources(GodCluster.class).inNamespace(namespace).withName(name).get();
        return gc == null ? null : gc.getStatus();
    }

    private String holder() {
        Lease lease = k8s.leases().inNamespace(NAMESPACE).withName(LEASE).get();
        return lease == null ? "" : String.valueOf(lease.getSpec().getHolderIdentity());
    }

    private String resourceVersion() {
        return k8s.leases().inNamespace(NAMESPACE).withName(LEASE).get().getMetadata().getResourceVersion();
    }

    /** When the identity first wrote the Lease successfully (took it). */
    private long firstLeaseWrite(String agent) {
        return api.calls().stream().filter(c -> c.agent().equals(agent) && c.isLease() && c.isWrite()).mapToLong(Call::nanos)
                .min().orElseThrow(() -> new AssertionError(agent + " never wrote the Lease"));
    }

    private static int identityChanges(List<Call> writes) {
        int changes = 0;
        for (int i = 1; i < writes.size(); i++) {
            changes += writes.get(i).agent().equals(writes.get(i - 1).agent()) ? 0 : 1;
        }
        return changes;
    }

    private static String writers(List<Call> writes) {
        return writes.stream().map(c -> c.agent() + " " + c.method() + " " + c.path()).collect(Collectors.joining(", "));
    }
}

package io.god.operator.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.LocalPortForward;
import io.god.operator.fake.Rbac;
import io.god.operator.model.GodCluster;
import io.god.operator.model.GodClusterSpec;
import io.god.operator.model.GodClusterStatus;
import io.god.testing.ScaledTimeout;
import io.god.testing.TimeScale;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.k3s.K3sContainer;
import org.testcontainers.utility.DockerImageName;
import org.testcontainers.utility.MountableFile;

/**
 * The repository on a real Kubernetes, as a user installs it: the node and operator images built from
 * {@code Dockerfile.node} and {@code Dockerfile.operator} (with the names deploy/ uses), imported into a k3s
 * container, the shipped {@code crds/} and {@code deploy/} applied by path — the operator runs as a pod with the
 * shipped RBAC — then a GodCluster of 3 (secure by default: the client token is read from its generated Secret)
 * takes Sync writes through a port-forward of its client Service without pause while it goes 3 → 5, rolls, loses a
 * pod without grace and goes back to 3, and every acknowledged write is read back. Logs of every pod go to {@code target/e2e/} at the end.
 *
 * <p>Needs Docker (and registry access for the base and k3s images); without it the test is skipped saying so.
 * Run: {@code ./mvnw -B -pl client,node,operator -am verify -Dit.test=GodClusterE2eIT -Dtest=NoSuchTest
 * -Dsurefire.failIfNoSpecifiedTests=false -Dfailsafe.failIfNoSpecifiedTests=false}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ScaledTimeout(value = 1200, unit = TimeUnit.SECONDS)
class GodClusterE2eIT {

    static final String NS = "e2e";
    static final String NODE_IMAGE = "ghcr.io/god-io/god-node:0.1.0";
    static final String OPERATOR_IMAGE = "ghcr.io/god-io/god-operator:0.1.0";
    /** The shipped files the test applies, by path from the repository root. */
    static final List<String> SHIPPED = List.of("Dockerfile.node", "Dockerfile.operator", "crds", "deploy");
    static final Duration STEP = TimeScale.seconds(300);
    static final Path OUT = Path.of("target", "e2e");

    K3sContainer k3s;
    KubernetesClient k8s;
    final Map<String, String> acked = new LinkedHashMap<>();

    static Path root() {
        return Rbac.deployDir().toAbsolutePath().normalize().getParent();
    }

    @BeforeAll
    void start() throws Exception {
        for (String shipped : SHIPPED) {
            assertThat(root().resolve(shipped)).as("shipped file").exists();
        }
        Assumptions.assumeTrue(DockerClientFactory.instance().isDockerAvailable(),
                "no Docker on this machine: the end-to-end test builds the images and runs k3s in a container");
        Files.createDirectories(OUT);
        docker("build", "-f", "Dockerfile.node", "-t", NODE_IMAGE, ".");
        docker("build", "-f", "Dockerfile.operator", "-t", OPERATOR_IMAGE, ".");
        k3s = new K3sContainer(DockerImageName.parse(K3sTestResource.IMAGE));
        k3s.start();
        for (String image : List.of(NODE_IMAGE, OPERATOR_IMAGE)) {
            Path tar = OUT.resolve(image.replaceAll("[/:]", "_") + ".tar").toAbsolutePath();
            docker("save", "-o", tar.toString(), image);
            k3s.copyFileToContainer(MountableFile.forHostPath(tar), "/tmp/image.tar");
            var imported = k3s.execInContainer("ctr", "images", "import", "/tmp/image.tar");
            assertThat(imported.getExitCode()).as(imported.getStderr()).isZero();
        }
        k8s = new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(k3s.getKubeConfigYaml())).build();
        apply(root().resolve("crds"));
        apply(root().resolve("deploy"));
        await("the operator runs").atMost(STEP).pollInterval(Duration.ofSeconds(2)).until(() -> {
            var d = k8s.apps().deployments().inNamespace("god-system").withName("god-operator").get();
            return d != null && d.getStatus() != null && d.getStatus().getReadyReplicas() != null
                    && d.getStatus().getReadyReplicas() >= 1;
        });
    }

    @AfterAll
    void stop() throws Exception {
        if (k8s != null) {
            for (String ns : List.of("god-system", NS)) {
                for (Pod pod : k8s.pods().inNamespace(ns).list().getItems()) {
                    String name = pod.getMetadata().getName();
                    try {
                        Files.writeString(OUT.resolve(ns + "-" + name + ".log"),
                                k8s.pods().inNamespace(ns).withName(name).getLog());
                    } catch (RuntimeException e) {
                        Files.writeString(OUT.resolve(ns + "-" + name + ".log"), "no log: " + e);
                    }
                }
            }
            k8s.close();
        }
        if (k3s != null) {
            k3s.stop();
        }
    }

    @Test
    void aRingOnRealKubernetesKeepsEveryAcknowledgedWrite() throws Exception {
        k8s.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NS).endMetadata().build()).create();
        GodCluster gc = new GodCluster();
        gc.getMetadata().setName("demo");
        gc.getMetadata().setNamespace(NS);
        gc.setSpec(new GodClusterSpec());
        gc.getSpec().setReplicas(3);
        // five members must fit on one small CI runner
        gc.getSpec().setResources(new ResourceRequirementsBuilder().addToRequests("cpu", new Quantity("100m"))
                .addToRequests("memory", new Quantity("384Mi")).addToLimits("memory", new Quantity("384Mi")).build());
        k8s.resource(gc).create();
        settled(3);
        // the default GodCluster is secure: the client credential is the generated Secret's
        token = new String(Base64.getDecoder().decode(k8s.secrets().inNamespace(NS).withName("demo-client-token").get()
                .getData().get("token")), StandardCharsets.UTF_8).lines().findFirst().orElseThrow().strip();
        assertThat(rpc("Put", "{\"Key\":\"" + b64("no-token") + "\",\"Value\":\"" + b64("v") + "\"}", null)
                .statusCode()).as("a write without the credential").isEqualTo(401);

        Thread writer = new Thread(this::writeUntilStopped, "e2e-writer");
        writer.start();
        try {
            awaitWrites(50);
            edit(c -> c.getSpec().setReplicas(5));
            settled(5);
            awaitWrites(100);

            String before = hashOf(k8s.apps().statefulSets().inNamespace(NS).withName("demo").get().getMetadata()
                    .getAnnotations());
            edit(c -> c.getSpec().setRestartNonce("e2e-roll"));
            await("the roll").atMost(STEP).pollInterval(Duration.ofSeconds(2)).until(() -> k8s.pods().inNamespace(NS)
                    .list().getItems().stream().noneMatch(p -> before.equals(hashOf(p.getMetadata().getAnnotations())))
                    && isSettled(5));
            awaitWrites(150);

            // a pod lost without a goodbye (SIGKILL, no grace) comes back on its volume
            k8s.pods().inNamespace(NS).withName("demo-0").withGracePeriod(0).delete();
            settled(5);
            awaitWrites(200);

            edit(c -> c.getSpec().setReplicas(3));
            settled(3);
        } finally {
            stopWriting = true;
            writer.join(STEP.toMillis());
            forward.close();
        }
        List<String> lost = new ArrayList<>();
        for (Map.Entry<String, String> e : acked.entrySet()) {
            String got = get(e.getKey());
            if (!e.getValue().equals(got)) {
                lost.add(e.getKey() + "=" + got);
            }
        }
        System.out.println("GodClusterE2eIT: " + acked.size() + " acknowledged Sync writes, " + refused
                + " refused or failed while the ring changed");
        assertThat(acked.size()).isGreaterThanOrEqualTo(200);
        assertThat(lost).as("acknowledged Sync writes not read back").isEmpty();
    }

    private String token;
    private volatile boolean stopWriting;
    private final java.util.concurrent.atomic.AtomicInteger written = new java.util.concurrent.atomic.AtomicInteger();
    private volatile int refused;
    private final ServiceForward forward = new ServiceForward();

    /** Sync Puts of e2e-0, e2e-1, … through the Service while the ring scales, rolls and loses a pod. */
    private void writeUntilStopped() {
        for (int i = 0; !stopWriting; i++) {
            String key = "e2e-" + i;
            String value = "v" + i;
            try {
                String body = "{\"Key\":\"" + b64(key) + "\",\"Value\":\"" + b64(value) + "\",\"Sync\":true}";
                if (rpc("Put", body, token).statusCode() == 200) {
                    synchronized (acked) {
                        acked.put(key, value);
                    }
                    written.incrementAndGet();
                    continue;
                }
            } catch (Exception e) {
                forward.close(); // the forwarded pod went away: the next call picks another behind the Service
            }
            refused++;
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void awaitWrites(int n) {
        await(n + " acknowledged writes").atMost(STEP).pollInterval(Duration.ofSeconds(1)).until(() -> written.get() >= n);
    }

    private static String hashOf(Map<String, String> annotations) {
        return annotations == null ? null : annotations.get("god.io/spec-hash");
    }

    private void edit(java.util.function.Consumer<GodCluster> change) {
        k8s.resources(GodCluster.class).inNamespace(NS).withName("demo").edit(c -> {
            change.accept(c);
            return c;
        });
    }

    private boolean isSettled(int n) {
        GodCluster c = k8s.resources(GodCluster.class).inNamespace(NS).withName("demo").get();
        GodClusterStatus s = c == null ? null : c.getStatus();
        return s != null && "Running".equals(s.getPhase()) && s.getOperation() == null && s.getReadyReplicas() != null
                && s.getReadyReplicas() == n && s.getMembers().size() == n;
    }

    private void settled(int n) {
        await("Running with " + n).atMost(STEP).pollInterval(Duration.ofSeconds(2)).until(() -> isSettled(n));
    }

    private String get(String key) throws Exception {
        HttpResponse<String> r = rpc("Get", "{\"Key\":\"" + b64(key) + "\"}", token);
        if (r.statusCode() != 200 || !r.body().contains("\"Exists\":true")) {
            return null;
        }
        String value = r.body().replaceAll(".*\"Value\":\"([^\"]*)\".*", "$1");
        return new String(Base64.getDecoder().decode(value), StandardCharsets.UTF_8);
    }

    /** A god JSON call through the cluster's client Service (port-forwarded as a user would). */
    private HttpResponse<String> rpc(String method, String body, String bearer) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + forward.port() + "/rpc/DHash."
                + method)).timeout(TimeScale.seconds(10)).POST(HttpRequest.BodyPublishers.ofString(body));
        if (bearer != null) {
            b.header("Authorization", "Bearer " + bearer);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    /** One port-forward of the Service demo's HTTP port, opened again after the pod behind it went away. */
    private final class ServiceForward {
        private LocalPortForward open;

        synchronized int port() {
            if (open == null || !open.isAlive()) {
                close();
                open = k8s.services().inNamespace(NS).withName("demo").portForward(9192);
            }
            return open.getLocalPort();
        }

        synchronized void close() {
            if (open != null) {
                try {
                    open.close();
                } catch (java.io.IOException e) {
                    // already broken
                }
                open = null;
            }
        }
    }

    private static String b64(String s) {
        return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
    }

    private void apply(Path dir) throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".yaml") || p.toString().endsWith(".yml")).sorted()
                    .toList()) {
                try (InputStream in = Files.newInputStream(f)) {
                    for (HasMetadata o : k8s.load(in).items()) {
                        k8s.resource(o).serverSideApply();
                    }
                }
            }
        }
    }

    private static void docker(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("docker"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).directory(root().toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(OUT.resolve("docker.log").toFile())).start();
        assertThat(p.waitFor(20, TimeUnit.MINUTES)).as("docker " + String.join(" ", args)).isTrue();
        assertThat(p.exitValue()).as("docker " + String.join(" ", args) + " (target/e2e/docker.log)").isZero();
    }
}

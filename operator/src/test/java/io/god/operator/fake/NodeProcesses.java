package io.god.operator.fake;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.EnvFromSource;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.god.operator.resources.NodeEnv;
import io.god.operator.resources.Ports;
import io.god.testing.TimeScale;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A {@link PodRuntime} whose pods are real god nodes: the packaged node jar as a child process per pod, each on its own
 * loopback address standing in for the pod IP (pod {@code <sts>-<i>} gets {@code 127.0.0.<firstHost + i>}, stable like
 * the pod's DNS name), listening on the pod ports (HTTP 9192, binary 9191, management 9000) of that address. The node
 * gets the environment the operator gives the pod: the ConfigMap of the StatefulSet's {@code envFrom}, with the pod DNS
 * names in {@code GOD_SEEDS} and {@code GOD_NODE_ADVERTISE} mapped to the loopback addresses and {@code GOD_DATA_DIR} a
 * directory named after the claim (so it survives pod restarts and goes with {@link #wipe}). {@code extraArgs} are JVM
 * options (short ring and sync intervals). Readiness is the node's {@code /q/health/ready}; {@link #stop} is SIGTERM,
 * bounded, then SIGKILL; {@link #close} kills whatever still runs. Output: {@code <out>/<pod>.log}, appended.
 */
public final class NodeProcesses implements PodRuntime, AutoCloseable {

    private static final Duration GRACE = TimeScale.seconds(10);

    private final KubernetesClient k8s;
    private final Path jar;
    private final Path out;
    private final int firstHost;
    private final List<String> extraArgs;
    /** Whether the pods' Secret volumes reach the nodes ({@link #withSecrets}); off: the nodes run without auth. */
    private volatile boolean secrets;
    private final Map<String, Process> processes = new ConcurrentHashMap<>();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(TimeScale.millis(500))
            .version(HttpClient.Version.HTTP_1_1).build();

    public NodeProcesses(KubernetesClient k8s, Path jar, Path out, int firstHost, List<String> extraArgs) {
        this.k8s = k8s;
        this.jar = jar.toAbsolutePath();
        this.out = out.toAbsolutePath();
        this.firstHost = firstHost;
        this.extraArgs = List.copyOf(extraArgs);
    }

    /**
     * From now on a node also gets the files of its pod's Secret volumes (credentials, TLS), as the kubelet would mount
     * them: each Secret's items written under {@code <out>/secrets/<namespace>/<pod>/} when the node starts, and each
     * environment value naming a file under a Secret's mount path (GOD_AUTH_TOKEN_FILE=/etc/god/auth/client/token)
     * pointed at the copy.
     */
    public NodeProcesses withSecrets() {
        this.secrets = true;
        return this;
    }

    /** The loopback address of pod {@code <sts>-<ordinal>}. */
    public String ip(String pod) {
        return "127.0.0." + (firstHost + Integer.parseInt(pod.substring(pod.lastIndexOf('-') + 1)));
    }

    /** The binary-protocol address of a pod, as a client or a peer reaches it. */
    public String binaryAddress(String pod) {
        return ip(pod) + ":" + Ports.BINARY;
    }

    @Override
    public String start(String namespace, String pod, String claim) {
        String ip = ip(pod);
        Map<String, String> env = new HashMap<>(operatorConfig(namespace, pod));
        env.put(NodeEnv.SEEDS, mapSeeds(env.getOrDefault(NodeEnv.SEEDS, "")));
        env.put(NodeEnv.ADVERTISE, binaryAddress(pod));
        env.put(NodeEnv.DATA_DIR, dataDir(namespace, claim).toString());
        if (secrets) {
            env.putAll(secretFiles(namespace, pod));
        }
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xmx160m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-Dquarkus.http.host=" + ip, "-Dquarkus.http.port=" + Ports.HTTP,
                "-Dquarkus.management.host=" + ip, "-Dquarkus.management.port=" + Ports.MANAGEMENT,
                "-Dgod.node.port=" + Ports.BINARY, "-Dgod.node.host=" + ip)); // bound: no protected mode
        command.addAll(extraArgs);
        command.addAll(List.of("-jar", jar.toString()));
        try {
            Files.createDirectories(out);
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(out.resolve(pod + ".log").toFile()));
            builder.environment().putAll(env);
            Process process = builder.start();
            Process before = processes.put(namespace + "/" + pod, process);
            if (before != null) {
                before.destroyForcibly();
            }
            return ip;
        } catch (IOException e) {
            throw new UncheckedIOException("starting the node of " + pod, e);
        }
    }

    /** The data of the pod's ConfigMap, read through the StatefulSet's pod template like the kubelet would. */
    private Map<String, String> operatorConfig(String namespace, String pod) {
        StatefulSet sts = k8s.apps().statefulSets().inNamespace(namespace)
                .withName(pod.substring(0, pod.lastIndexOf('-'))).get();
        Map<String, String> env = new HashMap<>();
        for (EnvFromSource from : sts.getSpec().getTemplate().getSpec().getContainers().get(0).getEnvFrom()) {
            ConfigMap map = k8s.configMaps().inNamespace(namespace).withName(from.getConfigMapRef().getName()).get();
            if (map == null) {
                throw new IllegalStateException("no ConfigMap " + from.getConfigMapRef().getName() + " for " + pod);
            }
            env.putAll(map.getData());
        }
        return env;
    }

    /** The env values naming files of Secret volumes, pointed at copies of those files written now. */
    private Map<String, String> secretFiles(String namespace, String pod) {
        var template = k8s.apps().statefulSets().inNamespace(namespace).withName(pod.substring(0, pod.lastIndexOf('-')))
                .get().getSpec().getTemplate().getSpec();
        var container = template.getContainers().get(0);
        Path root = out.resolve("secrets").resolve(namespace).resolve(pod);
        Map<String, Path> mounts = new HashMap<>();
        try {
            for (var mount : container.getVolumeMounts()) {
                // the data volume comes from the claim template, not from the pod's volumes
                var volume = template.getVolumes().stream().filter(v -> v.getName().equals(mount.getName())).findFirst()
                        .orElse(null);
                if (volume == null || volume.getSecret() == null) {
                    continue;
                }
                var secret = k8s.secrets().inNamespace(namespace).withName(volume.getSecret().getSecretName()).get();
                if (secret == null) {
                    throw new IllegalStateException("no Secret " + volume.getSecret().getSecretName() + " for " + pod);
                }
                Path dir = root.resolve(mount.getName());
                Files.createDirectories(dir);
                for (var item : volume.getSecret().getItems()) {
                    Files.write(dir.resolve(item.getPath()),
                            java.util.Base64.getDecoder().decode(secret.getData().get(item.getKey())));
                }
                mounts.put(mount.getMountPath() + "/", dir);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("writing the Secret files of " + pod, e);
        }
        Map<String, String> env = new HashMap<>();
        for (var e : container.getEnv()) {
            mounts.forEach((path, dir) -> {
                if (e.getValue() != null && e.getValue().startsWith(path)) {
                    env.put(e.getName(), dir.resolve(e.getValue().substring(path.length())).toString());
                }
            });
        }
        return env;
    }

    /** {@code demo-0.demo-peers.ns.svc:9191,...} → {@code 127.0.0.x:9191,...} (the DNS the pods would have). */
    String mapSeeds(String seeds) {
        List<String> mapped = new ArrayList<>();
        for (String seed : seeds.split(",")) {
            if (!seed.isBlank()) {
                String host = seed.substring(0, seed.lastIndexOf(':'));
                String pod = host.contains(".") ? host.substring(0, host.indexOf('.')) : host;
                mapped.add(ip(pod) + seed.substring(seed.lastIndexOf(':')));
            }
        }
        return String.join(",", mapped);
    }

    Path dataDir(String namespace, String claim) {
        return out.resolve("data").resolve(namespace).resolve(claim);
    }

    @Override
    public boolean ready(String namespace, String pod, String ip) {
        Process process = processes.get(namespace + "/" + pod);
        if (process == null || !process.isAlive() || ip == null) {
            return false;
        }
        try {
            HttpResponse<Void> r = http.send(HttpRequest.newBuilder(URI.create("http://" + ip + ":" + Ports.MANAGEMENT
                    + "/q/health/ready")).timeout(TimeScale.millis(500)).build(), HttpResponse.BodyHandlers.discarding());
            return r.statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Override
    public void stop(String namespace, String pod, String ip) {
        Process process = processes.remove(namespace + "/" + pod);
        if (process != null) {
            terminate(process);
        }
    }

    /** SIGTERM, up to {@link #GRACE} for a clean shutdown, then SIGKILL. */
    private static void terminate(Process process) {
        process.destroy();
        try {
            if (!process.waitFor(GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor(GRACE.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void wipe(String namespace, String claim) {
        Path dir = dataDir(namespace, claim);
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException("wiping " + dir, e);
        }
    }

    /** SIGKILL the pod's node process (kill -9): the pod stays, unready, until it is deleted and made again. */
    public void kill(String namespace, String pod) {
        Process process = processes.get(namespace + "/" + pod);
        if (process == null) {
            throw new IllegalStateException("no node process for " + namespace + "/" + pod);
        }
        process.destroyForcibly();
        try {
            process.waitFor(GRACE.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The pods with a live node process. */
    public List<String> running() {
        return processes.entrySet().stream().filter(e -> e.getValue().isAlive()).map(Map.Entry::getKey).sorted()
                .toList();
    }

    /** Kills every node still running (forced teardown; bounded). */
    @Override
    public void close() {
        for (Process p : processes.values()) {
            p.destroyForcibly();
        }
        for (Process p : processes.values()) {
            try {
                p.waitFor(GRACE.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        processes.clear();
    }
}

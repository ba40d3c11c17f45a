package io.god.operator.resources;

import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.AffinityBuilder;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.ProbeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.ServicePortBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.god.operator.model.GodCluster;
import io.god.operator.model.PodTemplateOverrides;
import io.god.operator.model.ProbeOverrides;
import io.god.operator.model.ProbeSettings;
import io.god.operator.model.Settings;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/** The objects a GodCluster should own, computed from its spec alone (pure: no API calls). */
public final class DesiredObjects {

    /** On the StatefulSet and its pod template: hash of everything that needs a restart to take effect. */
    public static final String SPEC_HASH = "god.io/spec-hash";
    /**
     * On the pod template: hash of the contents of the Secrets the members read (credentials, TLS). Nodes read them at
     * start, so a changed Secret (a rotation, a renewed certificate) changes the spec hash and rolls the members.
     */
    public static final String SECRETS_HASH = "god.io/secrets-hash";
    public static final String DATA_VOLUME = "data";
    public static final String CONTAINER = "node";
    static final long RUN_AS_USER = 1001L;

    private final GodCluster cluster;
    private final Settings settings;
    private final Secured secured;

    /**
     * What the objects need besides the spec: the hash of the Secrets' contents (null: not read, no annotation) and the
     * operator's namespace (the NetworkPolicy lets it reach the management port).
     */
    public record Secured(String secretsHash, String operatorNamespace) {
        public static final Secured UNREAD = new Secured(null, "god-system");
    }

    public DesiredObjects(GodCluster cluster, Settings settings) {
        this(cluster, settings, Secured.UNREAD);
    }

    public DesiredObjects(GodCluster cluster, Settings settings, Secured secured) {
        this.cluster = cluster;
        this.settings = settings;
        this.secured = secured;
    }

    /** GOD_SEEDS: read only while bootstrapping, so a scale-up changes it without making members outdated. */
    public ConfigMap configMap() {
        return new ConfigMapBuilder().withMetadata(meta(Labels.configMap(cluster)))
                .withData(new TreeMap<>(Map.of(NodeEnv.SEEDS, seeds()))).build();
    }

    /**
     * The restart-relevant config, immutable, named by its hash and referenced by the pod template: a member takes a
     * new revision only when its pod is made again (the roll), never at a container restart (OOM, liveness) while
     * the shared ConfigMap would already say something else.
     */
    public ConfigMap revisionConfigMap() {
        Map<String, String> data = restartRelevantConfig();
        String hash = hash(Serialization.asJson(data));
        ObjectMeta meta = meta(Labels.configRevision(cluster, hash));
        Map<String, String> labels = new LinkedHashMap<>(meta.getLabels());
        labels.put(Labels.CONFIG_REVISION, hash);
        meta.setLabels(labels);
        return new ConfigMapBuilder().withMetadata(meta).withImmutable(true).withData(data).build();
    }

    /** Config that only takes effect at a node start, hence part of the spec hash. */
    private Map<String, String> restartRelevantConfig() {
        Map<String, String> data = new TreeMap<>();
        data.put(NodeEnv.DATA_DIR, NodeEnv.DATA_PATH);
        data.put(NodeEnv.REDUNDANCY, String.valueOf(settings.redundancy()));
        data.put(NodeEnv.TOMBSTONE_WINDOW, settings.tombstoneWindow());
        data.put(NodeEnv.FSYNC, settings.fsync());
        if (settings.snapshotThreshold() != null) {
            data.put(NodeEnv.SNAPSHOT_THRESHOLD, String.valueOf(settings.snapshotThreshold()));
        }
        return data;
    }

    /** Every member's address, ordinal order: the first one is the only member allowed to found a ring. */
    String seeds() {
        return IntStream.range(0, settings.replicas())
                .mapToObj(i -> Labels.podAddress(cluster, Labels.pod(cluster, i)))
                .collect(Collectors.joining(","));
    }

    public Service peersService() {
        return new ServiceBuilder().withMetadata(meta(Labels.peersService(cluster)))
                .withNewSpec()
                .withClusterIP("None")
                .withPublishNotReadyAddresses(true)
                .withSelector(Labels.selector(cluster))
                .withPorts(port("binary", Ports.BINARY))
                .endSpec().build();
    }

    /**
     * Every member's management port (/q/metrics, /q/health, /admin): headless, so a ServiceMonitor or a
     * Prometheus endpoints job scrapes each pod, and with not-ready pods, whose metrics say why.
     */
    public Service metricsService() {
        ObjectMeta meta = meta(Labels.metricsService(cluster));
        meta.getLabels().put(Labels.METRICS, "true");
        return new ServiceBuilder().withMetadata(meta)
                .withNewSpec()
                .withClusterIP("None")
                .withPublishNotReadyAddresses(true)
                .withSelector(Labels.selector(cluster))
                .withPorts(port("management", Ports.MANAGEMENT))
                .endSpec().build();
    }

    public Service clientService() {
        return new ServiceBuilder().withMetadata(meta(Labels.clientService(cluster)))
                .withNewSpec()
                .withType(settings.serviceType())
                .withSelector(Labels.selector(cluster))
                .withPorts(port("http", Ports.HTTP), port("binary", Ports.BINARY), port("resp", Ports.RESP))
                .endSpec().build();
    }

    private static ServicePort port(String name, int port) {
        return new ServicePortBuilder().withName(name).withPort(port).withProtocol("TCP")
                .withTargetPort(new IntOrString(name)).build();
    }

    /** The StatefulSet with the given replica count (replicas are the scale step's business, not this class's). */
    public StatefulSet statefulSet(int replicas) {
        PodTemplateSpec template = podTemplate();
        String hash = specHash(template);
        template.getMetadata().getAnnotations().put(SPEC_HASH, hash);
        ObjectMeta meta = meta(Labels.statefulSet(cluster));
        meta.setAnnotations(new LinkedHashMap<>(Map.of(SPEC_HASH, hash)));
        return new StatefulSetBuilder().withMetadata(meta)
                .withNewSpec()
                .withReplicas(replicas)
                .withServiceName(Labels.peersService(cluster))
                .withPodManagementPolicy("Parallel")
                .withNewUpdateStrategy().withType("OnDelete").endUpdateStrategy()
                .withNewSelector().withMatchLabels(Labels.selector(cluster)).endSelector()
                .withTemplate(template)
                .withVolumeClaimTemplates(claimTemplate())
                .endSpec().build();
    }

    private PersistentVolumeClaim claimTemplate() {
        return new PersistentVolumeClaimBuilder()
                .withNewMetadata().withName(DATA_VOLUME).withLabels(Labels.common(cluster)).endMetadata()
                .withNewSpec()
                .withAccessModes("ReadWriteOnce")
                .withStorageClassName(settings.storageClassName())
                .withNewResources().addToRequests("storage", new Quantity(settings.storageSize())).endResources()
                .endSpec().build();
    }

    /** Startup probe failures at 5 s: 15 min for recovery (a big member's WAL replay) before the kubelet restarts it. */
    static final int STARTUP_FAILURES = 180;
    static final String DEFAULT_CPU = "500m";
    static final String DEFAULT_MEMORY = "1Gi";

    PodTemplateSpec podTemplate() {
        PodTemplateOverrides overrides = settings.podTemplate();
        Map<String, String> labels = new LinkedHashMap<>();
        Optional.ofNullable(overrides.getLabels()).ifPresent(labels::putAll);
        labels.putAll(Labels.common(cluster)); // ours win
        Map<String, String> annotations = new LinkedHashMap<>();
        Optional.ofNullable(overrides.getAnnotations()).ifPresent(annotations::putAll);
        if (secured.secretsHash() != null) {
            annotations.put(SECRETS_HASH, secured.secretsHash());
        }
        return new PodTemplateSpecBuilder()
                .withNewMetadata().withLabels(labels).withAnnotations(annotations).endMetadata()
                .withNewSpec()
                .withNewSecurityContext()
                .withRunAsNonRoot(true).withRunAsUser(RUN_AS_USER).withRunAsGroup(RUN_AS_USER).withFsGroup(RUN_AS_USER)
                // a large volume is not walked at every start, only when its root's group is not already ours
                .withFsGroupChangePolicy("OnRootMismatch")
                .withNewSeccompProfile().withType("RuntimeDefault").endSeccompProfile()
                .endSecurityContext()
                .withTerminationGracePeriodSeconds(60L)
                .withNodeSelector(overrides.getNodeSelector())
                .withTolerations(overrides.getTolerations())
                .withAffinity(affinity(overrides.getAffinity()))
                .withTopologySpreadConstraints(overrides.getTopologySpreadConstraints())
                .withContainers(container(Optional.ofNullable(overrides.getProbes()).orElseGet(ProbeOverrides::new)))
                .addNewVolume().withName("tmp").withNewEmptyDir().endEmptyDir().endVolume()
                .addAllToVolumes(NodeSecrets.volumes(cluster))
                .endSpec().build();
    }

    private Container container(ProbeOverrides probes) {
        return new ContainerBuilder()
                .withName(CONTAINER)
                .withImage(settings.image())
                .addNewPort().withName("http").withContainerPort(Ports.HTTP).withProtocol("TCP").endPort()
                .addNewPort().withName("binary").withContainerPort(Ports.BINARY).withProtocol("TCP").endPort()
                .addNewPort().withName("resp").withContainerPort(Ports.RESP).withProtocol("TCP").endPort()
                .addNewPort().withName("management").withContainerPort(Ports.MANAGEMENT).withProtocol("TCP").endPort()
                .withEnv(env())
                .addNewEnvFrom().withNewConfigMapRef().withName(revisionConfigMap().getMetadata().getName())
                .endConfigMapRef().endEnvFrom()
                .addNewEnvFrom().withNewConfigMapRef().withName(Labels.configMap(cluster)).endConfigMapRef().endEnvFrom()
                .withResources(resources(settings.resources()))
                .withStartupProbe(probe("/q/health/live", STARTUP_FAILURES, probes.getStartup()))
                .withLivenessProbe(probe("/q/health/live", 3, probes.getLiveness()))
                .withReadinessProbe(probe("/q/health/ready", 3, probes.getReadiness()))
                .withNewSecurityContext()
                .withReadOnlyRootFilesystem(true)
                .withAllowPrivilegeEscalation(false)
                .withNewCapabilities().withDrop("ALL").endCapabilities()
                .endSecurityContext()
                .addNewVolumeMount().withName(DATA_VOLUME).withMountPath(NodeEnv.DATA_PATH).endVolumeMount()
                .addNewVolumeMount().withName("tmp").withMountPath("/tmp").endVolumeMount()
                .addAllToVolumeMounts(NodeSecrets.mounts(cluster))
                .build();
    }

    private List<EnvVar> env() {
        List<EnvVar> env = new java.util.ArrayList<>(List.of(
                fieldEnv("POD_NAME", "metadata.name"),
                fieldEnv("POD_NAMESPACE", "metadata.namespace"),
                new EnvVarBuilder().withName(NodeEnv.ADVERTISE)
                        .withValue("$(POD_NAME)." + Labels.peersService(cluster) + "." + cluster.getMetadata().getNamespace()
                                + ".svc:" + Ports.BINARY)
                        .build(),
                // a JVM node image dies cleanly on OOM (the run-java launcher of JVM images appends this);
                // the native node exits by itself on OOM (io.god.node.OomExit)
                // heap at 70 % of the container's memory leaves room for direct buffers, metaspace and threads, and
                // is the heap from the start (as a database's: not grown through frequent collections); transparent
                // huge pages for the heap where the host offers them (docs/operations.md)
                new EnvVarBuilder().withName("JAVA_OPTS_APPEND")
                        .withValue("-XX:+ExitOnOutOfMemoryError -XX:InitialRAMPercentage=70 -XX:MaxRAMPercentage=70"
                                + " -XX:+UseTransparentHugePages")
                        .build()));
        env.addAll(NodeSecrets.env(cluster));
        return env;
    }

    private static EnvVar fieldEnv(String name, String path) {
        return new EnvVarBuilder().withName(name).withNewValueFrom().withNewFieldRef().withFieldPath(path)
                .endFieldRef().endValueFrom().build();
    }

    /** The user's timing where given, else every 5 s with a 2 s timeout and the given failure threshold. */
    private static Probe probe(String path, int failureThreshold, ProbeSettings user) {
        ProbeSettings t = Optional.ofNullable(user).orElseGet(ProbeSettings::new);
        return new ProbeBuilder().withNewHttpGet().withPath(path).withPort(new IntOrString("management")).endHttpGet()
                .withInitialDelaySeconds(t.getInitialDelaySeconds())
                .withPeriodSeconds(Optional.ofNullable(t.getPeriodSeconds()).orElse(5))
                .withTimeoutSeconds(Optional.ofNullable(t.getTimeoutSeconds()).orElse(2))
                .withFailureThreshold(Optional.ofNullable(t.getFailureThreshold()).orElse(failureThreshold)).build();
    }

    /**
     * The user's resources, or requests of 500m CPU and 1 GiB; the memory limit is the memory request unless set
     * (Guaranteed memory: a node is not the first to be OOM-killed under node pressure, and the JVM sizes its heap
     * from the limit).
     */
    static ResourceRequirements resources(ResourceRequirements user) {
        ResourceRequirements r = user == null
                ? new ResourceRequirementsBuilder().addToRequests("cpu", new Quantity(DEFAULT_CPU))
                        .addToRequests("memory", new Quantity(DEFAULT_MEMORY)).build()
                : new ResourceRequirementsBuilder(user).build();
        Map<String, Quantity> requests = Optional.ofNullable(r.getRequests()).orElse(Map.of());
        Map<String, Quantity> limits = new LinkedHashMap<>(Optional.ofNullable(r.getLimits()).orElse(Map.of()));
        if (requests.containsKey("memory") && !limits.containsKey("memory")) {
            limits.put("memory", requests.get("memory"));
        }
        r.setLimits(limits);
        return r;
    }

    /** The user's affinity, plus a preferred spread of members across Kubernetes nodes unless the user set one. */
    private Affinity affinity(Affinity user) {
        AffinityBuilder b = user == null ? new AffinityBuilder() : new AffinityBuilder(user);
        if (user != null && user.getPodAntiAffinity() != null) {
            return b.build();
        }
        return b.withNewPodAntiAffinity()
                .addNewPreferredDuringSchedulingIgnoredDuringExecution()
                .withWeight(100)
                .withNewPodAffinityTerm()
                .withTopologyKey("kubernetes.io/hostname")
                .withNewLabelSelector().withMatchLabels(Labels.selector(cluster)).endLabelSelector()
                .endPodAffinityTerm()
                .endPreferredDuringSchedulingIgnoredDuringExecution()
                .endPodAntiAffinity().build();
    }

    /** Hash of the pod template and the restart-relevant config: members started from another hash are outdated. */
    String specHash(PodTemplateSpec template) {
        // the template names the config revision, so a config change changes the hash too
        return hash(Serialization.asJson(template) + "|restartNonce="
                + Optional.ofNullable(settings.restartNonce()).orElse(""));
    }

    /** 16 hex digits of the text's SHA-256. */
    public static String hash(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Present when replicas > 1; with one member a PDB would only block node drains. */
    public Optional<PodDisruptionBudget> podDisruptionBudget() {
        if (settings.replicas() <= 1) {
            return Optional.empty();
        }
        return Optional.of(new PodDisruptionBudgetBuilder().withMetadata(meta(Labels.podDisruptionBudget(cluster)))
                .withNewSpec()
                .withMaxUnavailable(new IntOrString(1))
                .withNewSelector().withMatchLabels(Labels.selector(cluster)).endSelector()
                .endSpec().build());
    }

    /** Present unless spec.networkPolicy.enabled is false. */
    public Optional<NetworkPolicy> networkPolicy() {
        return NetworkPolicies.enabled(cluster) ? Optional.of(NetworkPolicies.desired(cluster,
                meta(Labels.networkPolicy(cluster)), secured.operatorNamespace())) : Optional.empty();
    }

    private ObjectMeta meta(String name) {
        return new ObjectMetaBuilder().withName(name).withNamespace(cluster.getMetadata().getNamespace())
                .withLabels(Labels.common(cluster)).withOwnerReferences(ownerReference(cluster)).build();
    }

    public static OwnerReference ownerReference(HasMetadata owner) {
        return new OwnerReferenceBuilder().withApiVersion(owner.getApiVersion()).withKind(owner.getKind())
                .withName(owner.getMetadata().getName()).withUid(owner.getMetadata().getUid())
                .withController(true).build();
    }
}

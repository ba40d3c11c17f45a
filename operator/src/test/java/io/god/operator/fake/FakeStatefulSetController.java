package io.god.operator.fake;

import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.logging.Logger;

/**
 * Stands in for the StatefulSet, kubelet and PVC-protection controllers the mock API server lacks (after
 * cass-operator's envtest statefulset_controller and Strimzi's MockPodController). Every tick, for each StatefulSet:
 * pods {@code <sts>-<i>} exist for i < replicas and are created from the current template; pods at or above replicas are
 * deleted; existing pods are never updated (OnDelete: a deleted pod comes back from the new template); a PVC
 * {@code <claim>-<sts>-<i>} with the {@code kubernetes.io/pvc-protection} finalizer exists for each pod and is kept
 * when the pod goes; pods are Ready when their runtime says so ({@link PodRuntime#ready}) and they are not annotated
 * {@value #NOT_READY}; a PVC being deleted loses its finalizer
 * once no pod uses it; no pod is created while its PVC is being deleted (the StatefulSet controller does not start
 * a pod on a claim that is going away). What runs in a pod is a {@link PodRuntime}.
 */
public final class FakeStatefulSetController implements AutoCloseable {

    /** Annotate a pod with this (any value) to keep it unready. */
    public static final String NOT_READY = "fake.god.io/not-ready";
    public static final String PVC_PROTECTION = "kubernetes.io/pvc-protection";
    private static final Logger LOG = Logger.getLogger(FakeStatefulSetController.class);
    /** pod IP → namespace/pod, so the fake NodeAdmin knows who it answers for. */
    private static final Map<String, String> PODS_BY_IP = new ConcurrentHashMap<>();
    private static final AtomicInteger NEXT_IP = new AtomicInteger(1);

    private final KubernetesClient client;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "fake-statefulset-controller");
        t.setDaemon(true);
        return t;
    });

    private final PodRuntime runtime;
    /** "namespace/pod" → the IP its runtime member has, to stop it when the pod is gone. */
    private final Map<String, String> running = new ConcurrentHashMap<>();
    /** "namespace/pod" whose next incarnation stays Pending: no IP, never Ready (unschedulable, image not pulled). */
    private final java.util.Set<String> pending = ConcurrentHashMap.newKeySet();
    /** "namespace/pod" of every pod that went away, in the order this controller noticed. */
    private final List<String> gone = new java.util.concurrent.CopyOnWriteArrayList<>();

    public FakeStatefulSetController(KubernetesClient client) {
        this(client, new FakeIps());
    }

    public FakeStatefulSetController(KubernetesClient client, PodRuntime runtime) {
        this.client = client;
        this.runtime = runtime;
    }

    /** Made-up pod IPs that {@link FakeNodeAdmin} answers for. */
    static final class FakeIps implements PodRuntime {
        @Override
        public String start(String namespace, String pod, String claim) {
            int n = NEXT_IP.getAndIncrement();
            String ip = "10.0." + (n / 250) + "." + (n % 250 + 1);
            PODS_BY_IP.put(ip, namespace + "/" + pod);
            return ip;
        }

        @Override
        public void stop(String namespace, String pod, String ip) {
            PODS_BY_IP.remove(ip);
        }

        @Override
        public void wipe(String namespace, String claim) {
        }
    }

    /** "namespace/pod" of every made-up pod of the namespace that runs now. */
    public static List<String> pods(String namespace) {
        return PODS_BY_IP.values().stream().filter(p -> p.startsWith(namespace + "/")).sorted().toList();
    }

    public static Optional<String> podAt(String ip) {
        return Optional.ofNullable(PODS_BY_IP.get(ip));
    }

    /** The IP of the running instance of "namespace/pod". */
    public static Optional<String> ipOf(String namespacedPod) {
        return PODS_BY_IP.entrySet().stream().filter(e -> e.getValue().equals(namespacedPod)).map(Map.Entry::getKey)
                .findFirst();
    }

    /** The pods of a namespace that went away (deleted, or removed by a scale-down), oldest first. */
    public List<String> gone(String namespace) {
        return gone.stream().filter(k -> k.startsWith(namespace + "/")).map(k -> k.substring(namespace.length() + 1))
                .toList();
    }

    /** Pods made under this name from now on stay Pending without an IP (true), or start normally again (false). */
    public void pending(String namespace, String pod, boolean stays) {
        if (stays) {
            pending.add(namespace + "/" + pod);
        } else {
            pending.remove(namespace + "/" + pod);
        }
    }

    public FakeStatefulSetController start() {
        timer.scheduleWithFixedDelay(this::tickSafely, 0, 100, TimeUnit.MILLISECONDS);
        return this;
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }

    private void tickSafely() {
        try {
            tick();
        } catch (RuntimeException e) {
            LOG.debugf("fake controller tick failed (retrying): %s", e.getMessage());
        }
    }

    void tick() {
        stopVanishedPods(); // first: a pod deleted since the last tick is recreated below under the same name
        for (StatefulSet sts : client.apps().statefulSets().inAnyNamespace().list().getItems()) {
            reconcile(sts);
        }
        releaseUnusedClaims();
    }

    private void stopVanishedPods() {
        Map<String, String> ips = new HashMap<>();
        for (Pod p : client.pods().inAnyNamespace().list().getItems()) {
            if (p.getStatus() != null && p.getStatus().getPodIP() != null) {
                ips.put(p.getMetadata().getNamespace() + "/" + p.getMetadata().getName(), p.getStatus().getPodIP());
            }
        }
        running.forEach((key, ip) -> {
            if (!ip.equals(ips.get(key))) {
                running.remove(key, ip);
                gone.add(key);
                runtime.stop(key.substring(0, key.indexOf('/')), key.substring(key.indexOf('/') + 1), ip);
            }
        });
    }

    private void reconcile(StatefulSet sts) {
        String ns = sts.getMetadata().getNamespace();
        String name = sts.getMetadata().getName();
        int replicas = Optional.ofNullable(sts.getSpec().getReplicas()).orElse(1);
        Map<String, Pod> pods = new HashMap<>();
        client.pods().inNamespace(ns).withLabels(sts.getSpec().getSelector().getMatchLabels()).list().getItems()
                .forEach(p -> pods.put(p.getMetadata().getName(), p));
        for (Pod pod : pods.values()) {
            int ordinal = ordinal(name, pod.getMetadata().getName());
            if (ordinal >= replicas && pod.getMetadata().getDeletionTimestamp() == null) {
                client.pods().inNamespace(ns).withName(pod.getMetadata().getName()).delete();
            }
        }
        for (int i = 0; i < replicas; i++) {
            String podName = name + "-" + i;
            Pod pod = pods.get(podName);
            boolean claimsUsable = ensureClaims(sts, i);
            if (pod == null && claimsUsable) {
                createPod(sts, podName, i);
            } else if (pod != null) {
                updateReadiness(pod);
            }
        }
    }

    private static int ordinal(String sts, String pod) {
        try {
            return Integer.parseInt(pod.substring(sts.length() + 1));
        } catch (RuntimeException e) {
            return -1;
        }
    }

    private void createPod(StatefulSet sts, String podName, int ordinal) {
        String ns = sts.getMetadata().getNamespace();
        String claim = sts.getSpec().getVolumeClaimTemplates().get(0).getMetadata().getName() + "-"
                + sts.getMetadata().getName() + "-" + ordinal;
        String before = running.remove(ns + "/" + podName);
        if (before != null) { // deleted and recreated since the last look
            gone.add(ns + "/" + podName);
            runtime.stop(ns, podName, before);
        }
        boolean isPending = pending.contains(ns + "/" + podName);
        String ip = isPending ? null : runtime.start(ns, podName, claim);
        if (ip != null) {
            running.put(ns + "/" + podName, ip);
        }
        Map<String, String> labels = new HashMap<>(sts.getSpec().getTemplate().getMetadata().getLabels());
        labels.put("statefulset.kubernetes.io/pod-name", podName);
        Pod pod = new PodBuilder()
                .withNewMetadata().withName(podName).withNamespace(ns).withLabels(labels)
                .withUid(java.util.UUID.randomUUID().toString()) // as the API server does: each pod its own uid
                .withAnnotations(sts.getSpec().getTemplate().getMetadata().getAnnotations())
                .withOwnerReferences(new OwnerReferenceBuilder().withApiVersion("apps/v1").withKind("StatefulSet")
                        .withName(sts.getMetadata().getName()).withUid(sts.getMetadata().getUid())
                        .withController(true).build())
                .endMetadata()
                .withSpec(sts.getSpec().getTemplate().getSpec())
                .editSpec().withHostname(podName).withSubdomain(sts.getSpec().getServiceName()).endSpec()
                .withNewStatus().withPhase(isPending ? "Pending" : "Running").withPodIP(ip)
                .withConditions(ready(!isPending && runtime.ready(ns, podName, ip))).endStatus()
                .build();
        client.resource(pod).create();
    }

    private void updateReadiness(Pod pod) {
        boolean wanted = (pod.getMetadata().getAnnotations() == null
                || !pod.getMetadata().getAnnotations().containsKey(NOT_READY))
                && pod.getStatus() != null && pod.getStatus().getPodIP() != null
                && runtime.ready(pod.getMetadata().getNamespace(),
                        pod.getMetadata().getName(), pod.getStatus().getPodIP());
        boolean now = pod.getStatus() != null && pod.getStatus().getConditions() != null
                && pod.getStatus().getConditions().stream()
                        .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
        if (wanted != now && pod.getMetadata().getDeletionTimestamp() == null) {
            client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName())
                    .editStatus(p -> {
                        p.getStatus().setConditions(new ArrayList<>(List.of(ready(wanted))));
                        return p;
                    });
        }
    }

    private static PodCondition ready(boolean ready) {
        return new PodConditionBuilder().withType("Ready").withStatus(ready ? "True" : "False").build();
    }

    /** @return false while a claim of this ordinal is being deleted: no pod may start on it */
    private boolean ensureClaims(StatefulSet sts, int ordinal) {
        String ns = sts.getMetadata().getNamespace();
        boolean usable = true;
        for (PersistentVolumeClaim template : sts.getSpec().getVolumeClaimTemplates()) {
            String claim = template.getMetadata().getName() + "-" + sts.getMetadata().getName() + "-" + ordinal;
            PersistentVolumeClaim existing = client.persistentVolumeClaims().inNamespace(ns).withName(claim).get();
            if (existing != null && existing.getMetadata().getDeletionTimestamp() != null) {
                usable = false;
            }
            if (existing == null) {
                client.resource(new PersistentVolumeClaimBuilder()
                        .withNewMetadata().withName(claim).withNamespace(ns)
                        .withLabels(template.getMetadata().getLabels())
                        .withFinalizers(PVC_PROTECTION).endMetadata()
                        .withSpec(template.getSpec())
                        .withNewStatus().withPhase("Bound").endStatus()
                        .build()).create();
            }
        }
        return usable;
    }

    /** The PVC-protection controller: a claim being deleted goes once no pod of its ordinal exists. */
    private void releaseUnusedClaims() {
        for (PersistentVolumeClaim pvc : client.persistentVolumeClaims().inAnyNamespace().list().getItems()) {
            if (pvc.getMetadata().getDeletionTimestamp() == null) {
                continue;
            }
            String ns = pvc.getMetadata().getNamespace();
            String podName = pvc.getMetadata().getName().substring(pvc.getMetadata().getName().indexOf('-') + 1);
            if (client.pods().inNamespace(ns).withName(podName).get() == null) {
                client.persistentVolumeClaims().inNamespace(ns).withName(pvc.getMetadata().getName()).edit(p -> {
                    p.getMetadata().getFinalizers().remove(PVC_PROTECTION);
                    return p;
                });
                runtime.wipe(ns, pvc.getMetadata().getName());
            }
        }
    }
}

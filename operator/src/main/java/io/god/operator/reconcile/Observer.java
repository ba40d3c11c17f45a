package io.god.operator.reconcile;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.god.operator.admin.NodeAdmin;
import io.god.operator.admin.NodeStatus;
import io.god.operator.model.GodCluster;
import io.god.operator.reconcile.Observation.ClaimView;
import io.god.operator.reconcile.Observation.PodView;
import io.god.operator.resources.DesiredObjects;
import io.god.operator.resources.Labels;
import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Reads the world; changes nothing. Reads the StatefulSet, the member pods and PVCs (straight from the API server, so a
 * step just taken is seen), and asks every pod that has an IP (Ready or not) for its /admin/status in parallel, bounded by a timeout.
 */
public final class Observer {

    private final KubernetesClient client;
    private final NodeAdmin admin;
    private final Duration timeout;

    public Observer(KubernetesClient client, NodeAdmin admin, Duration timeout) {
        this.client = client;
        this.admin = admin;
        this.timeout = timeout;
    }

    public Observation observe(GodCluster cluster) {
        return observe(cluster, null);
    }

    /**
     * As {@link #observe(GodCluster)}, taking the /admin/status answer (or failure) of a pod that {@code earlier} — an
     * observation of the same pass — already asked (same pod uid and IP) instead of asking again: each member is asked
     * once per pass, so a member that answers every other call (crash-looping) is not always asked at its silent turn.
     */
    public Observation observe(GodCluster cluster, Observation earlier) {
        String ns = cluster.getMetadata().getNamespace();
        StatefulSet sts = client.apps().statefulSets().inNamespace(ns).withName(Labels.statefulSet(cluster)).get();
        int stsReplicas = sts == null || sts.getSpec().getReplicas() == null ? 0 : sts.getSpec().getReplicas();
        String templateHash = sts == null ? null : annotation(sts.getSpec().getTemplate().getMetadata());
        String prefix = Labels.statefulSet(cluster) + "-";
        List<PodView> pods = client.pods().inNamespace(ns).withLabels(Labels.selector(cluster)).list().getItems().stream()
                .map(p -> view(p, prefix)).flatMap(Optional::stream)
                .sorted(Comparator.comparingInt(PodView::ordinal)).toList();
        String claimPrefix = DesiredObjects.DATA_VOLUME + "-" + prefix;
        List<ClaimView> claims = client.persistentVolumeClaims().inNamespace(ns).withLabels(Labels.selector(cluster))
                .list().getItems().stream().map(c -> claim(c, claimPrefix)).flatMap(Optional::stream)
                .sorted(Comparator.comparingInt(ClaimView::ordinal)).toList();
        Map<String, CompletableFuture<NodeStatus>> calls = new LinkedHashMap<>();
        for (PodView p : pods) {
            // every pod with an IP, Ready or not: a node that is LEAVING, LEFT or recovering reports itself unready,
            // and the planner must know what it is doing (a terminating pod is on its way out and is not asked)
            if (p.ip() != null && !p.terminating()) {
                CompletableFuture<NodeStatus> asked = earlier == null ? null : earlier.answerOf(p);
                calls.put(p.name(), asked != null ? asked
                        : ask(p.ip()).orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS));
            }
        }
        Map<String, NodeStatus> statuses = new LinkedHashMap<>();
        Map<String, String> unreachable = new LinkedHashMap<>();
        calls.forEach((pod, call) -> {
            try {
                statuses.put(pod, call.join());
            } catch (RuntimeException e) {
                Throwable cause = e.getCause() == null ? e : e.getCause();
                unreachable.put(pod, cause.getClass().getSimpleName() + ": " + cause.getMessage());
            }
        });
        return new Observation(stsReplicas, templateHash, pods, claims, statuses, unreachable);
    }

    /** A NodeAdmin that throws instead of failing its future still only makes that member unreachable. */
    private CompletableFuture<NodeStatus> ask(String ip) {
        try {
            return admin.status(ip).toCompletableFuture();
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    static Optional<PodView> view(Pod pod, String prefix) {
        String name = pod.getMetadata().getName();
        int ordinal = ordinal(name, prefix);
        if (ordinal < 0) {
            return Optional.empty();
        }
        boolean terminating = pod.getMetadata().getDeletionTimestamp() != null;
        boolean ready = !terminating && pod.getStatus() != null && pod.getStatus().getConditions() != null
                && pod.getStatus().getConditions().stream()
                        .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
        String ip = pod.getStatus() == null ? null : pod.getStatus().getPodIP();
        return Optional.of(new PodView(name, ordinal, ready, ip, terminating, annotation(pod.getMetadata()),
                pod.getMetadata().getUid()));
    }

    /** data-demo-3 → ordinal 3; the provisioned capacity when known, else the request. */
    static Optional<ClaimView> claim(PersistentVolumeClaim pvc, String prefix) {
        String name = pvc.getMetadata().getName();
        int ordinal = ordinal(name, prefix);
        if (ordinal < 0) {
            return Optional.empty();
        }
        Quantity size = Optional.ofNullable(pvc.getStatus()).map(s -> s.getCapacity()).map(c -> c.get("storage"))
                .orElseGet(() -> Optional.ofNullable(pvc.getSpec()).map(s -> s.getResources())
                        .map(r -> r.getRequests()).map(r -> r.get("storage")).orElse(null));
        long bytes = size == null ? 0 : Quantity.getAmountInBytes(size).longValue();
        return Optional.of(new ClaimView(name, ordinal, bytes, pvc.getMetadata().getDeletionTimestamp() != null));
    }

    private static int ordinal(String name, String prefix) {
        if (!name.startsWith(prefix)) {
            return -1;
        }
        try {
            return Integer.parseInt(name.substring(prefix.length()));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static String annotation(ObjectMeta meta) {
        return meta == null || meta.getAnnotations() == null ? null : meta.getAnnotations().get(DesiredObjects.SPEC_HASH);
    }
}

package io.god.operator.resources;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.ServiceSpec;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.god.operator.model.GodCluster;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.BiPredicate;

/**
 * Creates the owned objects and repairs drift. Each kind compares only the fields the operator owns, so values the
 * API server or other controllers fill in (clusterIP, nodePorts, defaulted template fields) never count as drift, and
 * a repair is a JSON patch of those fields, never a replace. StatefulSet replicas are left alone: the scale step owns
 * them. An object of the same name without this GodCluster's owner reference is someone else's: it is never adopted,
 * changed or deleted, only reported as a conflict.
 */
public final class OwnedObjects {

    private final KubernetesClient client;

    public OwnedObjects(KubernetesClient client) {
        this.client = client;
    }

    /**
     * What one pass did: a short description of each object created or repaired ("created ConfigMap demo-config"),
     * and each object left alone because another owner has it ("Service demo-peers exists and is not owned by ...").
     */
    public record Result(List<String> changes, List<String> conflicts) {
    }

    public Result apply(GodCluster cluster, DesiredObjects desired) {
        List<Owned<?>> owned = new ArrayList<>(List.of(
                new Owned<>(desired.configMap(), ConfigMap.class, OwnedObjects::configMapInSync, OwnedObjects::copyConfigMap),
                new Owned<>(desired.revisionConfigMap(), ConfigMap.class, OwnedObjects::configMapInSync,
                        OwnedObjects::copyConfigMap),
                new Owned<>(desired.peersService(), Service.class, OwnedObjects::serviceInSync, OwnedObjects::copyService),
                new Owned<>(desired.clientService(), Service.class, OwnedObjects::serviceInSync, OwnedObjects::copyService),
                new Owned<>(desired.metricsService(), Service.class, OwnedObjects::serviceInSync, OwnedObjects::copyService),
                new Owned<>(desired.statefulSet(0), StatefulSet.class, OwnedObjects::statefulSetInSync,
                        OwnedObjects::copyStatefulSet)));
        Optional<PodDisruptionBudget> pdb = desired.podDisruptionBudget();
        pdb.ifPresent(p -> owned.add(new Owned<>(p, PodDisruptionBudget.class, OwnedObjects::pdbInSync,
                OwnedObjects::copyPdb)));
        Optional<NetworkPolicy> policy = desired.networkPolicy();
        policy.ifPresent(p -> owned.add(new Owned<>(p, NetworkPolicy.class, OwnedObjects::networkPolicyInSync,
                OwnedObjects::copyNetworkPolicy)));
        Result result = new Result(new ArrayList<>(), new ArrayList<>());
        List<HasMetadata> actual = new ArrayList<>();
        for (Owned<?> o : owned) { // all checked before anything is made: a blocked cluster gets no half of its objects
            HasMetadata a = o.actual(client);
            actual.add(a);
            if (a != null && !ownedBy(a, o.desired())) {
                result.conflicts().add(conflict(a, o.desired()));
            }
        }
        if (!result.conflicts().isEmpty()) {
            return result;
        }
        for (int i = 0; i < owned.size(); i++) {
            owned.get(i).ensure(client, actual.get(i), result.changes());
        }
        if (pdb.isEmpty()) {
            deleteOwned(cluster, PodDisruptionBudget.class, Labels.podDisruptionBudget(cluster), result);
        }
        if (policy.isEmpty()) {
            deleteOwned(cluster, NetworkPolicy.class, Labels.networkPolicy(cluster), result);
        }
        pruneRevisions(cluster, desired.revisionConfigMap().getMetadata().getName(), result);
        return result;
    }

    /**
     * Deletes the config revisions (ours, by label and owner) that neither the StatefulSet's template nor any
     * existing pod uses: a pod not yet rolled keeps its revision until it is made again.
     */
    private void pruneRevisions(GodCluster cluster, String current, Result result) {
        String ns = cluster.getMetadata().getNamespace();
        Set<String> used = new HashSet<>(Set.of(current));
        for (Pod pod : client.pods().inNamespace(ns).withLabels(Labels.selector(cluster)).list().getItems()) {
            pod.getSpec().getContainers().forEach(c -> Optional.ofNullable(c.getEnvFrom()).orElse(List.of()).stream()
                    .filter(e -> e.getConfigMapRef() != null).forEach(e -> used.add(e.getConfigMapRef().getName())));
        }
        for (ConfigMap revision : client.configMaps().inNamespace(ns).withLabels(Labels.selector(cluster))
                .withLabel(Labels.CONFIG_REVISION).list().getItems()) {
            String name = revision.getMetadata().getName();
            if (!used.contains(name) && ownerUids(revision).contains(cluster.getMetadata().getUid())) {
                client.configMaps().inNamespace(ns).withName(name).delete();
                result.changes().add("deleted ConfigMap " + name + " (a config revision no pod uses)");
            }
        }
    }

    /** One owned object: what it should be, and which of its fields are ours to compare and repair. */
    private record Owned<T extends HasMetadata>(T desired, Class<T> type, BiPredicate<T, T> inSync,
            BiConsumer<T, T> copyOwnedFields) {

        HasMetadata actual(KubernetesClient client) {
            return client.resources(type).inNamespace(desired.getMetadata().getNamespace())
                    .withName(desired.getMetadata().getName()).get();
        }

        void ensure(KubernetesClient client, HasMetadata existing, List<String> changes) {
            String name = desired.getMetadata().getName();
            if (existing == null) {
                client.resource(desired).create();
                changes.add("created " + type.getSimpleName() + " " + name);
            } else if (!(inSync.test(type.cast(existing), desired) && metaInSync(existing, desired))) {
                client.resources(type).inNamespace(desired.getMetadata().getNamespace()).withName(name).edit(current -> {
                    copyMeta(current, desired);
                    copyOwnedFields.accept(current, desired);
                    return current;
                });
                changes.add("updated " + type.getSimpleName() + " " + name);
            }
        }
    }

    /** Deletes an object the spec no longer asks for, when it is this GodCluster's (someone else's stays). */
    private <T extends HasMetadata> void deleteOwned(GodCluster cluster, Class<T> type, String name, Result result) {
        var resource = client.resources(type).inNamespace(cluster.getMetadata().getNamespace()).withName(name);
        T actual = resource.get();
        if (actual != null && ownerUids(actual).contains(cluster.getMetadata().getUid())) {
            resource.delete();
            result.changes().add("deleted " + type.getSimpleName() + " " + name);
        }
    }

    /** Whether the existing object carries the desired owner reference (this GodCluster's uid). */
    private static boolean ownedBy(HasMetadata actual, HasMetadata desired) {
        return ownerUids(actual).contains(desired.getMetadata().getOwnerReferences().get(0).getUid());
    }

    private static List<String> ownerUids(HasMetadata object) {
        return Optional.ofNullable(object.getMetadata().getOwnerReferences()).orElse(List.of()).stream()
                .map(OwnerReference::getUid).toList();
    }

    private static String conflict(HasMetadata actual, HasMetadata desired) {
        List<OwnerReference> refs = Optional.ofNullable(actual.getMetadata().getOwnerReferences()).orElse(List.of());
        String owners = refs.isEmpty() ? "no owner" : "owned by " + String.join(", ",
                refs.stream().map(r -> r.getKind() + " " + r.getName()).toList());
        return actual.getKind() + " " + actual.getMetadata().getName() + " exists and is not this GodCluster's ("
                + owners + "); it is left alone: delete or rename it, or rename the GodCluster "
                + desired.getMetadata().getOwnerReferences().get(0).getName();
    }

    /** Our labels (the owner reference is checked before: {@link #ownedBy}). */
    private static boolean metaInSync(HasMetadata actual, HasMetadata desired) {
        Map<String, String> labels = Optional.ofNullable(actual.getMetadata().getLabels()).orElse(Map.of());
        return desired.getMetadata().getLabels().entrySet().stream()
                .allMatch(e -> e.getValue().equals(labels.get(e.getKey())));
    }

    private static void copyMeta(HasMetadata current, HasMetadata desired) {
        Map<String, String> labels = new HashMap<>(Optional.ofNullable(current.getMetadata().getLabels()).orElse(Map.of()));
        labels.putAll(desired.getMetadata().getLabels());
        current.getMetadata().setLabels(labels);
    }

    static boolean configMapInSync(ConfigMap actual, ConfigMap desired) {
        return Objects.equals(actual.getData(), desired.getData());
    }

    static void copyConfigMap(ConfigMap current, ConfigMap desired) {
        current.setData(desired.getData());
    }

    static boolean serviceInSync(Service actual, Service desired) {
        ServiceSpec a = actual.getSpec();
        ServiceSpec d = desired.getSpec();
        return a != null
                && Objects.equals(a.getSelector(), d.getSelector())
                && Objects.equals(typeOf(a), typeOf(d))
                && (d.getClusterIP() == null || d.getClusterIP().equals(a.getClusterIP()))
                && Objects.equals(Boolean.TRUE.equals(a.getPublishNotReadyAddresses()),
                        Boolean.TRUE.equals(d.getPublishNotReadyAddresses()))
                && portsKey(a.getPorts()).equals(portsKey(d.getPorts()));
    }

    private static String typeOf(ServiceSpec spec) {
        return spec.getType() == null ? "ClusterIP" : spec.getType();
    }

    /** name/port/targetPort/protocol of each port; nodePort is the API server's to assign. */
    private static List<String> portsKey(List<ServicePort> ports) {
        return Optional.ofNullable(ports).orElse(List.of()).stream()
                .map(p -> p.getName() + "/" + p.getPort() + "/" + p.getTargetPort() + "/"
                        + Optional.ofNullable(p.getProtocol()).orElse("TCP"))
                .sorted().toList();
    }

    static void copyService(Service current, Service desired) {
        ServiceSpec c = current.getSpec();
        ServiceSpec d = desired.getSpec();
        c.setSelector(d.getSelector());
        c.setType(d.getType());
        c.setPublishNotReadyAddresses(d.getPublishNotReadyAddresses());
        c.setPorts(d.getPorts());
        if ("ClusterIP".equals(typeOf(d))) {
            c.setExternalTrafficPolicy(null); // only valid for NodePort/LoadBalancer
        }
    }

    /** The hash annotation stands for the template (the API server defaults template fields, so no deep compare). */
    static boolean statefulSetInSync(StatefulSet actual, StatefulSet desired) {
        return actual.getSpec() != null
                && Objects.equals(hash(actual), hash(desired))
                && Objects.equals(hash(actual.getSpec().getTemplate().getMetadata()), hash(desired))
                && actual.getSpec().getUpdateStrategy() != null
                && "OnDelete".equals(actual.getSpec().getUpdateStrategy().getType());
    }

    private static String hash(StatefulSet sts) {
        return hash(sts.getMetadata());
    }

    private static String hash(io.fabric8.kubernetes.api.model.ObjectMeta meta) {
        return meta == null || meta.getAnnotations() == null ? null : meta.getAnnotations().get(DesiredObjects.SPEC_HASH);
    }

    /** Template, update strategy and hash only: selector, serviceName and claim templates are immutable. */
    static void copyStatefulSet(StatefulSet current, StatefulSet desired) {
        Map<String, String> annotations = new HashMap<>(
                Optional.ofNullable(current.getMetadata().getAnnotations()).orElse(Map.of()));
        annotations.putAll(desired.getMetadata().getAnnotations());
        current.getMetadata().setAnnotations(annotations);
        current.getSpec().setTemplate(desired.getSpec().getTemplate());
        current.getSpec().setUpdateStrategy(desired.getSpec().getUpdateStrategy());
    }

    static boolean pdbInSync(PodDisruptionBudget actual, PodDisruptionBudget desired) {
        return actual.getSpec() != null
                && Objects.equals(actual.getSpec().getMaxUnavailable(), desired.getSpec().getMaxUnavailable())
                && actual.getSpec().getMinAvailable() == null
                && actual.getSpec().getSelector() != null
                && Objects.equals(actual.getSpec().getSelector().getMatchLabels(),
                        desired.getSpec().getSelector().getMatchLabels());
    }

    static void copyPdb(PodDisruptionBudget current, PodDisruptionBudget desired) {
        current.setSpec(desired.getSpec());
    }

    /** The whole spec is ours; compared as JSON, where an empty list or selector and an absent one are alike. */
    static boolean networkPolicyInSync(NetworkPolicy actual, NetworkPolicy desired) {
        return Serialization.jsonMapper().valueToTree(actual.getSpec())
                .equals(Serialization.jsonMapper().valueToTree(desired.getSpec()));
    }

    static void copyNetworkPolicy(NetworkPolicy current, NetworkPolicy desired) {
        current.setSpec(desired.getSpec());
    }
}

package io.god.operator.reconcile;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvFromSource;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.god.operator.admin.NodeStatus;
import io.god.operator.model.GodCluster;
import io.god.operator.model.Settings;
import io.god.operator.resources.DesiredObjects;
import io.god.operator.resources.NodeEnv;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The N a ring runs with, which spec.redundancy cannot change (DESIGN §8). The first pass that acts on the spec records
 * it in status.redundancy. Until then (a cluster made by an operator before issue 26, or a first pass that failed
 * before its status write) it is taken from what runs, most direct first: the N the members report on /admin/status;
 * else the N the StatefulSet's template gives the nodes (its config revision, or the shared ConfigMap where operators
 * before the config revisions kept GOD_REDUNDANCY). Nothing known (a new cluster): any N is accepted.
 */
final class FixedRedundancy {

    private final KubernetesClient client;

    FixedRedundancy(KubernetesClient client) {
        this.client = client;
    }

    /** The recorded N, or null when the status has none yet. */
    static Integer recorded(GodCluster cluster) {
        return cluster.getStatus() == null ? null : cluster.getStatus().getRedundancy();
    }

    /**
     * The problems of a spec.redundancy that differs from what runs, for a cluster whose status has no N yet.
     *
     * @param seen the members' answers (pods without an answer, or answering without N, tell nothing)
     * @param sts the cluster's StatefulSet, or null
     */
    List<String> problems(GodCluster cluster, Settings settings, Observation seen, StatefulSet sts) {
        List<String> problems = new ArrayList<>();
        Set<Integer> reported = reported(seen);
        if (reported.isEmpty()) {
            SpecValidator.checkRedundancy(settings, configured(cluster, sts), problems);
        } else if (!reported.contains(settings.redundancy())) {
            // members with different N (an unfinished roll of an earlier operator): either value ends it
            problems.add("spec.redundancy is fixed after creation: the running members report N "
                    + reported.stream().map(String::valueOf).collect(Collectors.joining(" and ")) + ", got "
                    + settings.redundancy() + " (set it back; to change N, back up and restore into a new GodCluster)");
        }
        return problems;
    }

    /** The distinct N the members report. */
    static Set<Integer> reported(Observation seen) {
        return seen.statuses().values().stream().map(NodeStatus::redundancy).filter(Objects::nonNull)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /**
     * GOD_REDUNDANCY as the StatefulSet's node container gets it: a literal env entry, else the last ConfigMap of
     * its envFrom that has it (Kubernetes' precedence); null without a StatefulSet or a readable number.
     */
    Integer configured(GodCluster cluster, StatefulSet sts) {
        Optional<Container> node = Optional.ofNullable(sts).map(s -> s.getSpec().getTemplate().getSpec())
                .flatMap(pod -> pod.getContainers().stream()
                        .filter(c -> DesiredObjects.CONTAINER.equals(c.getName())).findFirst());
        if (node.isEmpty()) {
            return null;
        }
        String value = Optional.ofNullable(node.get().getEnv()).orElse(List.of()).stream()
                .filter(e -> NodeEnv.REDUNDANCY.equals(e.getName()) && e.getValue() != null).map(EnvVar::getValue)
                .findFirst().orElse(null);
        if (value == null) {
            value = fromConfigMaps(cluster, node.get());
        }
        try {
            return value == null ? null : Integer.valueOf(value.trim());
        } catch (NumberFormatException e) {
            return null; // drift of someone else's making: repaired from the spec
        }
    }

    private String fromConfigMaps(GodCluster cluster, Container node) {
        String value = null;
        for (EnvFromSource from : Optional.ofNullable(node.getEnvFrom()).orElse(List.of())) {
            if (from.getConfigMapRef() == null || from.getConfigMapRef().getName() == null) {
                continue;
            }
            ConfigMap config = client.configMaps().inNamespace(cluster.getMetadata().getNamespace())
                    .withName(from.getConfigMapRef().getName()).get();
            String here = config == null || config.getData() == null ? null : config.getData().get(NodeEnv.REDUNDANCY);
            value = here != null ? here : value;
        }
        return value;
    }
}

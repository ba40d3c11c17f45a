package io.god.operator.fake;

import io.god.operator.admin.LeaveAnswer;
import io.god.operator.admin.NodeAdmin;
import io.god.operator.admin.NodeStatus;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Replaces the HTTP NodeAdmin in tests. By default every pod the fake StatefulSet controller made answers as an ACTIVE,
 * replicated member whose ring hash is the same for the whole namespace; tests override single pods or a namespace.
 * Leaving follows the node's contract: POST /admin/leave makes the member LEAVING, and after a number of status calls
 * (per namespace, {@link #leaveCalls}) it is LEFT; DELETE /admin/leave makes a LEAVING member ACTIVE and is refused
 * once it is LEFT. Leave state and unreachability belong to the pod instance (its IP): a recreated pod starts ACTIVE
 * and answers (a new process), as soon as it exists.
 * With {@link #realNodes} set, hosts no made-up pod has (real node processes on 127.0.0.x) are asked through it.
 */
@ApplicationScoped
public class FakeNodeAdmin implements NodeAdmin {

    public static final long DEFAULT_DATA_BYTES = 4096;

    /** "namespace/pod" → the answer, or null to make the pod unreachable. */
    private final Map<String, NodeStatus> overrides = new ConcurrentHashMap<>();
    /** pod IP → "namespace/pod" of a pod instance that does not answer. */
    private final Map<String, String> unreachable = new ConcurrentHashMap<>();
    /** pod IP → status calls left until LEFT (0 = LEFT). */
    private final Map<String, Integer> leaving = new ConcurrentHashMap<>();
    private final Map<String, Integer> leaveCalls = new ConcurrentHashMap<>();
    private final Set<String> notReplicated = ConcurrentHashMap.newKeySet();
    private final Map<String, String> refuseLeave = new ConcurrentHashMap<>();
    private final Map<String, Long> dataBytes = new ConcurrentHashMap<>();
    /** namespace → the N its members report (none by default, as a node before issue 26). */
    private final Map<String, Integer> redundancy = new ConcurrentHashMap<>();
    private final Map<String, java.time.Duration> slow = new ConcurrentHashMap<>();
    /** pod IP → n: the instance crash-loops, answering only every n-th /admin/status call. */
    private final Map<String, Integer> crashLoop = new ConcurrentHashMap<>();
    private final Map<String, Long> crashLoopCalls = new ConcurrentHashMap<>();
    private final Set<String> outOfView = ConcurrentHashMap.newKeySet();
    /** "namespace/pod" → the IP of its instance when {@link #keepInView} was called. */
    private final Map<String, String> inView = new ConcurrentHashMap<>();
    /** "namespace/pod" → /admin/status calls made to it, answered or not: one per reconcile pass while it is Ready. */
    private final Map<String, Long> statusCalls = new ConcurrentHashMap<>();
    /** "namespace/pod leave|cancel", in call order. */
    public final List<String> calls = new CopyOnWriteArrayList<>();
    /** namespace → run on each leave call to one of its pods, before the node answers (with the pod's name). */
    private final Map<String, java.util.function.Consumer<String>> onLeave = new ConcurrentHashMap<>();
    /** "namespace/pod" → the bearer token of the last call made to it through {@link #withToken} ("null": none). */
    private final Map<String, String> tokens = new ConcurrentHashMap<>();
    /** The production NodeAdmin for real node processes, or null. */
    private volatile NodeAdmin realNodes;

    /** Hosts that are not made-up pods are real nodes from now on, asked through {@code admin} (null: none). */
    public void realNodes(NodeAdmin admin) {
        this.realNodes = admin;
    }

    /** The NodeAdmin for a real node at this host, or null when the host is (or is not) a made-up pod. */
    private NodeAdmin real(String host) {
        NodeAdmin admin = realNodes;
        return admin != null && FakeStatefulSetController.podAt(host).isEmpty() ? admin : null;
    }

    @Override
    public CompletionStage<NodeStatus> status(String host) {
        if (real(host) != null) {
            return real(host).status(host);
        }
        FakeStatefulSetController.podAt(host).ifPresent(p -> statusCalls.merge(p, 1L, Long::sum));
        String pod = reachable(host);
        if (pod == null || crashed(host)) {
            return refused(host);
        }
        java.time.Duration delay = slow.get(pod);
        if (delay != null) {
            return CompletableFuture.supplyAsync(() -> current(host, pod),
                    CompletableFuture.delayedExecutor(delay.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS));
        }
        NodeStatus override = overrides.get(pod);
        if (override != null) {
            return CompletableFuture.completedFuture(override);
        }
        leaving.computeIfPresent(host, (ip, left) -> Math.max(0, left - 1));
        return CompletableFuture.completedFuture(current(host, pod));
    }

    @Override
    public CompletionStage<LeaveAnswer> leave(String host) {
        if (real(host) != null) {
            return real(host).leave(host);
        }
        String pod = reachable(host);
        if (pod == null) {
            return refused(host);
        }
        calls.add(pod + " leave");
        onLeave.getOrDefault(namespace(pod), p -> { }).accept(pod);
        String refusal = refuseLeave.get(pod);
        if (refusal != null) {
            return CompletableFuture.completedFuture(LeaveAnswer.refused(refusal));
        }
        leaving.putIfAbsent(host, leaveCalls.getOrDefault(namespace(pod), 3));
        return CompletableFuture.completedFuture(LeaveAnswer.accepted(current(host, pod)));
    }

    @Override
    public CompletionStage<LeaveAnswer> cancelLeave(String host) {
        if (real(host) != null) {
            return real(host).cancelLeave(host);
        }
        String pod = reachable(host);
        if (pod == null) {
            return refused(host);
        }
        calls.add(pod + " cancel");
        if (Integer.valueOf(0).equals(leaving.get(host))) {
            return CompletableFuture.completedFuture(LeaveAnswer.refused("already LEFT"));
        }
        leaving.remove(host);
        return CompletableFuture.completedFuture(LeaveAnswer.accepted(current(host, pod)));
    }

    /** Answers like this fake, recording the token each made-up pod was sent; real nodes get it in their header. */
    @Override
    public NodeAdmin withToken(String token) {
        return new Authorized(token);
    }

    /** The bearer token of the last call the operator made to the pod ("null" when it sent none, null when none). */
    public String lastToken(String namespace, String pod) {
        return tokens.get(namespace + "/" + pod);
    }

    /** The production NodeAdmin with the token for a real node at this host; null (the token recorded) otherwise. */
    private NodeAdmin sent(String host, String token) {
        NodeAdmin real = real(host);
        if (real != null) {
            return real.withToken(token);
        }
        FakeStatefulSetController.podAt(host).ifPresent(p -> tokens.put(p, String.valueOf(token)));
        return null;
    }

    private final class Authorized implements NodeAdmin {
        private final String token;

        Authorized(String token) {
            this.token = token;
        }

        @Override
        public NodeAdmin withToken(String other) {
            return FakeNodeAdmin.this.withToken(other);
        }

        @Override
        public CompletionStage<NodeStatus> status(String host) {
            NodeAdmin real = sent(host, token);
            return real != null ? real.status(host) : FakeNodeAdmin.this.status(host);
        }

        @Override
        public CompletionStage<LeaveAnswer> leave(String host) {
            NodeAdmin real = sent(host, token);
            return real != null ? real.leave(host) : FakeNodeAdmin.this.leave(host);
        }

        @Override
        public CompletionStage<LeaveAnswer> cancelLeave(String host) {
            NodeAdmin real = sent(host, token);
            return real != null ? real.cancelLeave(host) : FakeNodeAdmin.this.cancelLeave(host);
        }

        @Override
        public CompletionStage<io.god.operator.admin.RemoveAnswer> removeMember(String host, String address,
                String position) {
            NodeAdmin real = sent(host, token);
            return real != null ? real.removeMember(host, address, position)
                    : FakeNodeAdmin.this.removeMember(host, address, position);
        }
    }

    /** Records "namespace/pod remove <address>"; answers like a node without the call (404), as main's nodes do. */
    @Override
    public CompletionStage<io.god.operator.admin.RemoveAnswer> removeMember(String host, String address,
            String position) {
        String pod = reachable(host);
        if (pod == null) {
            return refused(host);
        }
        calls.add(pod + " remove " + address.substring(0, address.indexOf('.')));
        return CompletableFuture.completedFuture(io.god.operator.admin.RemoveAnswer.unsupported("404"));
    }

    /** Runs {@code hook} on every leave call to a pod of the namespace, while the operator waits for the answer. */
    public void onLeave(String namespace, java.util.function.Consumer<String> hook) {
        onLeave.put(namespace, hook);
    }

    /** The pod answers /admin/status only after this delay (a slow admin; beyond the operator's timeout: none). */
    public void slow(String namespace, String pod, java.time.Duration delay) {
        slow.put(namespace + "/" + pod, delay);
    }

    /**
     * The pod's current instance crash-loops: it answers only every {@code every}-th /admin/status call (the first
     * call after this one answers), and refuses the others; its successor (another IP) answers as usual.
     */
    public void crashLoop(String namespace, String pod, int every) {
        String ip = FakeStatefulSetController.ipOf(namespace + "/" + pod)
                .orElseThrow(() -> new IllegalStateException("no pod " + namespace + "/" + pod + " runs"));
        crashLoopCalls.put(ip, 0L);
        crashLoop.put(ip, every);
    }

    /** A crash-looping instance is down for this call. */
    private boolean crashed(String host) {
        Integer every = crashLoop.get(host);
        return every != null && crashLoopCalls.merge(host, 1L, Long::sum) % every != 1 % every;
    }

    /** "namespace/pod" at this IP, or null when no pod answers there. */
    private String reachable(String host) {
        String pod = FakeStatefulSetController.podAt(host).orElse(null);
        return pod == null || unreachable.containsKey(host) ? null : pod;
    }

    private static <T> CompletionStage<T> refused(String host) {
        return CompletableFuture.failedFuture(new IOException("connection refused: " + host));
    }

    private NodeStatus current(String host, String pod) {
        Integer left = leaving.get(host);
        String ns = namespace(pod);
        String state = left == null ? NodeStatus.ACTIVE : left == 0 ? NodeStatus.LEFT : NodeStatus.LEAVING;
        int total = 8;
        NodeStatus.LeaveProgress progress = left == null ? null
                : new NodeStatus.LeaveProgress(left == 0 ? NodeStatus.LEAVE_DONE : "HANDING_OFF", "2026-11-21T10:00:00Z",
                        total, left == 0 ? total : total / 2);
        // a finished drain dropped the member's data; the ring view holds every pod of the namespace not dropped
        java.util.SortedSet<String> members = new java.util.TreeSet<>(FakeStatefulSetController.pods(ns));
        // a new instance of the pod runs: the views follow the pods again
        inView.entrySet().removeIf(e -> FakeStatefulSetController.ipOf(e.getKey()).filter(ip -> !ip.equals(e.getValue()))
                .isPresent());
        inView.keySet().stream().filter(p -> p.startsWith(ns + "/")).forEach(members::add);
        List<NodeStatus.RingMember> ring = members.stream()
                .filter(p -> !outOfView.contains(p))
                .map(p -> new NodeStatus.RingMember(position(p), p.substring(ns.length() + 1) + ".peers:9191")).toList();
        return new NodeStatus(state, position(pod), "ring-" + ns, 3, !notReplicated.contains(ns), 10,
                left != null && left == 0 ? 0 : 30, dataBytes.getOrDefault(ns, DEFAULT_DATA_BYTES), null, null, null,
                null, progress, ring, redundancy.get(ns));
    }

    /**
     * The members still list this pod in their ring views until a new instance of it runs (their failure detection
     * has not dropped it yet, as right after its pod was deleted): it cannot be removed as dead meanwhile.
     */
    public void keepInView(String namespace, String pod) {
        inView.put(namespace + "/" + pod, FakeStatefulSetController.ipOf(namespace + "/" + pod).orElse(""));
    }

    /** The members' failure detection dropped this pod from their ring views. */
    public void dropFromView(String namespace, String pod) {
        outOfView.add(namespace + "/" + pod);
    }

    public static NodeStatus active(String namespacedPod) {
        String ns = namespace(namespacedPod);
        return status(NodeStatus.ACTIVE, "ring-" + ns, true, namespacedPod);
    }

    public static NodeStatus status(String state, String ringHash, boolean replicated, String namespacedPod) {
        return new NodeStatus(state, position(namespacedPod), ringHash, 3, replicated, 10, 30, DEFAULT_DATA_BYTES,
                null, null, null, null);
    }

    private static String position(String namespacedPod) {
        return Integer.toHexString(namespacedPod.hashCode());
    }

    private static String namespace(String namespacedPod) {
        return namespacedPod.substring(0, namespacedPod.indexOf('/'));
    }

    public void answer(String namespace, String pod, NodeStatus status) {
        overrides.put(namespace + "/" + pod, status);
    }

    /** The pod's current instance stops answering (its replacement answers: {@link FakeNodeAdmin}). */
    public void unreachable(String namespace, String pod) {
        String ip = FakeStatefulSetController.ipOf(namespace + "/" + pod)
                .orElseThrow(() -> new IllegalStateException("no pod " + namespace + "/" + pod + " runs"));
        unreachable.put(ip, namespace + "/" + pod);
    }

    public void reset(String namespace, String pod) {
        overrides.remove(namespace + "/" + pod);
        unreachable.values().removeIf((namespace + "/" + pod)::equals);
        refuseLeave.remove(namespace + "/" + pod);
        slow.remove(namespace + "/" + pod);
        outOfView.remove(namespace + "/" + pod);
    }

    /** How many status calls a leave takes in this namespace (Integer.MAX_VALUE: it never ends by itself). */
    public void leaveCalls(String namespace, int statusCalls) {
        leaveCalls.put(namespace, statusCalls);
    }

    /** Every member of the namespace reports replicated=false (or true again). */
    public void replicated(String namespace, boolean replicated) {
        if (replicated) {
            notReplicated.remove(namespace);
        } else {
            notReplicated.add(namespace);
        }
    }

    /** Every member of the namespace reports this many bytes held. */
    public void dataBytes(String namespace, long bytes) {
        dataBytes.put(namespace, bytes);
    }

    /** Every member of the namespace reports this N in /admin/status. */
    public void redundancy(String namespace, int n) {
        redundancy.put(namespace, n);
    }

    /** Every member of the namespace that is LEAVING is LEFT now. */
    public void finishLeaves(String namespace) {
        leaving.replaceAll((ip, left) -> FakeStatefulSetController.podAt(ip).filter(p -> p.startsWith(namespace + "/"))
                .isPresent() ? 0 : left);
    }

    public void refuseLeave(String namespace, String pod, String reason) {
        refuseLeave.put(namespace + "/" + pod, reason);
    }

    /** How many times the operator asked this pod for its status: a count of reconcile passes that saw it Ready. */
    public long statusCalls(String namespace, String pod) {
        return statusCalls.getOrDefault(namespace + "/" + pod, 0L);
    }

    public List<String> calls(String namespace) {
        return calls.stream().filter(c -> c.startsWith(namespace + "/")).map(c -> c.substring(namespace.length() + 1))
                .toList();
    }
}

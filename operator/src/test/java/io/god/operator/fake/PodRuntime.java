package io.god.operator.fake;

/**
 * What runs "inside" the pods of the {@link FakeStatefulSetController}. The default only hands out made-up pod IPs that
 * {@link FakeNodeAdmin} answers for. A runtime that starts a real god node per pod on its own 127.0.0.x address (data
 * directory named after the claim, so it survives pod restarts and goes with {@link #wipe}) lets real node processes
 * stand in for pods, with the production HttpNodeAdmin speaking to them.
 */
public interface PodRuntime {

    /** Starts the member for a new pod; returns the pod IP its management API listens on. */
    String start(String namespace, String pod, String claim);

    /** The pod is gone: stop its member (its data stays with the claim). */
    void stop(String namespace, String pod, String ip);

    /** The claim is gone: delete its data. */
    void wipe(String namespace, String claim);

    /** The pod's readiness probe (a real node: its {@code /q/health/ready}); made-up pods are always ready. */
    default boolean ready(String namespace, String pod, String ip) {
        return true;
    }
}

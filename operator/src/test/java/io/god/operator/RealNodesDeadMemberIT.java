package io.god.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.god.client.GodClient;
import io.god.operator.admin.NodeStatus;
import io.god.operator.model.GodClusterStatus;
import io.god.operator.model.Operation;
import io.god.testing.ScaledTimeout;
import io.god.testing.TimeScale;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Issue 25 with real nodes ({@link RealNodesSupport}): the operator's escapes from a dead member. A ring of 4 (N=3)
 * is scaled to 3; the drained member is killed with SIGKILL as its drain starts; replicas go back to 4 at once. The
 * operator abandons the drain once the member has not answered for {@code god.operator.unanswered-after}, deletes its
 * pod, and the member comes back on its own data. Meanwhile a client writes with Sync=true and reads back: no
 * acknowledged write is lost, and a call fails only inside the fail-over bound after the kill (the nodes' failure
 * detection, {@code god.ring.failures × god.ring.interval}, plus one {@code god.rpc.timeout}, × the time scale). Then
 * a replace request ({@code god.io/replace-member}) wipes a member: it rejoins empty and anti-entropy restores N
 * copies of every key.
 */
@QuarkusTest
@WithKubernetesTestServer(crud = true)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ScaledTimeout(value = 300, unit = TimeUnit.SECONDS)
class RealNodesDeadMemberIT extends RealNodesSupport {

    static final String NS = "dead";
    static final int N = 3;
    static final Duration STEP_BOUND = TimeScale.seconds(90);
    /** Failure detection plus one replica timeout: after it the ring has given up on the dead member. */
    static final Duration FAIL_OVER = TimeScale.of(RING_INTERVAL.multipliedBy(RING_FAILURES)).plus(RPC_TIMEOUT);

    @Override
    String namespace() {
        return NS;
    }

    @Override
    Path out() {
        return Path.of("target", "real-nodes-dead-member-it");
    }

    @Override
    int firstHost() {
        return 130;
    }

    @Test
    void aMemberKilledDuringItsDrainComesBackAndAReplacedMemberRejoinsEmpty() throws Exception {
        create(NS, "demo", spec -> {
            spec.setReplicas(4);
            spec.setRedundancy(N);
        });
        settled(4, START_BOUND.plus(STEP_BOUND), "start 4");

        long killedAt;
        try (GodClient client = client("demo-0", "demo-1", "demo-2")) {
            Thread thread = startWorkload(client, "dead-");
            try {
                await().atMost(TimeScale.seconds(30)).until(() -> workload.acked.size() >= 300);

                edit(NS, "demo", gc -> gc.getSpec().setReplicas(3));
                await("demo-3 drains").atMost(TimeScale.seconds(20)).pollInterval(Duration.ofMillis(20))
                        .ignoreExceptions().until(() -> NodeStatus.LEAVING.equals(statuses(List.of("demo-3")).get(0).state()));
                nodes.kill(NS, "demo-3");
                killedAt = System.nanoTime();
                GodClusterStatus atKill = current(NS, "demo").getStatus();
                assertThat(drainOf3(atKill)).as("killed while its drain was open: " + atKill.getOperation()).isTrue();
                // the way out the README names: raise replicas again (before the operator could remove it as dead)
                edit(NS, "demo", gc -> gc.getSpec().setReplicas(4));
                int before = workload.acked.size();
                settled(4, STEP_BOUND, "killed during its drain, back to 4");
                assertThat(eventReasons(NS)).contains("DrainingMember", "DrainAbandoned");
                assertThat(fakeController.gone(NS)).as("the dead member's pod was deleted and made again")
                        .containsExactly("demo-3");
                assertThat(workload.acked.size()).as("writes acknowledged meanwhile").isGreaterThan(before);
                long writes = workload.acked.size();
                await().atMost(TimeScale.seconds(10)).until(() -> workload.acked.size() >= writes + 20);
            } finally {
                stopWorkload(thread);
            }
            assertThat(workload.failures).as("reads that missed an acknowledged write")
                    .noneMatch(RealNodesSupport.Failure::lostWrite);
            long kill = killedAt;
            assertThat(workload.failures).as("failed calls: only those running within " + FAIL_OVER.toMillis()
                    + " ms after the kill (at " + workload.millis(kill) + " ms)")
                    .allMatch(f -> f.endedAt() >= kill && f.startedAt() <= kill + FAIL_OVER.toNanos());
            assertThat(unreadableAcknowledgedWrites(client)).as("acknowledged writes lost").isEmpty();

            // replace demo-1 on request: pod and PVC deleted, it rejoins empty
            String uid = k8s.pods().inNamespace(NS).withName("demo-1").get().getMetadata().getUid();
            edit(NS, "demo", gc -> gc.getMetadata().getAnnotations().put("god.io/replace-member", "1"));
            await("the replace request is accepted").atMost(TimeScale.seconds(20))
                    .until(() -> current(NS, "demo").getStatus().getLastReplacement() != null);
            settled(4, STEP_BOUND, "replace demo-1");
            GodClusterStatus done = current(NS, "demo").getStatus();
            assertThat(done.getLastReplacement().getOrdinal()).isEqualTo(1);
            assertThat(done.getLastReplacement().getPodUid()).isEqualTo(uid);
            assertThat(current(NS, "demo").getMetadata().getAnnotations()).doesNotContainKey("god.io/replace-member");
            assertThat(fakeController.gone(NS)).as("replaced once").containsExactly("demo-3", "demo-1");
            assertThat(eventReasons(NS)).contains("ReplacingMember", "MemberReplaced");

            long keys = workload.attempted.stream().filter(k -> client.get(GodClient.utf8(k)).exists()).count();
            assertThat(keys).isGreaterThanOrEqualTo(workload.acked.size());
            await("N copies of every key").atMost(TimeScale.seconds(30)).pollInterval(Duration.ofMillis(200))
                    .untilAsserted(() -> {
                        List<NodeStatus> statuses = statuses(List.of("demo-0", "demo-1", "demo-2", "demo-3"));
                        assertThat(statuses).allSatisfy(s -> assertThat(s.replicated()).isTrue());
                        assertThat(statuses.get(1).heldEntries()).as("the replaced member holds its ranges again")
                                .isPositive();
                        assertThat(statuses.stream().mapToLong(NodeStatus::ownedEntries).sum())
                                .as("owned ranges cover every key once").isEqualTo(keys);
                        assertThat(statuses.stream().mapToLong(NodeStatus::heldEntries).sum())
                                .as("N copies of every key").isEqualTo(N * keys);
                    });
            assertThat(unreadableAcknowledgedWrites(client)).as("acknowledged writes lost by the replace").isEmpty();
        }
        assertThat(fakeController.gone(NS)).as("one replacement, however many reconciles passed")
                .containsExactly("demo-3", "demo-1");
    }

    private static boolean drainOf3(GodClusterStatus s) {
        Operation op = s == null ? null : s.getOperation();
        return op != null && Operation.SCALE_DOWN.equals(op.getType()) && Integer.valueOf(3).equals(op.getOrdinal())
                && !Operation.STEP_SHRINKING.equals(op.getStep()) && !Operation.STEP_DELETING_CLAIM.equals(op.getStep());
    }
}

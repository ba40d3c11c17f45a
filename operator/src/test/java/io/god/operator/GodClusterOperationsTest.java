package io.god.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.god.operator.admin.NodeStatus;
import io.god.operator.fake.ApiCall;
import io.god.operator.fake.FakeNodeAdmin;
import io.god.operator.fake.TestClock;
import io.god.operator.model.GodCluster;
import io.god.operator.model.GodClusterStatus;
import io.god.operator.model.Operation;
import io.god.operator.reconcile.Conditions;
import io.god.operator.reconcile.GodClusterReconciler;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.KubernetesServer;
import io.quarkus.test.kubernetes.client.KubernetesTestServer;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Operator part 2 end to end against the mock API server: drained scale-down, rolling restarts, pause, and that no
 * volume is ever deleted for staleness, with the fake StatefulSet/Pod/PVC controller (PVC-protection finalizer
 * included) and the fake NodeAdmin (leaves take a few status calls). The scenarios that move the operator's clock
 * forward run last; the last test checks every PVC deletion of all of them.
 */
@QuarkusTest
@WithKubernetesTestServer(crud = true)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class GodClusterOperationsTest extends ScenarioSupport {

    static final long GIB = 1L << 30;

    @KubernetesTestServer
    KubernetesServer server;

    @Inject
    FakeNodeAdmin nodeAdmin;

    @Inject
    TestClock clock;

    @Inject
    MeterRegistry meters;

    @Inject
    io.javaoperatorsdk.operator.Operator operator;


    @BeforeAll
    void startFakes() {
        startFakes(server);
    }

    @AfterAll
    void stopFakes() {
        closeFakes();
    }

    GodClusterStatus running(String ns, int replicas) {
        return await().atMost(TIMEOUT).until(() -> current(ns, "demo").getStatus(),
                s -> s != null && "Running".equals(s.getPhase()) && s.getReadyReplicas() == replicas
                        && s.getReplicas() == replicas && s.getOperation() == null);
    }

    int stsReplicas(String ns) {
        return k8s.apps().statefulSets().inNamespace(ns).withName("demo").get().getSpec().getReplicas();
    }

    List<String> claimNames(String ns) {
        return k8s.persistentVolumeClaims().inNamespace(ns).list().getItems().stream()
                .map(c -> c.getMetadata().getName()).sorted().toList();
    }

    String claimUid(String ns, String claim) {
        var pvc = k8s.persistentVolumeClaims().inNamespace(ns).withName(claim).get();
        return pvc == null ? null : pvc.getMetadata().getUid();
    }

    String podUid(String ns, String pod) {
        Pod p = k8s.pods().inNamespace(ns).withName(pod).get();
        return p == null ? null : p.getMetadata().getUid();
    }

    @Test
    @Order(1)
    void scaleDownDrainsTheHighestOrdinalFirstAndDeletesItsClaim() {
        String ns = "drain";
        create(ns, "demo", spec -> spec.setReplicas(4));
        running(ns, 4);
        edit(ns, "demo", gc -> gc.getSpec().setReplicas(2));
        GodClusterStatus status = running(ns, 2);

        assertThat(nodeAdmin.calls(ns)).as("one leave per member, highest first").containsExactly(
                "demo-3 leave", "demo-2 leave");
        assertThat(fakeController.gone(ns)).containsExactly("demo-3", "demo-2");
        assertThat(stsReplicas(ns)).isEqualTo(2);
        assertThat(claimNames(ns)).containsExactly("data-demo-0", "data-demo-1");
        assertThat(status.getMembers()).hasSize(2);
        List<String> reasons = eventReasons(ns);
        assertThat(reasons).contains("DrainingMember", "MemberLeft", "ClaimDeleted");
        assertThat(events(ns).stream().filter(e -> "DrainingMember".equals(e.getReason())).map(e -> e.getMessage()))
                .containsExactly("scaling from 4 to 2: asking demo-3 to leave the ring",
                        "scaling from 3 to 2: asking demo-2 to leave the ring");
    }

    @Test
    @Order(2)
    void scaleDownRefusedWithoutRoom() {
        String ns = "no-room";
        create(ns, "demo", spec -> spec.setReplicas(3));
        running(ns, 3);
        nodeAdmin.dataBytes(ns, GIB + GIB / 10); // 3.3 GiB held (N=3): 2 members would hold 2.2 GiB on 2 × 1 GiB

        edit(ns, "demo", gc -> gc.getSpec().setReplicas(2));
        GodClusterStatus refused = awaitPhase(ns, "demo", "ScaleDownRefused");
        assertCondition(refused, Conditions.PROGRESSING, "False", "ScaleDownRefused");
        assertThat(Conditions.find(refused.getConditions(), Conditions.PROGRESSING).get().getMessage())
                .contains("cannot hold the data");
        assertThat(events(ns)).anySatisfy(e -> {
            assertThat(e.getReason()).isEqualTo("ScaleDownRefused");
            assertThat(e.getType()).isEqualTo("Warning");
        });
        ScaledTimeouts.stillAfter(Duration.ofSeconds(1)).untilAsserted(() -> {
            assertThat(stsReplicas(ns)).isEqualTo(3);
            assertThat(nodeAdmin.calls(ns)).isEmpty();
        });
        assertThat(eventReasons(ns).stream().filter("ScaleDownRefused"::equals)).as("one event, not one per pass")
                .hasSize(1);

        nodeAdmin.dataBytes(ns, GIB / 2);
        running(ns, 2);
        assertThat(nodeAdmin.calls(ns)).containsExactly("demo-2 leave");
    }

    @Test
    @Order(3)
    void scaleDownCancelledWhenReplicasRiseMidDrain() {
        String ns = "cancel";
        nodeAdmin.leaveCalls(ns, Integer.MAX_VALUE);
        create(ns, "demo", spec -> spec.setReplicas(3));
        running(ns, 3);
        List<String> pods = podUids(ns);

        edit(ns, "demo", gc -> gc.getSpec().setReplicas(2));
        GodClusterStatus draining = await().atMost(TIMEOUT).until(() -> current(ns, "demo").getStatus(),
                s -> s.getMembers().size() == 3 && "LEAVING".equals(s.getMembers().get(2).getState()));
        assertThat(draining.getPhase()).isEqualTo("ScalingDown");
        assertThat(draining.getOperation()).satisfies(op -> {
            assertThat(op.getType()).isEqualTo(Operation.SCALE_DOWN);
            assertThat(op.getOrdinal()).isEqualTo(2);
            assertThat(op.getStep()).isEqualTo(Operation.STEP_LEAVING);
        });
        assertCondition(draining, Conditions.PROGRESSING, "True", "ScalingDown");

        edit(ns, "demo", gc -> gc.getSpec().setReplicas(3));
        running(ns, 3);
        assertThat(nodeAdmin.calls(ns)).containsExactly("demo-2 leave", "demo-2 cancel");
        assertThat(podUids(ns)).as("nobody restarted").containsExactlyInAnyOrderElementsOf(pods);
        assertThat(claimNames(ns)).hasSize(3);
        assertThat(eventReasons(ns)).contains("DrainCancelled");
    }

    /**
     * The operator keeps nothing in memory between passes: the step in progress is status.operation. Pausing stops
     * the passes the way a stopped operator would; the member finishes leaving meanwhile; the next pass continues
     * from the recorded step (shrink), without asking the member to leave again.
     */
    @Test
    @Order(4)
    void operatorRestartMidDrainResumes() {
        String ns = "resume";
        nodeAdmin.leaveCalls(ns, Integer.MAX_VALUE);
        create(ns, "demo", spec -> spec.setReplicas(3));
        running(ns, 3);
        edit(ns, "demo", gc -> gc.getSpec().setReplicas(2));
        await().atMost(TIMEOUT).until(() -> current(ns, "demo").getStatus().getOperation(),
                op -> op != null && Operation.STEP_LEAVING.equals(op.getStep()));

        // a leaving node may report itself unready: the operator keeps asking it
        markNotReady(ns, "demo-2");
        await().atMost(TIMEOUT).until(() -> current(ns, "demo").getStatus().getReadyReplicas() == 2);
        edit(ns, "demo", gc -> gc.getMetadata().getAnnotations().put("god.io/paused", "true"));
        GodClusterStatus paused = awaitPhase(ns, "demo", "Paused");
        assertThat(paused.getOperation().getOrdinal()).as("the step survives in the status").isEqualTo(2);
        nodeAdmin.finishLeaves(ns);

        edit(ns, "demo", gc -> gc.getMetadata().getAnnotations().remove("god.io/paused"));
        running(ns, 2);
        assertThat(nodeAdmin.calls(ns)).containsExactly("demo-2 leave");
        assertThat(claimNames(ns)).containsExactly("data-demo-0", "data-demo-1");
    }

    @Test
    @Order(5)
    void rollingRestartOneAtATimeUnreadyOutdatedFirst() {
        String ns = "roll";
        create(ns, "demo", spec -> spec.setReplicas(3));
        running(ns, 3);
        markNotReady(ns, "demo-0");
        await().atMost(TIMEOUT).until(() -> current(ns, "demo").getStatus().getReadyReplicas() == 2);
        String hashBefore = specHash(ns);
        edit(ns, "demo", gc -> gc.getSpec().setRestartNonce("roll-1"));
        GodClusterStatus done = await().atMost(TIMEOUT).until(() -> current(ns, "demo").getStatus(),
                s -> "Running".equals(s.getPhase()) && s.getReadyReplicas() == 3 && s.getOperation() == null
                        && k8s.pods().inNamespace(ns).list().getItems().stream().allMatch(
                                p -> !hashBefore.equals(p.getMetadata().getAnnotations().get("god.io/spec-hash"))));
        // a pod recreated from a StatefulSet the controller had not yet seen updated is outdated again and is
        // restarted again before the operator moves on: the same pod twice in a row is allowed, another is not
        List<String> restarted = new java.util.ArrayList<>();
        for (String pod : fakeController.gone(ns)) {
            if (restarted.isEmpty() || !restarted.get(restarted.size() - 1).equals(pod)) {
                restarted.add(pod);
            }
        }
        assertThat(restarted).as("the unready outdated pod first, then highest first").containsExactly(
                "demo-0", "demo-2", "demo-1");
        assertThat(done.getMembers()).allSatisfy(m -> assertThat(m.getState()).isEqualTo("ACTIVE"));
        assertThat(events(ns).stream().filter(e -> "RestartingMember".equals(e.getReason())).map(e -> e.getMessage())
                .distinct())
                .containsExactly("restarting demo-0: outdated and not serving", "restarting demo-2: outdated",
                        "restarting demo-1: outdated");
    }

    /**
     * Restart-relevant config lives in an immutable ConfigMap per revision that the pod template names: running
     * members keep theirs (a container restart re-reads the same one) until the roll makes their pod again, and a
     * revision is deleted once no pod uses it.
     */
    @Test
    @Order(6)
    void aConfigChangeReachesMembersOnlyThroughTheRoll() {
        String ns = "revision";
        create(ns, "demo", spec -> spec.setReplicas(3));
        running(ns, 3);
        String before = templateConfigMaps(ns).get(0);
        nodeAdmin.replicated(ns, false); // the roll waits at its gate
        edit(ns, "demo", gc -> gc.getSpec().setTombstoneWindow("48h"));
        awaitPhase(ns, "demo", "RollingRestart");
        String after = templateConfigMaps(ns).get(0);
        assertThat(after).isNotEqualTo(before);
        assertThat(nodeConfig(ns)).containsEntry("GOD_TOMBSTONE_WINDOW", "48h");
        ScaledTimeouts.stillAfter(Duration.ofSeconds(1)).untilAsserted(() -> {
            assertThat(k8s.configMaps().inNamespace(ns).withName(before).get().getData())
                    .as("the running members' revision stays").containsEntry("GOD_TOMBSTONE_WINDOW", "24h");
            assertThat(podConfigMaps(ns)).as("no member took the new config early").containsOnly(before);
        });

        nodeAdmin.replicated(ns, true);
        await().atMost(TIMEOUT).untilAsserted(() -> {
            assertThat(podConfigMaps(ns)).containsOnly(after);
            assertThat(k8s.configMaps().inNamespace(ns).withName(before).get()).as("unused revision deleted").isNull();
        });
        assertThat(k8s.configMaps().inNamespace(ns).withName(after).get()).isNotNull();
    }

    /** The config revision each pod was made with. */
    private List<String> podConfigMaps(String ns) {
        return k8s.pods().inNamespace(ns).list().getItems().stream().map(p -> p.getSpec().getContainers().get(0)
                .getEnvFrom().get(0).getConfigMapRef().getName()).toList();
    }

    @Test
    @Order(6)
    void restartWaitsWhileNotReplicated() {
        String ns = "roll-wait";
        create(ns, "demo", spec -> spec.setReplicas(3));
        running(ns, 3);
        List<String> pods = podUids(ns);
        nodeAdmin.replicated(ns, false);
        edit(ns, "demo", gc -> gc.getSpec().setImage("example.org/god-node:v2"));

        GodClusterStatus waiting = awaitPhase(ns, "demo", "RollingRestart");
        assertCondition(waiting, Conditions.PROGRESSING, "True", "RollingRestart");
        assertThat(Conditions.find(waiting.getConditions(), Conditions.PROGRESSING).get().getMessage())
                .contains("3 member(s) outdated", "not replicated");
        ScaledTimeouts.stillAfter(Duration.ofSeconds(1))
                .untilAsserted(() -> assertThat(podUids(ns)).containsExactlyInAnyOrderElementsOf(pods));

        nodeAdmin.replicated(ns, true);
        await().atMost(TIMEOUT).until(() -> k8s.pods().inNamespace(ns).list().getItems().stream()
                .filter(p -> p.getStatus().getConditions().stream().anyMatch(c -> "True".equals(c.getStatus())))
                .filter(p -> "example.org/god-node:v2".equals(p.getSpec().getContainers().get(0).getImage()))
                .count() == 3);
        running(ns, 3);
    }

    @Test
    @Order(7)
    void pauseAnnotationStopsChanges() {
        String ns = "pause-annotation";
        create(ns, "demo", spec -> spec.setReplicas(2));
        running(ns, 2);
        edit(ns, "demo", gc -> gc.getMetadata().getAnnotations().put("god.io/paused", "true"));
        GodClusterStatus paused = awaitPhase(ns, "demo", "Paused");
        assertCondition(paused, Conditions.PAUSED, "True", "Paused");

        edit(ns, "demo", gc -> {
            gc.getSpec().setReplicas(1);
            gc.getSpec().setRestartNonce("later");
        });
        List<String> pods = podUids(ns);
        ScaledTimeouts.stillAfter(Duration.ofMillis(1500)).untilAsserted(() -> {
            assertThat(stsReplicas(ns)).isEqualTo(2);
            assertThat(podUids(ns)).containsExactlyInAnyOrderElementsOf(pods);
            assertThat(nodeAdmin.calls(ns)).isEmpty();
        });

        edit(ns, "demo", gc -> gc.getMetadata().getAnnotations().put("god.io/paused", "false"));
        running(ns, 1);
        assertThat(nodeAdmin.calls(ns)).containsExactly("demo-1 leave");
    }

    @Test
    @Order(8)
    void deleteWhilePaused() {
        String ns = "delete-paused";
        create(ns, "demo", spec -> spec.setReplicas(2));
        running(ns, 2);
        edit(ns, "demo", gc -> gc.getSpec().setPaused(true));
        awaitPhase(ns, "demo", "Paused");
        k8s.resources(GodCluster.class).inNamespace(ns).withName("demo").delete();
        await().atMost(TIMEOUT).until(() -> current(ns, "demo") == null);
        assertThat(claimNames(ns)).as("the data stays").hasSize(2);
    }

    // ---- no dead ends (issue 25) ------------------------------------------------------------------------------------

    /** A 3-member ring draining demo-2 whose member dies mid-drain; the operation's deadline is 2 s. */
    void drainWhoseMemberDies(String ns) {
        nodeAdmin.leaveCalls(ns, Integer.MAX_VALUE);
        create(ns, "demo", spec -> {
            spec.setReplicas(3);
            spec.setOperationTimeout("2s");
        });
        running(ns, 3);
        edit(ns, "demo", gc -> gc.getSpec().setReplicas(2));
        await().atMost(TIMEOUT).until(() -> current(ns, "demo").getStatus(),
                s -> s.getMembers().size() == 3 && "LEAVING".equals(s.getMembers().get(2).getState()));
        nodeAdmin.unreachable(ns, "demo-2");
        markNotReady(ns, "demo-2");
        GodClusterStatus stalled = await().atMost(TIMEOUT).until(() -> current(ns, "demo").getStatus(),
                s -> Conditions.find(s.getConditions(), Conditions.PROGRESSING)
                        .filter(c -> "ProgressDeadlineExceeded".equals(c.getReason())).isPresent());
        assertCondition(stalled, Conditions.PROGRESSING, "False", "ProgressDeadlineExceeded");
        assertCondition(stalled, Conditions.DEGRADED, "True", "ProgressDeadlineExceeded");
        assertThat(stalled.getOperation().getType()).as("only reported").isEqualTo(Operation.SCALE_DOWN);
        awaitPasses(ns, "demo-0", 5);
        assertThat(events(ns)).filteredOn(e -> "ProgressDeadlineExceeded".equals(e.getReason())).singleElement()
                .satisfies(e -> {
                    assertThat(e.getType()).isEqualTo("Warning");
                    assertThat(e.getMessage()).contains("ScaleDown of demo-2", "Nothing is cancelled");
                });
        assertThat(meters.counter(GodClusterReconciler.DEADLINES, "namespace", ns, "cluster", "demo").count())
                .isEqualTo(1.0);
        assertThat(meters.get(io.god.operator.metrics.OperatorMeters.PAST_DEADLINE).tag("namespace", ns)
                .tag("cluster", "demo").gauge().value()).as("past its deadline now").isEqualTo(1.0);
        assertThat(stsReplicas(ns)).isEqualTo(3);
    }

    /** The dead pod was deleted by the operator; its successor answers. */
    void awaitDeadPodReplaced(String ns) {
        await().atMost(TIMEOUT).until(() -> fakeController.gone(ns).contains("demo-2"));
        nodeAdmin.reset(ns, "demo-2");
    }

    @Test
    @Order(10)
    void aDrainWhoseMemberDiesReportsItsDeadlineThenScalingBackUpTakesEffect() {
        String ns = "dies-up";
        drainWhoseMemberDies(ns);
        List<String> claims = claimUids(ns);
        edit(ns, "demo", gc -> gc.getSpec().setReplicas(3));
        awaitDeadPodReplaced(ns);
        GodClusterStatus back = running(ns, 3);
        assertCondition(back, Conditions.DEGRADED, "False", "AsExpected");
        assertThat(meters.get(io.god.operator.metrics.OperatorMeters.PAST_DEADLINE).tag("namespace", ns)
                .tag("cluster", "demo").gauge().value()).as("no operation past its deadline any more").isZero();
        assertThat(eventReasons(ns)).contains("DrainAbandoned");
        assertThat(claimUids(ns)).as("no volume deleted").isEqualTo(claims);
        assertThat(fakeController.gone(ns)).containsExactly("demo-2");
    }

    @Test
    @Order(11)
    void aDrainWhoseMemberDiesThenHibernating() {
        String ns = "dies-sleep";
        drainWhoseMemberDies(ns);
        List<String> claims = claimUids(ns);
        edit(ns, "demo", gc -> gc.getSpec().setReplicas(0));
        awaitPhase(ns, "demo", "Hibernated");
        assertThat(claimUids(ns)).isEqualTo(claims);
        assertThat(eventReasons(ns)).contains("DrainAbandoned");
    }

    @Test
    @Order(12)
    void aDrainWhoseMemberDiesThenANewImageTakesEffect() {
        String ns = "dies-image";
        drainWhoseMemberDies(ns);
        nodeAdmin.leaveCalls(ns, 3); // the replacement pod's drain ends (the dead instance never answers again)
        // while its pod is deleted and not back yet, the members still see demo-2 (their failure detection takes
        // seconds): it is drained when it comes back, never removed as dead in between (that raced under load)
        nodeAdmin.keepInView(ns, "demo-2");
        edit(ns, "demo", gc -> gc.getSpec().setImage("example.org/god-node:v2"));
        awaitDeadPodReplaced(ns);
        running(ns, 2);
        assertThat(k8s.pods().inNamespace(ns).list().getItems()).allSatisfy(p ->
                assertThat(p.getSpec().getContainers().get(0).getImage()).isEqualTo("example.org/god-node:v2"));
        assertThat(claimNames(ns)).as("the new demo-2 drained; its claim went (events: %s)", events(ns).stream()
                .map(e -> e.getReason() + ": " + e.getMessage()).toList()).containsExactly("data-demo-0", "data-demo-1");
    }

    @Test
    @Order(13)
    void aDeadHighestMemberIsRemovedAndItsClaimKept() {
        String ns = "remove-dead";
        create(ns, "demo", spec -> spec.setReplicas(3));
        running(ns, 3);
        nodeAdmin.unreachable(ns, "demo-2"); // crash-looping: never Ready, never answers
        markNotReady(ns, "demo-2");
        nodeAdmin.dropFromView(ns, "demo-2"); // the members' failure detection dropped it
        await().atMost(TIMEOUT).until(() -> current(ns, "demo").getStatus().getReadyReplicas() == 2);
        edit(ns, "demo", gc -> gc.getSpec().setReplicas(2));
        GodClusterStatus done = running(ns, 2);
        assertThat(done.getKeptClaims()).containsExactly("data-demo-2");
        assertThat(claimNames(ns)).contains("data-demo-2");
        assertThat(nodeAdmin.calls(ns)).as("told the live members; no leave").containsExactlyInAnyOrder(
                "demo-0 remove demo-2", "demo-1 remove demo-2");
        assertThat(eventReasons(ns)).contains("RemovingDeadMember", "ClaimKept");
        nodeAdmin.reset(ns, "demo-2");
    }

    @Test
    @Order(14)
    void aReplaceRequestIsUsedExactlyOnce() {
        String ns = "replace";
        create(ns, "demo", spec -> spec.setReplicas(3));
        running(ns, 3);
        String pod = podUid(ns, "demo-1");
        String claim = claimUid(ns, "data-demo-1");
        edit(ns, "demo", gc -> gc.getMetadata().getAnnotations().put("god.io/replace-member", "1"));
        GodClusterStatus done = await().atMost(TIMEOUT).until(() -> current(ns, "demo").getStatus(),
                s -> s.getLastReplacement() != null && s.getOperation() == null && "Running".equals(s.getPhase())
                        && s.getReadyReplicas() == 3);
        assertThat(done.getLastReplacement().getOrdinal()).isEqualTo(1);
        assertThat(done.getLastReplacement().getPodUid()).isEqualTo(pod);
        assertThat(current(ns, "demo").getMetadata().getAnnotations()).doesNotContainKey("god.io/replace-member");
        assertThat(claimUid(ns, "data-demo-1")).as("a new, empty volume").isNotNull().isNotEqualTo(claim);
        awaitPasses(ns, "demo-0", 10);
        assertThat(fakeController.gone(ns)).as("replaced exactly once").containsExactly("demo-1");
        assertThat(eventReasons(ns)).contains("ReplacingMember", "MemberReplaced");
    }

    @Test
    @Order(15)
    void aPendingMemberWithoutAnIpIsReplacedWhenAsked() {
        String ns = "pending";
        create(ns, "demo", spec -> spec.setReplicas(3));
        running(ns, 3);
        fakeController.pending(ns, "demo-2", true);
        k8s.pods().inNamespace(ns).withName("demo-2").delete(); // comes back Pending, without an IP
        await().atMost(TIMEOUT).until(() -> current(ns, "demo").getStatus().getMembers().get(2).getMissedPolls(),
                m -> m != null && m >= 3);
        fakeController.pending(ns, "demo-2", false);
        edit(ns, "demo", gc -> gc.getMetadata().getAnnotations().put("god.io/replace-member", "2"));
        running(ns, 3);
        assertThat(current(ns, "demo").getStatus().getLastReplacement().getOrdinal()).isEqualTo(2);
    }

    /**
     * Issue 26's roll gate through the mock API server: demo-1 is Ready but its admin answers later than the operator's
     * admin timeout (500 ms in tests). It is unknown, not unhealthy: the roll waits (the wait recorded in
     * status.waiting) and restarts nothing until it answers in time, then completes.
     */
    @Test
    @Order(16)
    void aRollWaitsForAMemberWhoseAdminAnswersTooSlowly() {
        String ns = "slow-admin";
        create(ns, "demo", spec -> spec.setReplicas(3));
        running(ns, 3);
        nodeAdmin.slow(ns, "demo-1", java.time.Duration.ofSeconds(2));
        edit(ns, "demo", gc -> gc.getSpec().setRestartNonce("slow-1"));
        await().atMost(TIMEOUT).until(() -> current(ns, "demo").getStatus(),
                s -> s.getWaiting() != null && "RollingRestart".equals(s.getWaiting().getPhase()));
        awaitPasses(ns, "demo-0", 20); // longer than unanswered-after (3 s): it counts as no longer answering
        GodClusterStatus waiting = current(ns, "demo").getStatus();
        assertThat(fakeController.gone(ns)).as("nothing restarted while demo-1 answers too late").isEmpty();
        assertThat(Conditions.find(waiting.getConditions(), Conditions.PROGRESSING).orElseThrow().getMessage())
                .contains("waiting before the next restart", "demo-1 does not answer /admin/status");
        assertThat(waiting.getMembers().get(1).getMissedPolls()).isGreaterThanOrEqualTo(3);
        nodeAdmin.reset(ns, "demo-1");
        GodClusterStatus done = await().atMost(TIMEOUT).until(() -> current(ns, "demo").getStatus(),
                s -> "Running".equals(s.getPhase()) && s.getOperation() == null && s.getReadyReplicas() == 3
                        && fakeController.gone(ns).containsAll(List.of("demo-0", "demo-1", "demo-2")));
        assertThat(done.getWaiting()).isNull();
        assertThat(eventReasons(ns)).doesNotContain("ProgressDeadlineExceeded");
    }

    /**
     * A crash-looping member (not Ready, answering one /admin/status call in two) is not one that no longer answers:
     * a scale-down past it waits for it instead of removing it as dead (its ring view would allow that), and a new
     * image restarts it at once; the fixed member then drains normally.
     */
    @Test
    @Order(17)
    void aCrashLoopingMemberIsNotRemovedAsDeadAndANewImageStillTakesEffect() {
        String ns = "crash-loop";
        create(ns, "demo", spec -> spec.setReplicas(3));
        running(ns, 3);
        markNotReady(ns, "demo-2");
        nodeAdmin.crashLoop(ns, "demo-2", 2);
        nodeAdmin.dropFromView(ns, "demo-2"); // a removal without a drain would be allowed if it were silent
        // the fake controller turns the annotation into Ready=False on its own time: a scale-down decided before
        // that sees a Ready member and drains it as it should
        await().atMost(TIMEOUT).until(() -> current(ns, "demo").getStatus().getReadyReplicas() == 2);
        edit(ns, "demo", gc -> gc.getSpec().setReplicas(2));
        await().atMost(TIMEOUT).until(() -> current(ns, "demo").getStatus().getPhase(), "ScalingDown"::equals);
        awaitPasses(ns, "demo-0", 25); // longer than unanswered-after (3 s), more than 3 passes
        GodCluster seen = current(ns, "demo");
        assertThat(Conditions.find(seen.getStatus().getConditions(), Conditions.PROGRESSING).orElseThrow().getMessage())
                .as("status %s; StatefulSet replicas %d; admin calls %s; events %s",
                        io.fabric8.kubernetes.client.utils.Serialization.asJson(seen.getStatus()), stsReplicas(ns),
                        nodeAdmin.calls(ns), events(ns).stream().map(e -> e.getReason() + ": " + e.getMessage()).toList())
                .contains("scale-down to 2 waits", "demo-2 is not Ready");
        assertThat(nodeAdmin.calls(ns)).as("neither drained nor removed").isEmpty();
        assertThat(stsReplicas(ns)).isEqualTo(3);
        nodeAdmin.reset(ns, "demo-2"); // its views follow the pods again; the next instance is healthy
        edit(ns, "demo", gc -> gc.getSpec().setImage("example.org/god-node:v2"));
        running(ns, 2);
        assertThat(fakeController.gone(ns)).startsWith("demo-2");
        assertThat(nodeAdmin.calls(ns)).contains("demo-2 leave").noneMatch(c -> c.contains("remove"));
        assertThat(eventReasons(ns)).doesNotContain("RemovingDeadMember", "RemoveRefused", "DrainAbandoned");
    }

    // ---- no volume is deleted for staleness (DESIGN §8, revised): these move the operator's clock forward ----------

    /** Waits until the operator has made this many more passes over the namespace's ring that asked this pod. */
    void awaitPasses(String ns, String pod, int passes) {
        long target = nodeAdmin.statusCalls(ns, pod) + passes;
        await().atMost(TIMEOUT).until(() -> nodeAdmin.statusCalls(ns, pod) >= target);
    }

    /** Nothing was deleted: the same claims, no pod went away, no claim event. */
    void assertNothingDeleted(String ns, List<String> claims) {
        assertThat(claimUids(ns)).as("the members keep their volumes").isEqualTo(claims);
        assertThat(fakeController.gone(ns)).as("no pod was deleted").isEmpty();
        assertThat(eventReasons(ns)).doesNotContain("ClaimDeleted", "ClaimKept", "WipingStaleMember",
                "RestartingMember");
    }

    @Test
    @Order(20)
    void hibernateAndWakeKeepsData() {
        String ns = "sleep";
        create(ns, "demo", spec -> spec.setReplicas(3));
        running(ns, 3);
        List<String> claims = claimUids(ns);
        edit(ns, "demo", gc -> gc.getSpec().setReplicas(0));
        awaitPhase(ns, "demo", "Hibernated");

        clock.advance(Duration.ofDays(3));
        edit(ns, "demo", gc -> gc.getSpec().setReplicas(3));
        running(ns, 3);
        assertThat(claimUids(ns)).as("the members come back on their volumes").isEqualTo(claims);
    }

    /** Paused (as good as an operator that is not running) longer than the window; a member restarts meanwhile. */
    @Test
    @Order(21)
    void pausedLongerThanTheWindowThenAMemberRestartingKeepsEverything() {
        awayLongerThanTheWindowThenAMemberRestarting("paused-long", "Paused",
                gc -> gc.getMetadata().getAnnotations().put("god.io/paused", "true"),
                gc -> gc.getMetadata().getAnnotations().remove("god.io/paused"));
    }

    /** Stuck on an invalid spec longer than the window; a member restarts meanwhile. */
    @Test
    @Order(22)
    void specInvalidLongerThanTheWindowThenAMemberRestartingKeepsEverything() {
        awayLongerThanTheWindowThenAMemberRestarting("invalid-long", "Invalid",
                gc -> gc.getSpec().setRedundancy(0), gc -> gc.getSpec().setRedundancy(null));
    }

    /**
     * The operator looks away ({@code leave} puts the cluster in {@code phase}) for 25 h, more than the
     * tombstone window; when it looks again ({@code back}) one member is restarting. Nothing is deleted.
     */
    private void awayLongerThanTheWindowThenAMemberRestarting(String ns, String phase,
            Consumer<GodCluster> leave, Consumer<GodCluster> back) {
        create(ns, "demo", spec -> spec.setReplicas(3));
        running(ns, 3);
        List<String> claims = claimUids(ns);
        edit(ns, "demo", leave);
        awaitPhase(ns, "demo", phase);
        clock.advance(Duration.ofHours(25));
        markNotReady(ns, "demo-1"); // restarting when the operator looks again

        edit(ns, "demo", back);
        await().atMost(TIMEOUT).until(() -> current(ns, "demo").getStatus(),
                s -> !phase.equals(s.getPhase()) && s.getReadyReplicas() == 2);
        awaitPasses(ns, "demo-0", 5);
        assertNothingDeleted(ns, claims);

        markReady(ns, "demo-1");
        running(ns, 3);
        assertNothingDeleted(ns, claims);
    }

    /** A whole ring stopped over a weekend comes back one member at a time, a day and more apart. */
    @Test
    @Order(23)
    void wholeRingStoppedLongerThanTheWindowComesBackAtDifferentSpeeds() {
        String ns = "weekend";
        create(ns, "demo", spec -> spec.setReplicas(3));
        running(ns, 3);
        List<String> claims = claimUids(ns);
        for (int o = 0; o < 3; o++) {
            markNotReady(ns, "demo-" + o);
        }
        await().atMost(TIMEOUT).until(() -> current(ns, "demo").getStatus().getReadyReplicas() == 0);
        clock.advance(Duration.ofDays(3));

        markReady(ns, "demo-0");
        awaitPasses(ns, "demo-0", 5);
        clock.advance(Duration.ofHours(30));
        markReady(ns, "demo-2");
        awaitPasses(ns, "demo-2", 5);
        assertNothingDeleted(ns, claims);
        clock.advance(Duration.ofHours(30));
        markReady(ns, "demo-1");
        running(ns, 3);
        assertNothingDeleted(ns, claims);
    }

    /** The only copy: a single member down longer than the window keeps its volume, and the status says N < redundancy. */
    @Test
    @Order(24)
    void singleMemberDownLongerThanTheWindowKeepsTheOnlyCopy() {
        String ns = "single";
        create(ns, "demo", spec -> spec.setReplicas(1));
        GodClusterStatus one = running(ns, 1);
        assertCondition(one, Conditions.FULL_REDUNDANCY, "False", "ReplicasBelowRedundancy");
        assertThat(events(ns)).filteredOn(e -> "ReducedRedundancy".equals(e.getReason())).singleElement()
                .satisfies(e -> {
                    assertThat(e.getType()).isEqualTo("Warning");
                    assertThat(e.getMessage()).isEqualTo(
                            "spec.replicas 1 is below spec.redundancy 3: every entry has only 1 copy");
                });
        List<String> claims = claimUids(ns);

        markNotReady(ns, "demo-0");
        await().atMost(TIMEOUT).until(() -> current(ns, "demo").getStatus().getReadyReplicas() == 0);
        clock.advance(Duration.ofHours(25));
        nodeAdmin.unreachable(ns, "demo-0"); // Ready again, but its node does not answer yet
        markReady(ns, "demo-0");
        awaitPasses(ns, "demo-0", 5);
        assertThat(current(ns, "demo").getStatus().getMembers().get(0).getState()).isEqualTo("Unreachable");
        assertNothingDeleted(ns, claims);

        nodeAdmin.reset(ns, "demo-0");
        running(ns, 1);
        assertNothingDeleted(ns, claims);
        assertThat(eventReasons(ns).stream().filter("ReducedRedundancy"::equals)).as("told once").hasSize(1);
    }

    /** The nodes decide about stale data; the operator shows what they report, with a Warning event and a metric. */
    @Test
    @Order(25)
    void aQuarantineReportedByTheNodeIsShownWithAnEventAndAMetric() {
        String ns = "quarantine";
        create(ns, "demo", spec -> spec.setReplicas(3));
        running(ns, 3);
        List<String> claims = claimUids(ns);
        String lastAlive = "2026-11-20T08:00:00Z";
        String quarantined = "2026-11-23T09:00:00Z";
        nodeAdmin.answer(ns, "demo-1", new NodeStatus("CATCHING_UP", "01", "ring-" + ns, 3, false, 0, 0, 0, null,
                lastAlive, null, quarantined));
        nodeAdmin.answer(ns, "demo-2", new NodeStatus("STALE", "02", "ring-" + ns, 3, false, 0, 30, 4096, null,
                lastAlive, null, null));

        GodClusterStatus status = await().atMost(TIMEOUT).until(() -> current(ns, "demo").getStatus(),
                s -> quarantined.equals(s.getMembers().get(1).getQuarantinedAt())
                        && "STALE".equals(s.getMembers().get(2).getState()));
        assertThat(status.getMembers().get(1).getState()).as("any state passes through").isEqualTo("CATCHING_UP");
        assertThat(status.getMembers().get(1).getLastAliveAt()).isEqualTo(lastAlive);
        assertThat(status.getMembers().get(2).getLastAliveAt()).isEqualTo(lastAlive);
        await().atMost(TIMEOUT).until(() -> eventReasons(ns).contains("MemberStale"));
        assertThat(events(ns)).filteredOn(e -> "MemberQuarantined".equals(e.getReason())).singleElement()
                .satisfies(e -> {
                    assertThat(e.getType()).isEqualTo("Warning");
                    assertThat(e.getMessage()).contains("demo-1", quarantined, lastAlive);
                });
        assertThat(events(ns)).filteredOn(e -> "MemberStale".equals(e.getReason())).singleElement()
                .satisfies(e -> assertThat(e.getType()).isEqualTo("Warning"));
        assertThat(meters.counter(GodClusterReconciler.QUARANTINES, "namespace", ns, "cluster", "demo").count())
                .isEqualTo(1.0);

        awaitPasses(ns, "demo-1", 5);
        assertThat(eventReasons(ns).stream().filter("MemberQuarantined"::equals)).as("told once").hasSize(1);
        assertThat(meters.counter(GodClusterReconciler.QUARANTINES, "namespace", ns, "cluster", "demo").count())
                .isEqualTo(1.0);
        assertNothingDeleted(ns, claims);
        nodeAdmin.reset(ns, "demo-1");
        nodeAdmin.reset(ns, "demo-2");
    }

    // ---- intent before action, endless retries (issue 26) -------------------------------------------------------------

    static String statusPath(String ns) {
        return "/apis/god.io/v1alpha1/namespaces/" + ns + "/godclusters/demo/status";
    }

    /**
     * The operation is in the status before the node is asked to leave (read from the API server inside the leave
     * call), and the status write after the leave fails: the next pass continues the drain from the recorded step
     * instead of waiting forever for a LEAVING member nobody asks about. The order of the shrink and the claim
     * deletion after their status writes is checked with the recorded API calls in the last test.
     */
    @Test
    @Order(30)
    void theIntentIsRecordedBeforeTheLeaveAndAFailedStatusWriteAfterItIsRecovered() {
        String ns = "intent";
        create(ns, "demo", spec -> spec.setReplicas(3));
        running(ns, 3);
        List<Operation> recordedAtLeave = new java.util.concurrent.CopyOnWriteArrayList<>();
        nodeAdmin.onLeave(ns, pod -> {
            recordedAtLeave.add(current(ns, "demo").getStatus().getOperation());
            // the status write that follows the leave is refused (no client or JOSDK conflict retry for a 422)
            server.expect().put().withPath(statusPath(ns)).andReturn(422, "{\"kind\":\"Status\",\"code\":422}")
                    .once();
        });
        edit(ns, "demo", gc -> gc.getSpec().setReplicas(2));
        running(ns, 2);
        assertThat(recordedAtLeave).singleElement().satisfies(op -> {
            assertThat(op.getType()).isEqualTo(Operation.SCALE_DOWN);
            assertThat(op.getOrdinal()).isEqualTo(2);
            assertThat(op.getStep()).isEqualTo(Operation.STEP_LEAVING);
        });
        assertThat(nodeAdmin.calls(ns)).containsExactly("demo-2 leave");
        assertThat(claimNames(ns)).containsExactly("data-demo-0", "data-demo-1");
        assertThat(eventReasons(ns)).contains("MemberLeft", "ClaimDeleted");
    }

    /**
     * Scales a 3-member cluster down to 2 while the namespace's Events are answered here (not stored): the event of
     * {@code trigger}, which the operator records right after its action and before the pass's status write, makes
     * that status write fail once (a 422, which nothing retries within the pass). Checks that the write failed, that
     * each step happened once (one leave, one MemberLeft, one ClaimDeleted) and that the scale-down ended with the
     * drained member's claim deleted. The recorded API calls are checked in the last test (one shrink, one deletion).
     */
    void scaleDownWithAFailedStatusWriteAfter(String ns, String trigger) {
        List<String> reasons = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.concurrent.atomic.AtomicBoolean armed = new java.util.concurrent.atomic.AtomicBoolean(true);
        server.expect().post().withPath("/api/v1/namespaces/" + ns + "/events").andReply(201, request -> {
            String body = request.getUtf8Body();
            String reason = io.fabric8.kubernetes.client.utils.Serialization.unmarshal(body,
                    io.fabric8.kubernetes.api.model.Event.class).getReason();
            reasons.add(reason);
            if (trigger.equals(reason) && armed.getAndSet(false)) {
                server.expect().put().withPath(statusPath(ns)).andReturn(422, "{\"kind\":\"Status\",\"code\":422}")
                        .once();
            }
            return body;
        }).always();
        create(ns, "demo", spec -> spec.setReplicas(3));
        running(ns, 3);
        double errors = meters.counter("god.operator.reconciles", "result", "error").count();
        edit(ns, "demo", gc -> gc.getSpec().setReplicas(2));
        running(ns, 2);
        assertThat(meters.counter("god.operator.reconciles", "result", "error").count() - errors)
                .as("the status write after " + trigger + " failed").isGreaterThanOrEqualTo(1);
        assertThat(reasons.stream().filter(r -> List.of("DrainingMember", "MemberLeft", "ClaimDeleted").contains(r)))
                .containsExactly("DrainingMember", "MemberLeft", "ClaimDeleted");
        assertThat(nodeAdmin.calls(ns)).containsExactly("demo-2 leave");
        assertThat(stsReplicas(ns)).isEqualTo(2);
        assertThat(claimNames(ns)).containsExactly("data-demo-0", "data-demo-1");
    }

    /**
     * The status write right after the shrink fails: the recorded intent (step Shrinking, drain confirmed) is where
     * the next pass starts, so the StatefulSet is not shrunk again, the claim is deleted once, and the scale-down
     * ends (no operation left).
     */
    @Test
    @Order(30)
    void aFailedStatusWriteAfterTheShrinkIsRecovered() {
        scaleDownWithAFailedStatusWriteAfter("shrink-write", "MemberLeft");
        assertThat(current("shrink-write", "demo").getStatus().getMembers()).hasSize(2);
    }

    /**
     * The status write right after the claim deletion fails: the next pass finds the operation at step
     * DeletingClaim with the claim going or gone, deletes nothing again and ends the scale-down.
     */
    @Test
    @Order(30)
    void aFailedStatusWriteAfterTheClaimDeletionIsRecovered() {
        scaleDownWithAFailedStatusWriteAfter("claim-write", "ClaimDeleted");
        assertThat(current("claim-write", "demo").getStatus().getKeptClaims()).isNull();
    }

    /**
     * The API server answers 500 to every status write for a long stretch — many more failed passes than JOSDK's
     * default of 5 retries — and then recovers: retries are unlimited (capped backoff), and the scale-up completes.
     * With the Kubernetes client's own 5xx retries on, the first retried status write never returned
     * (fabric8io/kubernetes-client#8105) and this cluster was never reconciled again. The retry in effect is the one
     * RetryConfigurationTest walks for the packaged operator (unlimited), with the test profile's short back-off.
     */
    @Test
    @Order(31)
    void anOperationCompletesAfterTheApiServerFailedForLongerThanTheDefaultRetries() {
        var retry = operator.getRegisteredController("godcluster").orElseThrow().getConfiguration().getRetry();
        assertThat(retry).isInstanceOfSatisfying(io.javaoperatorsdk.operator.processing.retry.GenericRetry.class, r -> {
            assertThat(r.getMaxAttempts()).as("unlimited").isEqualTo(-1);
            assertThat(r.getMaxInterval()).as("the test profile's cap").isEqualTo(1_000);
        });
        String ns = "api500";
        create(ns, "demo", spec -> spec.setReplicas(1));
        running(ns, 1);
        double errors = meters.counter("god.operator.reconciles", "result", "error").count();
        server.expect().put().withPath(statusPath(ns)).andReturn(500, "{\"kind\":\"Status\",\"code\":500}")
                .times(40);
        long t0 = System.nanoTime();
        edit(ns, "demo", gc -> gc.getSpec().setReplicas(2));
        running(ns, 2);
        System.out.println("api500: the scale-up completed after ms " + (System.nanoTime() - t0) / 1_000_000 + " errors "
                + (meters.counter("god.operator.reconciles", "result", "error").count() - errors));
        assertThat(meters.counter("god.operator.reconciles", "result", "error").count() - errors)
                .as("failed passes before the API server recovered").isGreaterThan(10);
    }

    @Test
    @Order(90)
    void reconcilesAndOperationsAreMeasured() {
        String ns = "metrics";
        double started = operations("ScaleUp", "started");
        double finished = operations("ScaleUp", "finished");
        long reconciles = meters.timer(io.god.operator.metrics.OperatorMeters.RECONCILE).count();
        create(ns, "demo", spec -> spec.setReplicas(1));
        running(ns, 1);
        edit(ns, "demo", gc -> gc.getSpec().setReplicas(2));
        running(ns, 2);
        org.awaitility.Awaitility.await().atMost(ScaledTimeouts.TIMEOUT)
                .until(() -> operations("ScaleUp", "finished") >= finished + 1);
        assertThat(operations("ScaleUp", "started")).isGreaterThanOrEqualTo(started + 1);
        assertThat(meters.timer(io.god.operator.metrics.OperatorMeters.RECONCILE).count()).isGreaterThan(reconciles);
        assertThat(meters.get(io.god.operator.metrics.OperatorMeters.PAST_DEADLINE).tag("namespace", ns).tag("cluster", "demo")
                .gauge().value()).isZero();
    }

    @io.quarkus.test.common.http.TestHTTPResource("/q/metrics")
    java.net.URL metricsUrl;

    /** deploy/monitoring/: every god_operator_* name of the dashboard and the alerts is on the operator's /q/metrics. */
    @Test
    @Order(95)
    void everyOperatorMetricOfTheDashboardAndTheAlertsIsServed() throws Exception {
        java.nio.file.Path dir = io.god.operator.fake.Rbac.deployDir().resolve("monitoring");
        var json = new com.fasterxml.jackson.databind.ObjectMapper();
        StringBuilder exprs = new StringBuilder();
        json.readTree(dir.resolve("god-dashboard.json").toFile()).path("panels")
                .forEach(p -> p.path("targets").forEach(t -> exprs.append(t.path("expr").asText()).append('\n')));
        new com.fasterxml.jackson.databind.ObjectMapper(new com.fasterxml.jackson.dataformat.yaml.YAMLFactory())
                .readTree(dir.resolve("god-alerts.yaml").toFile()).path("spec").path("groups")
                .forEach(g -> g.path("rules").forEach(r -> exprs.append(r.path("expr").asText()).append('\n')));
        java.util.Set<String> names = operatorNames(exprs.toString());
        assertThat(names).contains("god_operator_reconcile_seconds_bucket", "god_operator_operations_total",
                "god_operator_operations_past_deadline", "god_operator_member_quarantines_total");
        String scrape = java.net.http.HttpClient.newHttpClient().send(
                java.net.http.HttpRequest.newBuilder(metricsUrl.toURI()).timeout(Duration.ofSeconds(10)).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString()).body();
        assertThat(missing(names, scrape)).as("operator names in deploy/monitoring/ not served").isEmpty();
        assertThat(missing(operatorNames("rate(god_operator_no_such_total[5m])"), scrape))
                .as("an unknown name is caught").containsExactly("god_operator_no_such_total");
    }

    static java.util.Set<String> operatorNames(String expressions) {
        java.util.Set<String> names = new java.util.TreeSet<>();
        Matcher m = Pattern.compile("\\b(god_operator_[a-z0-9_]+)\\b").matcher(expressions);
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }

    static java.util.Set<String> missing(java.util.Set<String> names, String scrape) {
        java.util.Set<String> out = new java.util.TreeSet<>(names);
        scrape.lines().filter(l -> !l.startsWith("#")).forEach(l -> out.remove(l.replaceAll("[{ ].*", "")));
        return out;
    }

    double operations(String type, String outcome) {
        return meters.counter(io.god.operator.metrics.OperatorMeters.OPERATIONS, "type", type, "outcome", outcome).count();
    }

    @Test
    @Order(100)
    void rbacAllowsEveryCallTheOperatorMadeAndOnlyDrainedClaimsWereDeleted() throws Exception {
        List<ApiCall> calls = assertRbacAllowsEveryCall(server, "delete /pods", "delete /persistentvolumeclaims",
                "list /persistentvolumeclaims", "patch apps/statefulsets", "patch god.io/godclusters");
        // every PVC the operator deleted in every scenario above belonged to a member whose drain it saw confirmed
        Pattern claimPath = Pattern.compile(".*/namespaces/([^/]+)/persistentvolumeclaims/([^/?]+).*");
        List<String> deletedClaims = calls.stream()
                .filter(c -> c.verb().equals("delete") && c.resource().equals("persistentvolumeclaims"))
                .map(c -> claimPath.matcher(c.path())).filter(Matcher::matches)
                .map(m -> m.group(1) + "/" + m.group(2)).distinct().sorted().toList();
        assertThat(deletedClaims).containsExactly("claim-write/data-demo-2", "crash-loop/data-demo-2",
                "dies-image/data-demo-2", "drain/data-demo-2", "drain/data-demo-3", "intent/data-demo-2",
                "no-room/data-demo-2", "pause-annotation/data-demo-1", "pending/data-demo-2", "replace/data-demo-1",
                "resume/data-demo-2", "shrink-write/data-demo-2");
        for (String ns : List.of("intent", "shrink-write", "claim-write")) {
            assertIntentBeforeAction(calls, ns);
            assertThat(calls.stream().filter(c -> c.path().contains("/namespaces/" + ns + "/"))
                    .filter(c -> (c.verb().equals("patch") && c.resource().equals("statefulsets"))
                            || (c.verb().equals("delete") && c.resource().equals("persistentvolumeclaims")))
                    .map(c -> c.verb() + " " + c.resource()))
                    .as("the scale-up from 0, one shrink and one claim deletion in " + ns + ", recovered passes"
                            + " included")
                    .containsExactly("patch statefulsets", "patch statefulsets", "delete persistentvolumeclaims");
        }
    }

    /**
     * In the namespace's recorded calls, every shrink of the StatefulSet and every claim deletion follows a status
     * write (the intent) with no other change in between (reads only).
     */
    static void assertIntentBeforeAction(List<ApiCall> all, String ns) {
        List<ApiCall> calls = all.stream().filter(c -> c.path().contains("/namespaces/" + ns + "/")).toList();
        int checked = 0;
        for (int i = 0; i < calls.size(); i++) {
            ApiCall c = calls.get(i);
            boolean shrinkOrDelete = (c.verb().equals("patch") && c.resource().equals("statefulsets"))
                    || (c.verb().equals("delete") && c.resource().equals("persistentvolumeclaims"));
            if (!shrinkOrDelete) {
                continue;
            }
            int j = i - 1;
            while (j >= 0 && Set.of("get", "list", "watch").contains(calls.get(j).verb())) {
                j--;
            }
            assertThat(j).as("a call before " + c.path()).isGreaterThanOrEqualTo(0);
            assertThat(calls.get(j).resource()).as("the change before " + c.path() + " in " + calls)
                    .isEqualTo("godclusters/status");
            checked++;
        }
        assertThat(checked).as("the shrinks and the claim deletion of " + ns).isGreaterThanOrEqualTo(2);
    }
}

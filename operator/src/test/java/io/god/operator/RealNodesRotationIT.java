package io.god.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.god.client.GodClient;
import io.god.operator.model.AuthSpec;
import io.god.testing.ScaledTimeout;
import io.god.testing.TimeScale;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Issue 34 with real nodes ({@link RealNodesSupport}, the pods' Secret files handed to the nodes): a ring whose token
 * comes from a Secret, rotated while a client writes with Sync=true and reads back. The Secret gets the new token as an
 * accepted one (step 1 of docs/kubernetes.md's rotation); the operator sees the changed contents and rolls every
 * member. Asserted: the roll happens, no client call fails, every acknowledged write is readable, and afterwards the
 * nodes accept the new token (so the new file reached them) and still refuse a wrong one. One Secret serves all three
 * credentials: a node that knows only god.auth.token-file guards its peers and its management port with that token.
 * Child output: {@code target/real-nodes-rotation-it/<pod>.log}.
 */
@QuarkusTest
@WithKubernetesTestServer(crud = true)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ScaledTimeout(value = 300, unit = TimeUnit.SECONDS)
class RealNodesRotationIT extends RealNodesSupport {

    static final String NS = "rotate";
    static final Duration ROLL_BOUND = TimeScale.seconds(90);
    static final String OLD = "old-ring-token-0001";
    static final String NEW = "new-ring-token-0002";

    @Override
    String namespace() {
        return NS;
    }

    @Override
    Path out() {
        return Path.of("target", "real-nodes-rotation-it");
    }

    @Override
    int firstHost() {
        return 150;
    }

    @Override
    boolean mountSecrets() {
        return true;
    }

    @Test
    void aTokenRotationRollsTheRingWithoutAFailedCall() throws Exception {
        k8s.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NS).endMetadata().build()).create();
        putToken(OLD + "\n", true);
        create(NS, "demo", spec -> {
            spec.setReplicas(3);
            spec.setRedundancy(3);
            AuthSpec auth = new AuthSpec();
            auth.setClientSecret("ring-token");
            auth.setPeerSecret("ring-token");
            auth.setAdminSecret("ring-token");
            spec.setAuth(auth);
        });
        settled(3, START_BOUND, "start 3");
        refusesAWrite(null);

        try (GodClient client = clientWithToken(OLD, "demo-0", "demo-1", "demo-2")) {
            Thread thread = startWorkload(client, "rot-");
            try {
                await().atMost(TimeScale.seconds(10)).until(() -> workload.acked.size() >= 20);
                int before = workload.acked.size();
                String hash = specHash(NS);
                List<String> pods = podUids(NS);
                putToken(OLD + "\n" + NEW + "\n", false);
                long roll = System.nanoTime();
                await().atMost(ROLL_BOUND).pollInterval(Duration.ofMillis(100)).until(() -> {
                    List<Pod> now = k8s.pods().inNamespace(NS).list().getItems();
                    return !hash.equals(specHash(NS)) && isSettled(current(NS, "demo").getStatus(), 3)
                            && now.size() == 3 && now.stream().noneMatch(p -> pods.contains(p.getMetadata().getUid()));
                });
                durations.put("rotation roll", Duration.ofNanos(System.nanoTime() - roll));
                assertThat(workload.acked.size()).as("writes acknowledged while rolling").isGreaterThan(before);
            } finally {
                stopWorkload(thread);
            }
            List<String> unreadable = unreadableAcknowledgedWrites(client);
            assertThat(workload.failures).as("failed client calls").isEmpty();
            assertThat(unreadable).as("acknowledged writes not readable at the end").isEmpty();
        }
        try (GodClient rotated = clientWithToken(NEW, "demo-0", "demo-1", "demo-2")) {
            rotated.put(GodClient.utf8("after-rotation"), GodClient.utf8("v"), true);
            assertThat(new String(rotated.get(GodClient.utf8("after-rotation")).value(), StandardCharsets.UTF_8))
                    .isEqualTo("v");
        }
        refusesAWrite("wrong-token-0003");
        assertThat(fakeController.gone(NS)).as("each member restarted once").hasSize(3);
    }

    private void putToken(String value, boolean create) {
        String encoded = Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8));
        if (create) {
            k8s.resource(new SecretBuilder().withNewMetadata().withName("ring-token").withNamespace(NS).endMetadata()
                    .withData(Map.of("token", encoded)).build()).create();
        } else {
            k8s.secrets().inNamespace(NS).withName("ring-token").edit(s -> {
                s.getData().put("token", encoded);
                return s;
            });
        }
    }
}

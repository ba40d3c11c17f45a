package io.god.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.god.client.GodClient;
import io.god.operator.resources.Ports;
import io.god.testing.ScaledTimeout;
import io.god.testing.TimeScale;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Issue 34's default with real nodes ({@link RealNodesSupport}, the pods' Secret files handed to the nodes): a
 * GodCluster without spec.auth gets four generated Secrets — client, peer, admin, metrics — and its members guard every
 * port with them. Settling proves the operator's /admin calls carry the generated admin token (a member answers
 * /admin/status to nothing else) and the members' ring traffic the peer token. Then, per DESIGN §6 and docs/api.md:
 * the client token writes and reads (Sync); the admin token has the client's data rights; the peer and metrics tokens
 * write nothing; on the management port the client token is refused (403), none is 401, the metrics token reads
 * /q/metrics only. Scaling 3→4 under a Sync workload (a join needs the peer credential) loses no acknowledged write.
 * No token appears in a ConfigMap, the status, an event, the StatefulSet, a pod or a node's log. Child output:
 * {@code target/real-nodes-secure-default-it/<pod>.log}.
 */
@QuarkusTest
@WithKubernetesTestServer(crud = true)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ScaledTimeout(value = 300, unit = TimeUnit.SECONDS)
class RealNodesSecureDefaultIT extends RealNodesSupport {

    static final String NS = "secure";
    static final Duration SCALE_UP_BOUND = TimeScale.seconds(90);
    static final List<String> ROLES = List.of("client", "peer", "admin", "metrics");

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(TimeScale.seconds(2))
            .version(HttpClient.Version.HTTP_1_1).build();

    @Override
    String namespace() {
        return NS;
    }

    @Override
    Path out() {
        return Path.of("target", "real-nodes-secure-default-it");
    }

    @Override
    int firstHost() {
        return 170;
    }

    @Override
    boolean mountSecrets() {
        return true;
    }

    @Test
    void theDefaultGodClusterGuardsEveryPortWithItsGeneratedCredentials() throws Exception {
        k8s.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NS).endMetadata().build()).create();
        create(NS, "demo", spec -> {
            spec.setReplicas(3);
            spec.setRedundancy(3);
        });
        settled(3, START_BOUND, "start 3");

        Map<String, String> tokens = new LinkedHashMap<>();
        ROLES.forEach(role -> tokens.put(role, token(NS, "demo-" + role + "-token")));
        assertThat(tokens.values()).as("four generated tokens, all different").doesNotHaveDuplicates()
                .allSatisfy(t -> assertThat(t).matches("[A-Za-z0-9_-]{43}"));

        // the data ports, by credential
        try (GodClient client = clientWithToken(tokens.get("client"), "demo-0", "demo-1", "demo-2")) {
            client.put(GodClient.utf8("secure-default"), GodClient.utf8("v1"), true);
            assertThat(new String(client.get(GodClient.utf8("secure-default")).value(), StandardCharsets.UTF_8))
                    .isEqualTo("v1");
        }
        try (GodClient admin = clientWithToken(tokens.get("admin"), "demo-0", "demo-1", "demo-2")) {
            admin.put(GodClient.utf8("written-by-admin"), GodClient.utf8("v"), true);
        }
        refusesAWrite(tokens.get("peer"));
        refusesAWrite(tokens.get("metrics"));
        refusesAWrite(null);

        // the management port, by credential
        for (String pod : List.of("demo-0", "demo-1", "demo-2")) {
            assertThat(management(pod, "/admin/status", null)).as(pod + " /admin/status without a token").isEqualTo(401);
            assertThat(management(pod, "/admin/status", tokens.get("client"))).as("with the client token").isEqualTo(403);
            assertThat(management(pod, "/admin/status", tokens.get("peer"))).as("with the peer token").isEqualTo(403);
            assertThat(management(pod, "/admin/status", tokens.get("metrics"))).as("with the metrics token")
                    .isEqualTo(403);
            assertThat(management(pod, "/admin/status", tokens.get("admin"))).as("with the admin token").isEqualTo(200);
            assertThat(management(pod, "/q/metrics", tokens.get("metrics"))).as("metrics with their token")
                    .isEqualTo(200);
            assertThat(management(pod, "/q/metrics", tokens.get("client"))).as("metrics with the client token")
                    .isEqualTo(403);
            assertThat(management(pod, "/q/metrics", null)).as("metrics without a token").isEqualTo(401);
        }

        // scale 3→4 under a Sync workload: demo-3 joins with the peer credential
        try (GodClient client = clientWithToken(tokens.get("client"), "demo-0", "demo-1", "demo-2")) {
            Thread thread = startWorkload(client, "secure-");
            try {
                await().atMost(TimeScale.seconds(10)).until(() -> workload.acked.size() >= 20);
                int before = workload.acked.size();
                edit(NS, "demo", gc -> gc.getSpec().setReplicas(4));
                settled(4, SCALE_UP_BOUND, "scale 3→4");
                assertThat(workload.acked.size()).as("writes acknowledged while scaling up").isGreaterThan(before);
            } finally {
                stopWorkload(thread);
            }
            List<String> unreadable = unreadableAcknowledgedWrites(client);
            assertThat(workload.failures).as("failed client calls").isEmpty();
            assertThat(unreadable).as("acknowledged writes not readable at the end").isEmpty();
        }
        assertThat(management("demo-3", "/admin/status", null)).as("the new member guards its port too").isEqualTo(401);
        assertThat(management("demo-3", "/admin/status", tokens.get("admin"))).isEqualTo(200);

        assertNoTokenOutsideItsSecret(NS, tokens.values());
        assertThat(nodeLogs()).as("a token in a node's log").noneMatch(log -> tokens.values().stream()
                .anyMatch(log::contains));
    }

    /** The status code of a GET on the pod's management port with this token (null: none). */
    private int management(String pod, String path, String token) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://" + nodes.ip(pod) + ":"
                + Ports.MANAGEMENT + path)).timeout(TimeScale.seconds(5));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private List<String> nodeLogs() throws Exception {
        List<String> logs = new ArrayList<>();
        try (Stream<Path> files = Files.list(out())) {
            for (Path log : files.filter(p -> p.toString().endsWith(".log")).toList()) {
                logs.add(Files.readString(log, StandardCharsets.ISO_8859_1));
            }
        }
        assertThat(logs).as("the members' logs").hasSize(4);
        return logs;
    }
}

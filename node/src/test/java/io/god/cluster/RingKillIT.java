package io.god.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.god.ring.Member;
import io.god.ring.Ring;
import io.god.testing.ScaledTimeout;
import io.god.testing.TimeScale;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * kill -9 with child processes of the packaged node: three nodes on 127.0.0.2-4 (N=2, so each key has
 * one copy beside its owner), 300 keys written with Sync=true, then the node owning the most keys is
 * killed with SIGKILL. Every key stays readable through the HTTP API of both survivors, each call
 * answering within {@link #BOUND} (the owner's connection is refused at once, or the call fails over
 * after {@code god.rpc.timeout} = 500 ms × the time-scale factor), both right after the kill and after the ring removed it.
 * Output of the children: {@code target/ring-kill-it/node-<i>.log}.
 */
@ScaledTimeout(value = 180, unit = TimeUnit.SECONDS)
class RingKillIT {

    static final Duration BOUND = TimeScale.seconds(2);
    static final Path JAR = Path.of("target", "quarkus-app", "quarkus-run.jar");
    static final Path OUT = Path.of("target", "ring-kill-it");

    final List<Process> children = new ArrayList<>();
    final HttpClient http = HttpClient.newBuilder().connectTimeout(TimeScale.seconds(2)).build();
    final ObjectMapper json = new ObjectMapper();

    @AfterEach
    void tearDown() throws Exception {
        for (Process p : children) {
            p.destroyForcibly();
            p.waitFor(TimeScale.seconds(20).toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    static int freePort(String host) throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName(host))) {
            return s.getLocalPort();
        }
    }

    Process startNode(int i, String host, int peerPort, int httpPort, int mgmtPort, String seeds) throws Exception {
        Path data = OUT.resolve("data-" + i);
        deleteTree(data);
        Files.createDirectories(OUT);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-Xmx192m", "-XX:TieredStopAtLevel=1",
                "-Dquarkus.http.host=" + host, "-Dquarkus.http.port=" + httpPort,
                "-Dquarkus.management.host=" + host, "-Dquarkus.management.port=" + mgmtPort,
                "-Dgod.node.port=" + peerPort, "-Dgod.node.advertise=" + host + ":" + peerPort,
                "-Dgod.seeds=" + seeds, "-Dgod.data-dir=" + data.toAbsolutePath(), "-Dgod.redundancy=2",
                "-Dgod.ring.interval=100ms", "-Dgod.rpc.timeout=" + TimeScale.setting("500ms"), TimeScale.jvmOption(),
                "-jar", JAR.toAbsolutePath().toString())
                .redirectErrorStream(true)
                .redirectOutput(OUT.resolve("node-" + i + ".log").toFile())
                .start();
        children.add(p);
        return p;
    }

    static void deleteTree(Path p) throws Exception {
        if (Files.exists(p)) {
            try (var walk = Files.walk(p)) {
                walk.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }

    HttpResponse<String> rpc(String base, String method, String body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base + "/rpc/DHash." + method))
                .timeout(TimeScale.seconds(10)).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    static String b64(String s) {
        return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void killingTheOwnerKeepsEverySyncWriteReadable() throws Exception {
        assertThat(JAR).as("run after package: the packaged node").exists();
        int n = 3;
        String[] hosts = new String[n];
        int[] peer = new int[n];
        String[] base = new String[n];
        StringBuilder seeds = new StringBuilder();
        for (int i = 0; i < n; i++) {
            hosts[i] = "127.0.0." + (2 + i);
            peer[i] = freePort(hosts[i]);
            seeds.append(i == 0 ? "" : ",").append(hosts[i]).append(':').append(peer[i]);
        }
        for (int i = 0; i < n; i++) {
            int httpPort = freePort(hosts[i]);
            base[i] = "http://" + hosts[i] + ":" + httpPort;
            startNode(i, hosts[i], peer[i], httpPort, freePort(hosts[i]), seeds.toString());
        }
        await().atMost(TimeScale.seconds(90)).pollInterval(Duration.ofMillis(200)).ignoreExceptions().until(() -> {
            for (int i = 0; i < n; i++) {
                if (json.readTree(rpc(base[i], "Nodes", "{}").body()).size() != n) {
                    return false;
                }
            }
            return true;
        });
        List<Member> members = new ArrayList<>();
        for (JsonNode m : json.readTree(rpc(base[0], "Nodes", "{}").body())) {
            members.add(new Member(m.get("Pos").binaryValue(), m.get("Addr").asText(), 0));
        }
        Ring ring = new Ring(members);

        Map<String, List<String>> keysByOwner = new HashMap<>();
        for (int k = 0; k < 300; k++) {
            String key = "kill-" + k;
            HttpResponse<String> put = rpc(base[k % n], "Put", "{\"Key\":\"" + b64(key) + "\",\"Value\":\""
                    + b64("v" + k) + "\",\"Sync\":true}");
            assertThat(put.statusCode()).as(put.body()).isEqualTo(200);
            keysByOwner.computeIfAbsent(ring.successor(key.getBytes(StandardCharsets.UTF_8)).address(),
                    a -> new ArrayList<>()).add(key);
        }
        String victimAddr = keysByOwner.entrySet().stream().max(Map.Entry.comparingByValue(
                java.util.Comparator.comparingInt(List::size))).orElseThrow().getKey();
        int victim = -1;
        for (int i = 0; i < n; i++) {
            if (victimAddr.equals(hosts[i] + ":" + peer[i])) {
                victim = i;
            }
        }
        List<String> owned = keysByOwner.get(victimAddr);
        assertThat(owned).isNotEmpty();

        Process killed = children.get(victim);
        killed.destroyForcibly(); // SIGKILL
        assertThat(killed.waitFor(TimeScale.seconds(20).toMillis(), TimeUnit.MILLISECONDS)).isTrue();

        for (int round = 0; round < 2; round++) {
            for (int i = 0; i < n; i++) {
                if (i == victim) {
                    continue;
                }
                for (String key : owned) {
                    long start = System.nanoTime();
                    HttpResponse<String> get = rpc(base[i], "Get", "{\"Key\":\"" + b64(key) + "\"}");
                    Duration took = Duration.ofNanos(System.nanoTime() - start);
                    assertThat(get.statusCode()).as(key + " via " + base[i] + ": " + get.body()).isEqualTo(200);
                    assertThat(get.body()).as(key + " via " + base[i]).contains("\"Exists\":true")
                            .contains(b64("v" + key.substring(5)));
                    assertThat(took).as("answer time of " + key + " via " + base[i]).isLessThan(BOUND);
                }
            }
            if (round == 0) {
                // second round: after the survivors removed the dead node from their rings
                int survivor = victim == 0 ? 1 : 0;
                await().atMost(TimeScale.seconds(30)).pollInterval(Duration.ofMillis(100)).until(() ->
                        json.readTree(rpc(base[survivor], "Nodes", "{}").body()).size() == n - 1);
            }
        }
    }
}

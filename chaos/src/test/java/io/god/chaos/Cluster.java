package io.god.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.StringJoiner;

/** The campaign's nodes and what their {@code /admin/status} says. */
final class Cluster implements AutoCloseable {

    private final Net net;
    private final List<NodeProcess> nodes = new ArrayList<>();
    private final String seeds;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    private final ObjectMapper json = new ObjectMapper();

    /** {@code settings}: JVM options added to every node's command line (e.g. a short tombstone window). */
    Cluster(Net net, Path jar, Path out, List<String> settings) {
        this.net = net;
        StringJoiner s = new StringJoiner(",");
        for (int i = 0; i < net.size(); i++) {
            NodeProcess n = new NodeProcess(i, net, jar, out, settings);
            nodes.add(n);
            s.add(n.address());
        }
        this.seeds = s.toString();
    }

    Net net() {
        return net;
    }

    int size() {
        return nodes.size();
    }

    NodeProcess node(int i) {
        return nodes.get(i);
    }

    List<String> addresses() {
        return nodes.stream().map(NodeProcess::address).toList();
    }

    void start(int i) throws IOException {
        nodes.get(i).start(seeds);
    }

    /** Mounts each node's small disk ({@link Disks}) and starts every node. */
    void startAll() throws IOException {
        for (int i = 0; i < nodes.size(); i++) {
            Disks.mount(nodes.get(i).dataDir());
            start(i);
        }
    }

    /** Node i's {@code /admin/status}, or null when it does not answer within a second or two. */
    JsonNode status(int i) {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(nodes.get(i).adminBase() + "/admin/status"))
                    .timeout(Duration.ofSeconds(2)).GET().build(), HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 ? json.readTree(r.body()) : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /**
     * What node i's {@code /q/health/live} says: {@code UP}, {@code DOWN (<the dead loops>)}, or why there was no
     * answer (within a second or two).
     */
    String liveness(int i) {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(nodes.get(i).adminBase() + "/q/health/live"))
                    .timeout(Duration.ofSeconds(2)).GET().build(), HttpResponse.BodyHandlers.ofString());
            JsonNode body = json.readTree(r.body());
            if ("UP".equals(body.path("status").asText())) {
                return "UP";
            }
            List<String> dead = new ArrayList<>();
            for (JsonNode check : body.path("checks")) {
                check.path("data").forEach(d -> dead.add(d.asText()));
            }
            return "DOWN (" + String.join("; ", dead) + ")";
        } catch (IOException e) {
            return "no answer (" + e + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "no answer (interrupted)";
        }
    }

    /**
     * Null when every node answers ACTIVE, replicated, with a ring of all of them and one ring hash;
     * else what is still missing (for the report of a ring that did not converge).
     */
    String notConverged() {
        Set<String> hashes = new HashSet<>();
        for (int i = 0; i < nodes.size(); i++) {
            JsonNode s = status(i);
            if (s == null) {
                return "node " + i + " does not answer /admin/status";
            }
            if (!"ACTIVE".equals(s.path("state").asText())) {
                return "node " + i + " is " + s.path("state").asText();
            }
            if (!s.path("replicated").asBoolean()) {
                return "node " + i + " is not replicated";
            }
            if (s.path("ring").size() != nodes.size()) {
                return "node " + i + " sees " + s.path("ring").size() + " members";
            }
            hashes.add(s.path("ringHash").asText());
        }
        return hashes.size() == 1 ? null : "ring hashes differ: " + hashes;
    }

    /**
     * Waits until {@link #notConverged()} is null; answers how long that took, or null with the last
     * reason in {@code why[0]} when it did not within the bound.
     */
    Duration awaitConverged(Duration bound, String[] why) throws InterruptedException {
        long start = System.nanoTime();
        long end = start + bound.toNanos();
        String reason;
        do {
            reason = notConverged();
            if (reason == null) {
                return Duration.ofNanos(System.nanoTime() - start);
            }
            Thread.sleep(200);
        } while (System.nanoTime() < end);
        why[0] = reason;
        return null;
    }

    /** Kills every node (SIGKILL also ends a stopped one). */
    @Override
    public void close() {
        for (NodeProcess n : nodes) {
            try {
                n.kill();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                // keep going: the namespaces are deleted after this
            }
            try {
                Disks.unmountUnder(n.dataDir());
            } catch (IOException | RuntimeException e) {
                // the next run unmounts what is left under its output directory
            }
        }
    }
}

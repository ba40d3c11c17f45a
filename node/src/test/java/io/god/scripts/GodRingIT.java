package io.god.scripts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.god.testing.ScaledTimeout;
import io.god.testing.TimeScale;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * {@code bin/god-ring 3} as a user runs it: against the packaged node it starts three nodes, says the
 * ring is ready once each node lists all three members, and serves the dashboard; SIGINT (what Ctrl-C
 * sends) stops every node it started — no process it spawned is left (checked by PID), every port it
 * printed can be bound again and its temporary directory is gone.
 * Output of the script: {@code target/god-ring-it/god-ring.out}; its temporary directories go under
 * {@code target/god-ring-it/tmp}.
 */
@ScaledTimeout(value = 240, unit = TimeUnit.SECONDS)
class GodRingIT {

    static final Path SCRIPT = Path.of("..", "bin", "god-ring").toAbsolutePath().normalize();
    static final Path JAR = Path.of("target", "quarkus-app", "quarkus-run.jar").toAbsolutePath();
    static final Path OUT = Path.of("target", "god-ring-it").toAbsolutePath();
    static final Pattern NODE = Pattern.compile(
            "node (\\d): http=127\\.0\\.0\\.1:(\\d+) binary=127\\.0\\.0\\.1:(\\d+) resp=127\\.0\\.0\\.1:(\\d+)"
                    + " management=127\\.0\\.0\\.1:(\\d+) pid=(\\d+)");

    static final long SIGINT_BIT = 1L << 1;

    final HttpClient http = HttpClient.newBuilder().connectTimeout(TimeScale.seconds(2)).build();
    Process script;
    final List<ProcessHandle> spawned = new ArrayList<>();

    @AfterEach
    void tearDown() throws Exception {
        for (ProcessHandle p : spawned) {
            p.destroyForcibly();
        }
        if (script != null) {
            script.descendants().forEach(ProcessHandle::destroyForcibly);
            script.destroyForcibly();
            script.waitFor(TimeScale.seconds(20).toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    @Test
    void startsARingAndCtrlCStopsEveryNode() throws Exception {
        assertThat(JAR).as("run after package: the packaged node").exists();
        Path tmp = OUT.resolve("tmp");
        Files.createDirectories(tmp);
        try (Stream<Path> old = Files.list(tmp)) {
            old.forEach(p -> deleteTree(p));
        }
        Path out = OUT.resolve("god-ring.out");
        // a shell cannot trap a signal ignored when it started (as in a background job of a script):
        // give the script the default SIGINT disposition a terminal's foreground job has
        List<String> command = new ArrayList<>();
        if ((sigIgn(ProcessHandle.current().pid()) & SIGINT_BIT) != 0) {
            command.addAll(List.of("env", "--default-signal=INT"));
        }
        command.addAll(List.of("bash", SCRIPT.toString(), "3"));
        ProcessBuilder pb = new ProcessBuilder(command)
                .redirectErrorStream(true).redirectOutput(out.toFile());
        pb.environment().put("GOD_NODE_JAR", JAR.toString());
        pb.environment().put("TMPDIR", tmp.toString());
        pb.environment().put("GOD_RING_JAVA_OPTS", "-Xmx192m -XX:TieredStopAtLevel=1 " + TimeScale.jvmOption());
        pb.environment().put("GOD_RING_TIMEOUT", String.valueOf(TimeScale.seconds(90).toSeconds()));
        script = pb.start();

        await().atMost(TimeScale.seconds(150)).pollInterval(Duration.ofMillis(200)).until(() -> {
            assertThat(script.isAlive()).as("god-ring exited early: " + Files.readString(out)).isTrue();
            // the last line of the start: the node lines come after "ring of 3 ready" (a loaded CI read them too early)
            return Files.readString(out).contains("god-ring: Ctrl-C stops every node");
        });
        String printed = Files.readString(out);
        assertThat(printed).contains("dashboard: http://127.0.0.1:");
        List<Integer> ports = new ArrayList<>();
        List<Long> nodePids = new ArrayList<>();
        List<String> bases = new ArrayList<>();
        Matcher m = NODE.matcher(printed);
        while (m.find()) {
            bases.add("http://127.0.0.1:" + m.group(2));
            for (int g = 2; g <= 5; g++) {
                ports.add(Integer.parseInt(m.group(g)));
            }
            nodePids.add(Long.parseLong(m.group(6)));
        }
        assertThat(bases).as(printed).hasSize(3);

        // the ring works: a Sync write through node 1 is read through node 3; the dashboard answers
        HttpResponse<String> put = rpc(bases.get(0), "Put", "{\"Key\":\"a2V5\",\"Value\":\"dmFs\",\"Sync\":true}");
        assertThat(put.statusCode()).as(put.body()).isEqualTo(200);
        assertThat(rpc(bases.get(2), "Get", "{\"Key\":\"a2V5\"}").body()).contains("\"Exists\":true");
        // and each node speaks RESP on its own port: node 2 answers the key written through node 1
        assertThat(io.god.resp.RespTest.raw(ports.get(6), "GET key\r\n", 1)).isEqualTo("$3\r\nval\r\n");
        String dashboard = printed.replaceAll("(?s).*dashboard: (\\S+).*", "$1");
        assertThat(http.send(HttpRequest.newBuilder(URI.create(dashboard)).timeout(TimeScale.seconds(10)).build(),
                HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);

        script.descendants().forEach(spawned::add);
        assertThat(spawned.stream().map(ProcessHandle::pid)).containsAll(nodePids);
        assertThat(sigIgn(script.pid()) & SIGINT_BIT).as("SIGINT must not be ignored by the script").isZero();

        Process kill = new ProcessBuilder("kill", "-INT", String.valueOf(script.pid())).start();
        assertThat(kill.waitFor(TimeScale.seconds(10).toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        assertThat(script.waitFor(TimeScale.seconds(60).toMillis(), TimeUnit.MILLISECONDS))
                .as("god-ring stops after SIGINT").isTrue();
        assertThat(script.exitValue()).isEqualTo(130);
        for (ProcessHandle p : spawned) {
            Optional<ProcessHandle> still = ProcessHandle.of(p.pid());
            assertThat(still.map(ProcessHandle::isAlive).orElse(false))
                    .as("child %d (%s) left running", p.pid(), p.info().commandLine().orElse("?")).isFalse();
        }
        for (int port : ports) {
            try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                assertThat(s.getLocalPort()).isEqualTo(port);
            }
        }
        try (Stream<Path> left = Files.list(tmp)) {
            assertThat(left).as("temporary directories of god-ring").isEmpty();
        }
        assertThat(Files.readString(out)).contains("stopping 3 node(s)");
    }

    @Test
    void refusesABadNodeCountWithUsage() throws Exception {
        Path out = OUT.resolve("usage.out");
        Files.createDirectories(OUT);
        Process p = new ProcessBuilder("bash", SCRIPT.toString(), "many").redirectErrorStream(true)
                .redirectOutput(out.toFile()).start();
        assertThat(p.waitFor(TimeScale.seconds(20).toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        assertThat(p.exitValue()).isEqualTo(2);
        assertThat(Files.readString(out)).contains("usage: bin/god-ring N");
    }

    @Test
    void isShellcheckClean() throws Exception {
        Assumptions.assumeTrue(onPath("shellcheck"), "shellcheck not installed");
        Path out = OUT.resolve("shellcheck.out");
        Files.createDirectories(OUT);
        Process p = new ProcessBuilder("shellcheck", SCRIPT.toString()).redirectErrorStream(true)
                .redirectOutput(out.toFile()).start();
        assertThat(p.waitFor(TimeScale.seconds(30).toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        assertThat(p.exitValue()).as(Files.readString(out)).isZero();
    }

    HttpResponse<String> rpc(String base, String method, String body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base + "/rpc/DHash." + method))
                .timeout(TimeScale.seconds(10)).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** The SigIgn mask of a process (bit n-1 = signal n), 0 where /proc is not there. */
    static long sigIgn(long pid) throws Exception {
        Path status = Path.of("/proc", String.valueOf(pid), "status");
        if (!Files.exists(status)) {
            return 0;
        }
        for (String line : Files.readAllLines(status)) {
            if (line.startsWith("SigIgn:")) {
                return Long.parseUnsignedLong(line.substring(7).trim(), 16);
            }
        }
        return 0;
    }

    static boolean onPath(String tool) {
        String path = System.getenv("PATH");
        return path != null && Stream.of(path.split(":")).anyMatch(d -> Files.isExecutable(Path.of(d, tool)));
    }

    static void deleteTree(Path p) {
        try (Stream<Path> walk = Files.walk(p)) {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}

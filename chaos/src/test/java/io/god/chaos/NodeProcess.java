package io.god.chaos;

import io.god.testing.TimeScale;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One packaged node as a child process inside its own network namespace ({@code ip netns exec} execs
 * java, so the child's pid is the JVM's): fixed ports are safe there, nothing else listens in the
 * namespace. Output is appended to {@code node-<i>.log}; the data directory survives restarts.
 */
final class NodeProcess {

    static final int NODE_PORT = 9191;
    static final int HTTP_PORT = 8080;
    static final int ADMIN_PORT = 9000;

    private final int index;
    private final Net net;
    private final Path jar;
    private final Path dataDir;
    private final Path log;
    private Process process;
    private boolean paused;

    NodeProcess(int index, Net net, Path jar, Path out) {
        this.index = index;
        this.net = net;
        this.jar = jar;
        this.dataDir = out.resolve("data-" + index).toAbsolutePath();
        this.log = out.resolve("node-" + index + ".log");
    }

    int index() {
        return index;
    }

    String address() {
        return net.ip(index) + ":" + NODE_PORT;
    }

    String adminBase() {
        return "http://" + net.ip(index) + ":" + ADMIN_PORT;
    }

    synchronized boolean running() {
        return process != null && process.isAlive();
    }

    synchronized void start(String seeds) throws IOException {
        if (running()) {
            throw new IllegalStateException("node " + index + " is already running");
        }
        Files.createDirectories(dataDir);
        String ip = net.ip(index);
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = List.of("ip", "netns", "exec", net.namespace(index), javaBin,
                "-Xmx256m", "-XX:+ExitOnOutOfMemoryError", "-XX:TieredStopAtLevel=1",
                "-Dquarkus.http.host=" + ip, "-Dquarkus.http.port=" + HTTP_PORT,
                "-Dquarkus.management.host=" + ip, "-Dquarkus.management.port=" + ADMIN_PORT,
                "-Dgod.node.port=" + NODE_PORT, "-Dgod.node.advertise=" + address(),
                "-Dgod.seeds=" + seeds, "-Dgod.data-dir=" + dataDir, "-Dgod.redundancy=3",
                "-Dgod.ring.interval=200ms", "-Dgod.rpc.timeout=" + TimeScale.setting("500ms"),
                "-Dgod.sync.interval=1s", TimeScale.jvmOption(),
                "-jar", jar.toAbsolutePath().toString());
        Files.writeString(log, "=== start " + Instant.now() + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        process = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        paused = false;
    }

    /** SIGKILL, waiting (bounded) until it is gone. */
    synchronized void kill() throws InterruptedException {
        if (process == null) {
            return;
        }
        process.destroyForcibly();
        if (!process.waitFor(TimeScale.seconds(20).toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException("node " + index + " (pid " + process.pid() + ") outlived SIGKILL");
        }
        paused = false;
    }

    synchronized void pause() {
        Sh.run("kill", "-STOP", Long.toString(process.pid()));
        paused = true;
    }

    synchronized void resume() {
        if (paused && running()) {
            Sh.run("kill", "-CONT", Long.toString(process.pid()));
        }
        paused = false;
    }
}

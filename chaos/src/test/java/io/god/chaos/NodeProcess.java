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
    /** The nodes' {@code god.time.max-skew} (its default, set explicitly: the skew nemeses depend on it). */
    static final int MAX_SKEW_SECONDS = 60;
    /** Debian's libfaketime (package faketime). */
    static final String FAKETIME_LIB = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1";

    /** Why a node cannot be started under a fake clock here, or null. */
    static String faketimeUnavailable() {
        return Files.isReadable(Path.of(FAKETIME_LIB)) ? null : FAKETIME_LIB + " is missing (Debian package faketime)";
    }

    /** Exit code when the process has ended, else null. */
    synchronized Integer exitCode() {
        return process != null && !process.isAlive() ? process.exitValue() : null;
    }

    private final int index;
    private final Net net;
    private final Path jar;
    private final Path dataDir;
    private final Path log;
    /** JVM options beyond the fixed ones, before {@code -jar}. */
    private final List<String> settings;
    private Process process;
    private boolean paused;
    /** The clock offset (s) the next start runs under (libfaketime), 0 for the real clock. */
    private int clockOffsetSeconds;

    NodeProcess(int index, Net net, Path jar, Path out, List<String> settings) {
        this.settings = List.copyOf(settings);
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

    Path dataDir() {
        return dataDir;
    }

    /** From the next start on, the node's wall clock runs {@code seconds} off (0: the real clock). */
    synchronized void clockOffset(int seconds) {
        clockOffsetSeconds = seconds;
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
        List<String> cmd = new java.util.ArrayList<>(List.of("ip", "netns", "exec", net.namespace(index), javaBin,
                "-Xmx256m", "-XX:+ExitOnOutOfMemoryError", "-XX:TieredStopAtLevel=1",
                "-Dquarkus.http.host=" + ip, "-Dquarkus.http.port=" + HTTP_PORT,
                "-Dquarkus.management.host=" + ip, "-Dquarkus.management.port=" + ADMIN_PORT,
                "-Dgod.node.host=" + ip, // a bind address: no protected mode, peers reach it over the namespaces' links
                "-Dgod.node.port=" + NODE_PORT, "-Dgod.node.advertise=" + address(),
                "-Dgod.seeds=" + seeds, "-Dgod.data-dir=" + dataDir, "-Dgod.redundancy=3",
                "-Dgod.ring.interval=200ms", "-Dgod.rpc.timeout=" + TimeScale.setting("500ms"),
                "-Dgod.sync.interval=1s", "-Dgod.time.max-skew=" + MAX_SKEW_SECONDS + "s", TimeScale.jvmOption()));
        cmd.addAll(settings);
        cmd.addAll(List.of("-jar", jar.toAbsolutePath().toString()));
        Files.writeString(log, "=== start " + Instant.now()
                + (clockOffsetSeconds == 0 ? "" : ", clock offset " + clockOffsetSeconds + " s") + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        ProcessBuilder pb = new ProcessBuilder(cmd);
        if (clockOffsetSeconds != 0) {
            // libfaketime moves the wall clock only (System.nanoTime stays real); ip netns exec keeps the env
            pb.environment().put("LD_PRELOAD", FAKETIME_LIB);
            pb.environment().put("FAKETIME", (clockOffsetSeconds > 0 ? "+" : "") + clockOffsetSeconds + "s");
            pb.environment().put("DONT_FAKE_MONOTONIC", "1");
        }
        process = pb.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        paused = false;
    }

    /** The lines of the node's log containing {@code text} (at most 10, each cut to 400 characters). */
    List<String> logLines(String text) {
        try (var lines = Files.lines(log)) {
            return lines.filter(l -> l.contains(text)).limit(10).map(l -> l.length() > 400 ? l.substring(0, 400) + "…" : l)
                    .toList();
        } catch (IOException | java.io.UncheckedIOException e) {
            return List.of("node " + index + ": log unreadable: " + e.getMessage());
        }
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

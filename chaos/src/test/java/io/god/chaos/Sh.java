package io.god.chaos;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs a short system command (ip, iptables, kill) with a deadline; its output is read whole. */
final class Sh {

    /** What a command printed and how it ended. */
    record Result(int exit, String output) {
        boolean ok() {
            return exit == 0;
        }
    }

    private static final long DEADLINE_SECONDS = 30;

    private Sh() {
    }

    /** Runs the command; a non-zero exit throws, naming the command and its output. */
    static String run(String... cmd) {
        Result r = tryRun(cmd);
        if (!r.ok()) {
            throw new IllegalStateException(String.join(" ", cmd) + " exited " + r.exit() + ": " + r.output().strip());
        }
        return r.output();
    }

    /** A command found on PATH, else in /usr/sbin or /sbin (Debian puts ip and iptables there; a non-root PATH lacks them). */
    static String resolve(String command) {
        if (command.contains("/")) {
            return command;
        }
        for (String dir : (System.getenv().getOrDefault("PATH", "") + ":/usr/sbin:/sbin").split(":")) {
            if (!dir.isEmpty() && java.nio.file.Files.isExecutable(java.nio.file.Path.of(dir, command))) {
                return java.nio.file.Path.of(dir, command).toString();
            }
        }
        return command;
    }

    /** Runs the command; exit 127 when it could not be started, 124 when it ran past the deadline (killed). */
    static Result tryRun(String... cmd) {
        Process p;
        try {
            List<String> full = new java.util.ArrayList<>(List.of(cmd));
            full.set(0, resolve(cmd[0]));
            p = new ProcessBuilder(full).redirectErrorStream(true).start();
        } catch (IOException e) {
            return new Result(127, e.getMessage());
        }
        try {
            // outputs are small (a few lines): reading before waiting cannot block on a full pipe for long
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(DEADLINE_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return new Result(124, new String(out, StandardCharsets.UTF_8));
            }
            return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8));
        } catch (IOException e) {
            p.destroyForcibly();
            return new Result(127, e.getMessage());
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            return new Result(124, "interrupted");
        }
    }
}

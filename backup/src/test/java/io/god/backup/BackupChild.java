package io.god.backup;

import io.god.client.GodClient;
import io.god.testing.TimeScale;
import java.io.IOException;
import java.net.URI;
import java.io.PrintStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A backup in a child JVM that stops after a number of chunks and waits to be killed (SIGKILL):
 * prints {@code STALLED} once that many chunks are recorded in {@code progress.json}. Arguments:
 * endpoint, token, location (a directory or s3://bucket/prefix), chunk size, chunks before the stall,
 * and for S3 the --s3-endpoint URL (AWS_* from the environment). {@link #start} launches it with output
 * to a file; the caller kills it.
 */
public final class BackupChild {

    private BackupChild() {
    }

    public static void main(String[] args) throws Exception {
        try (GodClient client = GodClient.builder().endpoints(args[0]).token(args[1]).build()) {
            Backup b = new Backup(client, TimeScale.seconds(10), BackupStore.of(args[2], new S3Store.Options(
                    args.length > 5 ? URI.create(args[5]) : null, System.getenv())),
                    Integer.parseInt(args[3]), new PrintStream(OutputStream.nullOutputStream()));
            int stallAfter = Integer.parseInt(args[4]);
            int[] chunks = {0};
            b.afterChunk = () -> {
                if (++chunks[0] == stallAfter) {
                    System.out.println("STALLED");
                    System.out.flush();
                    try {
                        Thread.sleep(Long.MAX_VALUE); // killed here
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            };
            b.run();
        }
        System.out.println("FINISHED"); // not reached when the stall comes first
    }

    static Process start(Path out, String... args) throws IOException {
        return start(out, Map.of(), args);
    }

    /** The child with env added to this JVM's environment. */
    static Process start(Path out, Map<String, String> env, String... args) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java, "-XX:TieredStopAtLevel=1", "-Xmx256m",
                "-D" + TimeScale.PROPERTY + "=" + TimeScale.factor(),
                "-cp", System.getProperty("java.class.path"), BackupChild.class.getName()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile());
        pb.environment().putAll(env);
        return pb.start();
    }

    static boolean said(Path out, String word) throws IOException {
        return Files.exists(out) && Files.readString(out, StandardCharsets.UTF_8).lines().anyMatch(word::equals);
    }
}

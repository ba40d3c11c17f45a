package io.god.backup;

import io.god.cli.GodCli;
import io.god.cli.TlsOptions;
import io.god.client.GodClient;
import io.god.client.GodException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Parameters;

/**
 * god-backup: {@code backup --to LOCATION [--resume]}, {@code backup verify LOCATION},
 * {@code restore --from LOCATION [--allow-resurrection]}. A separate tool (module {@code backup}), so
 * storage libraries never burden god-client's users; the connection options are god-cli's.
 */
@Command(name = "god-backup", mixinStandardHelpOptions = true, version = "god-backup 0.1.0",
        description = "Backs a god ring up to a directory or S3, verifies a backup, restores one into any ring.",
        subcommands = {BackupCli.BackupCommand.class, BackupCli.RestoreCommand.class, CommandLine.HelpCommand.class})
public final class BackupCli implements Callable<Integer> {

    @Option(names = "--endpoint", paramLabel = "HOST:PORT", defaultValue = "127.0.0.1:9191",
            description = "a node's binary port; every member must be reachable from here (default: ${DEFAULT-VALUE})")
    String endpoint;

    @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "30s", converter = GodCli.DurationConverter.class,
            description = "deadline of each call to a node (default: ${DEFAULT-VALUE})")
    Duration timeout;

    @Option(names = "--token", paramLabel = "TOKEN",
            description = "the ring's admin credential (god.auth.admin-token) or peer credential (god.auth.peer-token); "
                    + "each is god.auth.token while unset; a client's is refused (default: $GOD_AUTH_TOKEN, else the "
                    + "file named by $GOD_AUTH_TOKEN_FILE)")
    String token;

    @Option(names = "--token-file", paramLabel = "PATH", description = "read the admin or peer credential from this file")
    Path tokenFile;

    /** --tls, --ca, --cert, --key as god-cli's; on a TLS ring the certificate must be a peer's (docs/tls.md). */
    @CommandLine.Mixin
    TlsOptions tls;

    @Option(names = "--s3-endpoint", paramLabel = "URL", description = "an S3 API server other than AWS (MinIO, "
            + "s3proxy: http://host:port), addressed path-style; region and credentials still from AWS_REGION, "
            + "AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY or the AWS profile")
    java.net.URI s3Endpoint;

    Map<String, String> env = System.getenv();
    PrintStream out = System.out;

    public static void main(String[] args) {
        // the AWS SDK's HTTP client logs through SLF4J; the tool ships no provider, and says nothing about that
        if (System.getProperty("slf4j.internal.verbosity") == null) {
            System.setProperty("slf4j.internal.verbosity", "ERROR");
        }
        System.exit(run(args, System.out, System.err, System.getenv()));
    }

    /** Runs one command line; returns the exit code (0 ok, 1 failure, 2 usage error). */
    public static int run(String[] args, PrintStream out, PrintStream err, Map<String, String> env) {
        BackupCli cli = new BackupCli();
        cli.env = env;
        cli.out = out;
        CommandLine cl = new CommandLine(cli);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        cl.setExecutionExceptionHandler((e, cmd, parsed) -> {
            String msg = e instanceof io.god.client.GodRequestException r
                    ? "request rejected (" + r.status() + "): " + r.getMessage()
                    : e instanceof GodException ? "unavailable: " + e.getMessage() : e.getMessage();
            cmd.getErr().println("god-backup: " + msg);
            return e instanceof IllegalArgumentException ? 2 : 1;
        });
        return cl.execute(args);
    }

    @Override
    public Integer call() {
        CommandLine.usage(this, out);
        return 2;
    }

    /** The store a LOCATION argument names: {@code s3://bucket/prefix} or a directory. */
    BackupStore store(String location) {
        return BackupStore.of(location, new S3Store.Options(s3Endpoint, env));
    }

    GodClient client() {
        return tls.apply(GodClient.builder().endpoints(endpoint).token(GodCli.token(token, tokenFile, env))
                .attemptTimeout(timeout).deadline(timeout)).build();
    }

    @Command(name = "backup", mixinStandardHelpOptions = true, subcommands = VerifyCommand.class,
            description = {"Backs every range of the ring up to LOCATION (a directory or s3://bucket/prefix): "
                    + "values, sub trees, configuration, tombstones and timestamps, each range from one tree version "
                    + "of its owner.",
                    "Per range, not a point-in-time cut of the ring."})
    static final class BackupCommand implements Callable<Integer> {
        @ParentCommand
        BackupCli cli;

        @Option(names = "--to", paramLabel = "LOCATION",
                description = "an empty directory or s3://bucket/prefix (required)")
        String to;

        @Option(names = "--resume", description = "go on with the interrupted backup in LOCATION after its last "
                + "complete chunk")
        boolean resume;

        @Option(names = "--chunk-size", paramLabel = "BYTES", defaultValue = "4194304",
                description = "bytes of records per chunk file (default: ${DEFAULT-VALUE})")
        int chunkBytes;

        @Override
        public Integer call() {
            if (to == null) {
                throw new IllegalArgumentException("backup needs --to LOCATION (or: backup verify LOCATION)");
            }
            try (BackupStore store = cli.store(to); GodClient client = cli.client()) {
                Backup b = new Backup(client, cli.timeout, store, chunkBytes, cli.out);
                if (resume) {
                    b.resume();
                } else {
                    b.run();
                }
            }
            return 0;
        }
    }

    @Command(name = "verify", mixinStandardHelpOptions = true,
            description = "Checks every chunk of the backup in LOCATION against the manifest's sha256 and counts.")
    static final class VerifyCommand implements Callable<Integer> {
        @ParentCommand
        BackupCommand parent;

        @Parameters(paramLabel = "LOCATION", description = "the backup's directory or s3://bucket/prefix")
        String location;

        @Override
        public Integer call() {
            try (BackupStore store = parent.cli.store(location)) {
                Verify.check(store, parent.cli.out);
            }
            return 0;
        }
    }

    @Command(name = "restore", mixinStandardHelpOptions = true,
            description = {"Verifies the backup in LOCATION, then merges it into the ring by last-write-wins "
                    + "(original timestamps; restoring twice changes nothing)."})
    static final class RestoreCommand implements Callable<Integer> {
        @ParentCommand
        BackupCli cli;

        @Option(names = "--from", required = true, paramLabel = "LOCATION",
                description = "the backup's directory or s3://bucket/prefix")
        String from;

        @Option(names = "--allow-resurrection", description = "restore even when the backup is older than the "
                + "ring's collectedUpTo (deleted keys may come back)")
        boolean allowResurrection;

        @Override
        public Integer call() {
            try (BackupStore store = cli.store(from); GodClient client = cli.client()) {
                new Restore(client, cli.timeout, store, cli.out).run(allowResurrection);
            }
            return 0;
        }
    }
}

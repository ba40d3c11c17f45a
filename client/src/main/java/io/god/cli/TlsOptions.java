package io.god.cli;

import io.god.client.GodClient;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The TLS options of the command-line tools (god-cli, god-backup), a picocli mixin: TLS to the nodes' binary port,
 * the CA that signs their certificates, and a client certificate.
 */
public final class TlsOptions {

    @Option(names = "--tls", description = "TLS to the binary port (nodes with god.tls.cert-file); implied by --ca,"
            + " --cert")
    boolean tls;

    @Option(names = "--ca", paramLabel = "PATH",
            description = "PEM CA certificates that sign the nodes' certificates (default: the JVM's trust store)")
    Path ca;

    @Option(names = "--cert", paramLabel = "PATH", description = "PEM client certificate (with --key)")
    Path cert;

    @Option(names = "--key", paramLabel = "PATH", description = "PEM private key of --cert (PKCS#8 or PKCS#1)")
    Path key;

    /** The options on a client builder; --cert without --key (or the reverse) is a usage error. */
    public GodClient.Builder apply(GodClient.Builder b) {
        if ((cert == null) != (key == null)) {
            throw new IllegalArgumentException("--cert and --key go together");
        }
        return b.tls(tls).ca(ca).clientCertificate(cert, key);
    }
}

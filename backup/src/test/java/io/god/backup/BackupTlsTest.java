package io.god.backup;

import static io.god.backup.BackupFixtures.TOKEN;
import static io.god.backup.BackupFixtures.ackedWrites;
import static io.god.backup.BackupFixtures.assertRestored;
import static io.god.backup.BackupFixtures.cli;
import static io.god.backup.BackupFixtures.ring;
import static org.assertj.core.api.Assertions.assertThat;

import io.god.backup.BackupFixtures.Cli;
import io.god.client.GodClient;
import io.god.cluster.Rings;
import io.god.testing.ScaledTimeout;
import io.god.tls.TestPki;
import io.god.tree.Entry;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * god-backup against rings over mutual TLS (god.tls.*, god.tls.peer-san): --ca and a peer's certificate (--cert,
 * --key) back a ring up and restore into another; without a certificate, or with a client's, the node refuses the
 * peer operation; --cert without --key is a usage error.
 */
@ScaledTimeout(240)
class BackupTlsTest {

    private static final List<String> RING_IPS = List.of("127.0.0.2", "127.0.0.3", "127.0.0.4");

    @TempDir
    Path dir;

    private static Map<String, String> tls(Path files) {
        Map<String, String> m = new HashMap<>();
        m.put("god.tls.cert-file", files.resolve("tls.crt").toString());
        m.put("god.tls.key-file", files.resolve("tls.key").toString());
        m.put("god.tls.ca-file", files.resolve("ca.crt").toString());
        m.put("god.tls.peer-san", "*.peers.god.test");
        return m;
    }

    @Test
    void backupAndRestoreOverTlsWithAPeersCertificate() throws Exception {
        TestPki ca = TestPki.ca("god backup test CA");
        Path node = ca.issue("god node", TestPki.Use.PEER, List.of("node.peers.god.test"), RING_IPS)
                .write(dir.resolve("node"), true);
        Path client = ca.issue("a client", TestPki.Use.CLIENT, List.of("client.god.test"), List.of())
                .write(dir.resolve("client"), false);
        String caFile = node.resolve("ca.crt").toString();
        String[] asPeer = {"--ca", caFile, "--cert", node.resolve("tls.crt").toString(), "--key",
                node.resolve("tls.key").toString()};
        Path to = dir.resolve("backup");
        Map<String, Entry> acked;
        try (Rings source = ring(3, tls(node));
             GodClient c = GodClient.builder().endpoints(source.address(0)).token(TOKEN).ca(node.resolve("ca.crt"))
                     .build()) {
            acked = ackedWrites(source, c);

            Cli noCert = cli("--endpoint", source.address(0), "--token", TOKEN, "--ca", caFile, "backup", "--to",
                    dir.resolve("refused").toString());
            assertThat(noCert.code()).isEqualTo(1);
            assertThat(noCert.err()).contains("peer operation DHash.Backup refused").contains("no peer's");
            Cli clientCert = cli("--endpoint", source.address(0), "--token", TOKEN, "--ca", caFile, "--cert",
                    client.resolve("tls.crt").toString(), "--key", client.resolve("tls.key").toString(), "backup",
                    "--to", dir.resolve("refused").toString());
            assertThat(clientCert.code()).isEqualTo(1);
            assertThat(clientCert.err()).contains("peer operation DHash.Backup refused");
            Cli half = cli("--endpoint", source.address(0), "--token", TOKEN, "--cert", node.resolve("tls.crt")
                    .toString(), "backup", "--to", dir.resolve("refused").toString());
            assertThat(half.code()).isEqualTo(2);
            assertThat(half.err()).contains("--cert and --key go together");

            Cli backup = cli(args(source.address(1), asPeer, "backup", "--to", to.toString(), "--chunk-size", "4096"));
            assertThat(backup.code()).as(backup.err()).isZero();
            assertThat(backup.out()).contains("backup complete");
        }
        assertThat(cli("backup", "verify", to.toString()).code()).isZero();
        try (Rings target = ring(2, tls(node))) {
            Cli restore = cli(args(target.address(1), asPeer, "restore", "--from", to.toString()));
            assertThat(restore.code()).as(restore.err()).isZero();
            assertRestored(target, acked, 3); // N=3 on two members: both hold everything
        }
    }

    private static String[] args(String endpoint, String[] tls, String... command) {
        List<String> out = new java.util.ArrayList<>(List.of("--endpoint", endpoint, "--token", TOKEN));
        out.addAll(List.of(tls));
        out.addAll(List.of(command));
        return out.toArray(new String[0]);
    }
}

package io.god.backup;

import static io.god.backup.BackupFixtures.bytes;
import static io.god.backup.BackupFixtures.cli;
import static io.god.backup.BackupFixtures.ring;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.god.backup.BackupFixtures.Cli;
import io.god.client.GodClient;
import io.god.client.GodException;
import io.god.cluster.Rings;
import io.god.persist.Record;
import io.god.testing.ScaledTimeout;
import io.god.testing.TimeScale;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The three credentials apart (god.auth.token, god.auth.peer-token, god.auth.admin-token): backup and restore take
 * the admin or the peer credential; the client's is refused (403), for the backup's reads and for a restore's
 * replication with the records' own timestamps alike.
 */
@ScaledTimeout(120)
class BackupCredentialsTest {

    private static final String CLIENT = "backup-client-token";
    private static final String PEER = "backup-peer-token-2";
    private static final String ADMIN = "backup-admin-token-3";
    private static final Map<String, String> CREDENTIALS = Map.of("god.auth.token", CLIENT,
            "god.auth.peer-token", PEER, "god.auth.admin-token", ADMIN);

    @TempDir
    Path tmp;

    @Test
    void theAdminAndThePeerCredentialBackUpAndRestoreAClientsIsRefused() throws Exception {
        byte[] key = GodClient.hashed("credentials");
        try (Rings source = ring(1, CREDENTIALS); Rings target = ring(1, CREDENTIALS)) {
            try (GodClient c = GodClient.builder().endpoints(source.address(0)).token(CLIENT).build()) {
                c.put(key, bytes("kept"), true);
            }
            String asAdmin = tmp.resolve("as-admin").toString();
            String asPeer = tmp.resolve("as-peer").toString();

            Cli refused = cli("--endpoint", source.address(0), "--token", CLIENT, "backup", "--to",
                    tmp.resolve("as-client").toString());
            assertThat(refused.code()).isEqualTo(1);
            assertThat(refused.err()).contains("(403)").contains("DHash.Backup")
                    .contains("god.auth.peer-token").contains("god.auth.admin-token");
            assertThat(tmp.resolve("as-client/progress.json")).doesNotExist();

            for (String[] as : new String[][] {{ADMIN, asAdmin}, {PEER, asPeer}}) {
                Cli backup = cli("--endpoint", source.address(0), "--token", as[0], "backup", "--to", as[1]);
                assertThat(backup.code()).as(backup.err()).isZero();
            }

            Cli restoreAsClient = cli("--endpoint", target.address(0), "--token", CLIENT, "restore", "--from", asAdmin);
            assertThat(restoreAsClient.code()).isEqualTo(1);
            assertThat(restoreAsClient.err()).contains("(403)").contains("god.auth.admin-token");
            // the stamped writes themselves: a client may not replicate a record with a timestamp of its choosing
            try (GodClient c = GodClient.builder().endpoints(target.address(0)).token(CLIENT).build()) {
                NodeCalls calls = new NodeCalls(c, TimeScale.seconds(5));
                assertThatThrownBy(() -> calls.replicate(target.address(0),
                        List.of(Record.put(key, bytes("forged"), Long.MAX_VALUE / 2).encode())))
                        .isInstanceOf(GodException.class) // the node's error frame
                        .hasMessageContaining("DHash.Replicate is ring traffic, refused (403)");
            }
            assertThat(target.nodes.get(0).store().state().entry(key)).isNull();

            for (String[] as : new String[][] {{ADMIN, asAdmin}, {PEER, asPeer}}) {
                Cli restore = cli("--endpoint", target.address(0), "--token", as[0], "restore", "--from", as[1]);
                assertThat(restore.code()).as(restore.err()).isZero();
                assertThat(target.nodes.get(0).store().state().entry(key).value()).isEqualTo(bytes("kept"));
            }
        }
    }
}

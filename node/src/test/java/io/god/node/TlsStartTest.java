package io.god.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.god.tls.TestPki;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** god.tls.*: PKCS#1 and PKCS#8 keys start a node; a missing or wrong file fails the start naming its setting. */
class TlsStartTest {

    @TempDir
    Path dir;

    static final TestPki CA = TestPki.ca("start CA");

    static Map<String, String> settings(Path files) {
        Map<String, String> m = new HashMap<>(Map.of("god.node.advertise", "127.0.0.1:9191", "god.node.port", "0"));
        m.put("god.tls.cert-file", files.resolve("tls.crt").toString());
        m.put("god.tls.key-file", files.resolve("tls.key").toString());
        m.put("god.tls.ca-file", files.resolve("ca.crt").toString());
        return m;
    }

    @Test
    void pkcs1AndPkcs8KeysAreAccepted() throws Exception {
        for (boolean pkcs1 : List.of(true, false)) {
            TestPki.Issued issued = CA.issue("node", TestPki.Use.PEER, List.of("node.test"), List.of("127.0.0.1"));
            Path files = issued.write(dir.resolve(pkcs1 ? "pkcs1" : "pkcs8"), pkcs1);
            assertThat(Files.readString(files.resolve("tls.key")))
                    .startsWith(pkcs1 ? "-----BEGIN RSA PRIVATE KEY-----" : "-----BEGIN PRIVATE KEY-----");
            try (GodNode node = GodNode.start(NodeSettings.of(settings(files)))) {
                assertThat(node.tls().certificate()).isEqualTo(issued.cert());
            }
        }
    }

    @Test
    void aBadFileFailsTheStartNamingItsSetting() throws Exception {
        Path files = CA.issue("node", TestPki.Use.PEER, List.of("node.test"), List.of("127.0.0.1"))
                .write(dir.resolve("node"), true);
        Map<String, String> m = settings(files);

        Files.writeString(files.resolve("tls.key"), "not a key\n");
        assertStartFails(m, "god.tls.key-file: " + files.resolve("tls.key") + " is not a PEM file");

        Files.writeString(files.resolve("tls.key"), "-----BEGIN ENCRYPTED PRIVATE KEY-----\nAAAA\n"
                + "-----END ENCRYPTED PRIVATE KEY-----\n");
        assertStartFails(m, "god.tls.key-file: " + files.resolve("tls.key") + " holds an encrypted PKCS#8 key");

        // the key of another certificate (a rotation that replaced one file only)
        CA.issue("other", TestPki.Use.PEER, List.of(), List.of()).write(dir.resolve("other"), true);
        Files.copy(dir.resolve("other/tls.key"), files.resolve("tls.key"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        assertStartFails(m, "god.tls.key-file: the private key does not belong to the certificate of god.tls.cert-file");

        Map<String, String> missing = new HashMap<>(m);
        missing.put("god.tls.cert-file", dir.resolve("nope.crt").toString());
        assertStartFails(missing, "god.tls.cert-file: " + dir.resolve("nope.crt") + " does not exist");

        Map<String, String> noCa = new HashMap<>(m);
        noCa.remove("god.tls.ca-file");
        assertThatThrownBy(() -> NodeSettings.of(noCa)).hasMessageStartingWith("god.tls.ca-file: must be set");
        Map<String, String> noCert = new HashMap<>(m);
        noCert.remove("god.tls.cert-file");
        assertThatThrownBy(() -> NodeSettings.of(noCert))
                .hasMessageContaining("god.tls.key-file: is set but god.tls.cert-file is not");
        Map<String, String> badSan = new HashMap<>(m);
        badSan.put("god.tls.peer-san", "*.ok.test, not ok");
        assertThatThrownBy(() -> NodeSettings.of(badSan)).hasMessageStartingWith("god.tls.peer-san: must be DNS names");
        assertThat(NodeSettings.of(Map.of("god.node.advertise", "127.0.0.1:9191")).tls()).isNull();
    }

    private static void assertStartFails(Map<String, String> settings, String message) {
        assertThatThrownBy(() -> GodNode.start(NodeSettings.of(settings))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(message);
    }
}

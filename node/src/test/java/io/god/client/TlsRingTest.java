package io.god.client;

import static io.god.client.GodClient.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.god.node.GodNode;
import io.god.testing.ScaledTimeout;
import io.god.testing.TimeScale;
import io.god.tls.TestPki;
import io.god.wire.Ops;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * god.tls.*: a ring of three over mutual TLS serves the Java client and god-cli; a client that does not trust the
 * nodes' CA, or speaks plain TCP, is refused; a client certificate can neither call a peer operation nor join.
 */
@ScaledTimeout(120)
class TlsRingTest {

    static final List<String> RING_IPS = List.of("127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5");

    @TempDir
    Path dir;

    /** The god.tls.* settings of a node whose files are in dir (cert-manager's layout). */
    static void tls(Map<String, String> settings, Path files) {
        settings.put("god.tls.cert-file", files.resolve("tls.crt").toString());
        settings.put("god.tls.key-file", files.resolve("tls.key").toString());
        settings.put("god.tls.ca-file", files.resolve("ca.crt").toString());
    }

    @Test
    void ringOverMutualTls() throws Exception {
        TestPki ca = TestPki.ca("god test CA");
        // the nodes' key in PKCS#1, as cert-manager writes it by default
        Path node = ca.issue("god node", TestPki.Use.PEER, List.of("node.peers.god.test"), RING_IPS)
                .write(dir.resolve("node"), true);
        Path client = ca.issue("a client", TestPki.Use.CLIENT, List.of("client.god.test"), List.of("127.0.0.5"))
                .write(dir.resolve("client"), false);
        Path other = TestPki.ca("another CA").issue("x", TestPki.Use.SERVER, List.of(), RING_IPS)
                .write(dir.resolve("other"), false);
        try (ClientRings rings = new ClientRings()) {
            tls(rings.extra, node);
            rings.extra.put("god.tls.peer-san", "*.peers.god.test");
            rings.start(3);

            try (GodClient c = GodClient.builder().endpoints(rings.address(0)).ca(node.resolve("ca.crt")).build()) {
                assertThat(c.ring()).hasSize(3);
                for (int i = 0; i < 30; i++) {
                    c.put(utf8("k" + i), utf8("v" + i), true);
                }
                for (int i = 0; i < 30; i++) {
                    assertThat(new String(c.get(utf8("k" + i)).value())).isEqualTo("v" + i);
                }
            }

            // god-cli: --ca, and a client certificate (--cert, --key) the node accepts for data calls
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            assertThat(io.god.cli.GodCli.run(new String[] {"--endpoint", rings.address(1), "--ca",
                    node.resolve("ca.crt").toString(), "--cert", client.resolve("tls.crt").toString(), "--key",
                    client.resolve("tls.key").toString(), "get", "k7"}, new PrintStream(out, true),
                    new PrintStream(err, true), InputStream.nullInputStream())).as(err::toString).isZero();
            assertThat(out.toString()).isEqualTo("v7\n");

            // a CA that did not sign the nodes' certificates: a clear error, nothing read
            err.reset();
            assertThat(io.god.cli.GodCli.run(new String[] {"--endpoint", rings.address(1), "--timeout", "1s", "--ca",
                    other.resolve("ca.crt").toString(), "get", "k7"}, new PrintStream(out, true),
                    new PrintStream(err, true), InputStream.nullInputStream())).isEqualTo(1);
            assertThat(err.toString()).contains("TLS handshake with " + rings.address(1) + " failed")
                    .contains("--ca").contains("PKIX");
            try (GodClient wrong = GodClient.builder().endpoints(rings.address(0)).gateway(true)
                    .ca(other.resolve("ca.crt")).deadline(TimeScale.seconds(1)).build()) {
                assertThatThrownBy(() -> wrong.get(utf8("k1"))).isInstanceOf(GodUnavailableException.class)
                        .hasMessageContaining("TLS handshake with " + rings.address(0) + " failed");
            }
            // plain TCP against the TLS port: no answer
            try (GodClient plain = GodClient.builder().endpoints(rings.address(0)).gateway(true)
                    .deadline(TimeScale.seconds(1)).build()) {
                assertThatThrownBy(() -> plain.get(utf8("k1"))).isInstanceOf(GodUnavailableException.class);
            }

            // a peer operation needs a peer's certificate: the client's is refused, the nodes' is accepted
            try (GodClient asClient = GodClient.builder().endpoints(rings.address(0)).gateway(true)
                    .ca(node.resolve("ca.crt")).clientCertificate(client.resolve("tls.crt"), client.resolve("tls.key"))
                    .build()) {
                assertThat(new String(asClient.get(utf8("k3")).value())).isEqualTo("v3");
                assertThatThrownBy(() -> asClient.call(rings.address(0), Ops.TIME, new byte[0], TimeScale.seconds(2)))
                        .isInstanceOf(GodException.class).hasMessageContaining("peer operation Timenet.ActualTime refused")
                        .hasMessageContaining("god.tls.peer-san");
            }
            try (GodClient asPeer = GodClient.builder().endpoints(rings.address(0)).gateway(true)
                    .ca(node.resolve("ca.crt")).clientCertificate(node.resolve("tls.crt"), node.resolve("tls.key"))
                    .build()) {
                assertThat(asPeer.call(rings.address(0), Ops.TIME, new byte[0], TimeScale.seconds(2))).hasSize(8);
            }
            // without a certificate at all, no peer operation either
            try (GodClient anonymous = GodClient.builder().endpoints(rings.address(0)).gateway(true)
                    .ca(node.resolve("ca.crt")).build()) {
                assertThatThrownBy(() -> anonymous.call(rings.address(0), Ops.JOIN, new byte[0], TimeScale.seconds(2)))
                        .isInstanceOf(GodException.class).hasMessageContaining("refused")
                        .hasMessageContaining("presented no certificate");
            }

            // a node started with a client certificate cannot join the ring
            tls(rings.extra, client);
            GodNode intruder = rings.startJoining(3);
            await().during(TimeScale.seconds(2)).atMost(TimeScale.seconds(4)).until(() ->
                    intruder.state() != GodNode.State.ACTIVE && rings.nodes.subList(0, 3).stream()
                            .allMatch(n -> n.membership().ring().byAddress(rings.address(3)) == null));
        }
    }
}

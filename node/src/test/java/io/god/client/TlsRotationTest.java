package io.god.client;

import static io.god.client.GodClient.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.god.node.GodNode;
import io.god.testing.ScaledTimeout;
import io.god.testing.TimeScale;
import io.god.tls.TestPki;
import io.god.wire.Ops;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rotation without restart: under a steady load of Sync writes and reads through the Java client, the nodes' CA
 * file becomes a bundle of the old and a new CA, then their certificate and key are replaced by ones the new CA
 * signed. New connections see the new certificate (the client's, a new peer's), open ones go on: 0 failed calls.
 */
@ScaledTimeout(150)
class TlsRotationTest {

    @TempDir
    Path dir;

    @Test
    void certificateAndCaRotationUnderLoad() throws Exception {
        TestPki oldCa = TestPki.ca("old CA");
        TestPki newCa = TestPki.ca("new CA");
        Path files = oldCa.issue("node", TestPki.Use.PEER, List.of("node.peers.god.test"), TlsRingTest.RING_IPS)
                .write(dir.resolve("node"), true);
        Path bothCas = dir.resolve("client-ca.crt");
        Files.writeString(bothCas, oldCa.pem() + newCa.pem()); // what a client trusts during the rotation
        try (ClientRings rings = new ClientRings()) {
            TlsRingTest.tls(rings.extra, files);
            rings.extra.put("god.tls.peer-san", "*.peers.god.test");
            rings.extra.put("god.tls.reload-interval", "100ms");
            rings.start(3);

            AtomicBoolean stop = new AtomicBoolean();
            AtomicInteger calls = new AtomicInteger();
            AtomicInteger failed = new AtomicInteger();
            AtomicReference<Throwable> firstFailure = new AtomicReference<>();
            Thread load;
            try (GodClient c = GodClient.builder().endpoints(rings.address(0)).ca(bothCas).build()) {
                load = new Thread(() -> {
                    for (int i = 0; !stop.get(); i++) {
                        try {
                            c.put(utf8("r" + (i % 200)), utf8("v" + i), true);
                            assertThat(new String(c.get(utf8("r" + (i % 200))).value())).isEqualTo("v" + i);
                            calls.incrementAndGet();
                        } catch (Throwable e) {
                            failed.incrementAndGet();
                            firstFailure.compareAndSet(null, e);
                        }
                    }
                }, "rotation-load");
                load.start();
                await().atMost(TimeScale.seconds(10)).until(() -> calls.get() > 20);

                // 1. the CA file becomes old + new: a peer certificate from the new CA is accepted
                TestPki.Issued newPeer = newCa.issue("node", TestPki.Use.PEER, List.of("node.peers.god.test"),
                        TlsRingTest.RING_IPS);
                Path newFiles = newPeer.write(dir.resolve("new"), true);
                TestPki.atomically(files.resolve("ca.crt"), oldCa.pem() + newCa.pem());
                await().atMost(TimeScale.seconds(10)).ignoreExceptions().untilAsserted(() -> {
                    for (int i = 0; i < 3; i++) {
                        assertThat(peerCall(rings.address(i), bothCas, newFiles)).hasSize(8);
                    }
                });

                // 2. certificate and key replaced (as cert-manager renews them): new connections see the new one
                BigInteger before = TestPki.served(rings.address(0), bothCas).getSerialNumber();
                TestPki.atomically(files.resolve("tls.key"), Files.readString(newFiles.resolve("tls.key")));
                TestPki.atomically(files.resolve("tls.crt"), Files.readString(newFiles.resolve("tls.crt")));
                await().atMost(TimeScale.seconds(10)).ignoreExceptions().untilAsserted(() -> {
                    for (int i = 0; i < 3; i++) {
                        assertThat(TestPki.served(rings.address(i), bothCas)).isEqualTo(newPeer.cert());
                    }
                });
                assertThat(before).isNotEqualTo(newPeer.cert().getSerialNumber());
                // a new member with the new certificate (and the bundle) joins: new peer connections both ways
                GodNode fourth = rings.startJoining(3);
                await().atMost(TimeScale.seconds(30)).until(rings::converged);
                assertThat(fourth.tls().certificate()).isEqualTo(newPeer.cert());
                int at = calls.get();
                await().atMost(TimeScale.seconds(10)).until(() -> calls.get() > at + 20);
                stop.set(true);
                load.join(TimeScale.seconds(10).toMillis());
            }
            assertThat(failed.get()).as("failed calls (first: %s)", firstFailure.get()).isZero();
            assertThat(calls.get()).isGreaterThan(40);
        }
    }

    /** A peer operation with the given peer certificate (a new connection): the node's network time. */
    private static byte[] peerCall(String address, Path ca, Path peerFiles) {
        try (GodClient asPeer = GodClient.builder().endpoints(address).gateway(true).ca(ca)
                .clientCertificate(peerFiles.resolve("tls.crt"), peerFiles.resolve("tls.key")).build()) {
            return asPeer.call(address, Ops.TIME, new byte[0], TimeScale.seconds(2));
        }
    }
}

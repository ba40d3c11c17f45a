package io.god.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.god.tls.TestPki;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * HTTP with god.tls.* alone (what the operator sets): the data-plane port serves HTTPS with the node's certificate
 * (the Quarkus TLS registry, mapped by {@link HttpTls}) and no plain HTTP; a renewed certificate is served without a
 * restart.
 */
@QuarkusTest
@TestProfile(HttpTlsTest.Tls.class)
class HttpTlsTest {

    static final Path FILES = Path.of("target", "http-tls");
    static final TestPki CA = TestPki.ca("http CA");

    /** The node with god.tls.cert-file, key-file and ca-file in cert-manager's layout (PKCS#1 key). */
    public static class Tls implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            try {
                CA.issue("node", TestPki.Use.PEER, List.of("localhost"), List.of("127.0.0.1"))
                        .write(FILES, true);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return Map.of("god.tls.cert-file", FILES.resolve("tls.crt").toAbsolutePath().toString(),
                    "god.tls.key-file", FILES.resolve("tls.key").toAbsolutePath().toString(),
                    "god.tls.ca-file", FILES.resolve("ca.crt").toAbsolutePath().toString(),
                    "god.tls.reload-interval", "2s");
        }
    }

    @TestHTTPResource(value = "health/live", management = true)
    URL live;

    @TestHTTPResource(value = "/", tls = true)
    URL https;

    @Test
    void dataPlaneServesHttpsOnly() throws Exception {
        assertThat(https.getProtocol()).isEqualTo("https");
        HttpClient client = HttpClient.newBuilder().connectTimeout(io.god.testing.TimeScale.seconds(10))
                .sslContext(io.god.tls.Jsse.clientContext(FILES.resolve("ca.crt"), null, null)).build();
        URI openapi = URI.create("https://localhost:" + https.getPort() + "/q/openapi");
        HttpResponse<String> r = client.send(HttpRequest.newBuilder(openapi).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).contains("god node /v1 API");
        assertThat(TestPki.served("127.0.0.1:" + https.getPort(), FILES.resolve("ca.crt")).getSubjectX500Principal()
                .getName()).isEqualTo("CN=node");
        // a renewed certificate (the reload period follows god.tls.reload-interval): new connections get it
        TestPki.Issued renewed = CA.issue("renewed node", TestPki.Use.PEER, List.of("localhost"), List.of("127.0.0.1"));
        Path next = renewed.write(FILES.resolveSibling("http-tls-renewed"), true);
        TestPki.atomically(FILES.resolve("tls.key"), java.nio.file.Files.readString(next.resolve("tls.key")));
        TestPki.atomically(FILES.resolve("tls.crt"), java.nio.file.Files.readString(next.resolve("tls.crt")));
        org.awaitility.Awaitility.await().atMost(io.god.testing.TimeScale.seconds(20)).ignoreExceptions().until(() ->
                TestPki.served("127.0.0.1:" + https.getPort(), FILES.resolve("ca.crt")).equals(renewed.cert()));
        assertThat(client.send(HttpRequest.newBuilder(openapi).build(), HttpResponse.BodyHandlers.ofString())
                .statusCode()).isEqualTo(200);
        // plain HTTP on the same port: refused; the management port stays plain HTTP (probes, metrics)
        HttpResponse<String> health = HttpClient.newHttpClient().send(HttpRequest.newBuilder(live.toURI())
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(live.getProtocol()).isEqualTo("http");
        assertThat(health.statusCode()).isEqualTo(200);
        URI plain = URI.create("http://localhost:" + https.getPort() + "/q/openapi");
        assertThatThrownBy(() -> {
            HttpResponse<String> p = HttpClient.newHttpClient().send(HttpRequest.newBuilder(plain)
                    .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(p.statusCode()).isNotEqualTo(200); // some servers answer 400 in plain text instead
            throw new IOException("answered " + p.statusCode());
        }).isInstanceOf(IOException.class);
    }
}

package io.god.bench.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The generator's parsing, key distributions, report and HTTP client; no timing assertions. */
class LoadGenTest {

    @Test
    void opMixParsesWeightsAndDrawsInProportion() {
        OpMix mix = OpMix.parse("put=3, get=1,slice=0");
        assertThat(mix.ops()).containsExactly(OpMix.Op.PUT, OpMix.Op.GET);
        assertThat(mix).hasToString("put=3,get=1");
        SplittableRandom r = new SplittableRandom(1);
        int puts = 0;
        for (int i = 0; i < 100_000; i++) {
            if (mix.next(r) == OpMix.Op.PUT) {
                puts++;
            }
        }
        assertThat(puts / 100_000.0).isCloseTo(0.75, within(0.01));
    }

    @Test
    void opMixRejectsBadSpecsWithAMessage() {
        assertThatThrownBy(() -> OpMix.parse("put")).hasMessageContaining("not op=weight");
        assertThatThrownBy(() -> OpMix.parse("scan=1")).hasMessageContaining("unknown op 'scan'");
        assertThatThrownBy(() -> OpMix.parse("put=x")).hasMessageContaining("not a whole number");
        assertThatThrownBy(() -> OpMix.parse("put=-1")).hasMessageContaining("negative");
        assertThatThrownBy(() -> OpMix.parse("put=1,put=2")).hasMessageContaining("twice");
        assertThatThrownBy(() -> OpMix.parse("put=0")).hasMessageContaining("every weight");
        assertThatThrownBy(() -> OpMix.parse(" ")).hasMessageContaining("empty");
    }

    /** Runs the command line, returning its exit code and what it printed to stderr. */
    private static String[] run(String... args) {
        java.io.StringWriter err = new java.io.StringWriter();
        int code = new picocli.CommandLine(new LoadGen()).setCaseInsensitiveEnumValuesAllowed(true).setErr(new java.io.PrintWriter(err)).execute(args);
        return new String[] {String.valueOf(code), err.toString()};
    }

    @Test
    void badOptionsAreRefusedWithAMessageBeforeAnyCall() {
        String[] base = {"--target", "binary", "--endpoints", "127.0.0.1:1"};
        for (String[] bad : new String[][] {{"--connections", "-1", "--connections must be 0..64"},
                {"--redundancy", "0", "--redundancy must be 1..64"}, {"--keys", "0", "--keys must be at least 1"},
                {"-c", "0", "--concurrency must be 1..4096"}}) {
            String[] args = java.util.stream.Stream.concat(java.util.Arrays.stream(base),
                    java.util.stream.Stream.of(bad[0], bad[1])).toArray(String[]::new);
            String[] out = run(args);
            assertThat(out[0]).as("exit code for %s %s", bad[0], bad[1]).isEqualTo("2");
            assertThat(out[1]).contains(bad[2]);
        }
    }

    @Test
    void keysAreSixteenBytesOrderedOrHashed() {
        KeySpace ordered = new KeySpace(1000, KeySpace.Distribution.UNIFORM, 0.99, false);
        KeySpace hashed = new KeySpace(1000, KeySpace.Distribution.UNIFORM, 0.99, true);
        assertThat(new String(ordered.key(42), StandardCharsets.US_ASCII)).isEqualTo("k000000000000042");
        assertThat(new String(KeySpace.ordered(123_456_789_012_345L), StandardCharsets.US_ASCII))
                .isEqualTo("k123456789012345");
        assertThat(hashed.key(42)).hasSize(16).isNotEqualTo(ordered.key(42)).isEqualTo(hashed.key(42));
        Set<String> distinct = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            distinct.add(java.util.HexFormat.of().formatHex(hashed.key(i)));
        }
        assertThat(distinct).hasSize(1000);
        assertThatThrownBy(() -> KeySpace.ordered(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void zipfFollowsItsLawAndUniformIsFlat() {
        int n = 1000;
        double theta = 0.99;
        KeySpace zipf = new KeySpace(n, KeySpace.Distribution.ZIPF, theta, true);
        KeySpace uniform = new KeySpace(n, KeySpace.Distribution.UNIFORM, theta, true);
        SplittableRandom r = new SplittableRandom(7);
        int draws = 400_000;
        long[] z = new long[n];
        long[] u = new long[n];
        for (int i = 0; i < draws; i++) {
            z[(int) zipf.next(r)]++;
            u[(int) uniform.next(r)]++;
        }
        double zeta = KeySpace.Zipf.zeta(n, theta);
        // ranks 0 and 1 are exact in Gray's method; later ranks follow the law approximately
        assertThat(z[0] / (double) draws).isCloseTo(1 / zeta, within(0.01));
        assertThat(z[1] / (double) draws).isCloseTo(1 / Math.pow(2, theta) / zeta, within(0.01));
        assertThat(z[0]).isGreaterThan(z[9] * 5);
        assertThat(z[9]).isGreaterThan(z[n - 1]);
        long top10 = 0;
        for (int i = 0; i < 10; i++) {
            top10 += u[i];
        }
        assertThat(top10 / (double) draws).isCloseTo(0.01, within(0.002));
        assertThatThrownBy(() -> new KeySpace(10, KeySpace.Distribution.ZIPF, 1.0, true))
                .hasMessageContaining("theta");
        assertThatThrownBy(() -> new KeySpace(0, KeySpace.Distribution.UNIFORM, 0.5, true))
                .hasMessageContaining("at least 1");
    }

    @Test
    void reportMergesWorkersAndPrintsTextAndJson() throws Exception {
        Report report = new Report().setting("target", "test");
        Report.Part a = new Report.Part();
        Report.Part b = new Report.Part();
        for (int i = 1; i <= 1000; i++) {
            a.ok(i * 1000L); // 1..1000 µs
        }
        b.ok(5_000_000L);
        b.error(new IllegalStateException("boom"));
        report.add(OpMix.Op.GET, a);
        report.add(OpMix.Op.GET, b);
        report.seconds(2);

        assertThat(report.count(OpMix.Op.GET)).isEqualTo(1001);
        assertThat(report.errors(OpMix.Op.GET)).isEqualTo(1);
        assertThat(report.opsPerSecond(OpMix.Op.GET)).isEqualTo(500.5);
        assertThat(report.micros(OpMix.Op.GET, 50)).isCloseTo(501, within(2.0));
        assertThat(report.micros(OpMix.Op.GET, 99.9)).isCloseTo(1000, within(2.0));
        assertThat(report.text()).contains("target: test", "get", "IllegalStateException: boom");

        JsonNode json = new ObjectMapper().readTree(report.json());
        assertThat(json.path("ops").path("get").path("count").asLong()).isEqualTo(1001);
        assertThat(json.path("ops").path("get").path("errors").asLong()).isEqualTo(1);
        assertThat(json.path("ops").path("get").path("opsPerSecond").asLong()).isEqualTo(501);
        assertThat(json.path("ops").path("get").path("maxUs").asDouble()).isCloseTo(5000, within(5.0));
        assertThat(json.path("settings").path("target").asText()).isEqualTo("test");
    }

    @Test
    void httpConnectionReadsLengthAndChunkedAnswersOnOneConnection() throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/len", x -> answer(x, 200, "{\"Exists\":true}", false));
        server.createContext("/chunked", x -> answer(x, 200, "[{\"Key\":\"YQ==\"},{\"Key\":\"Yg==\"}]", true));
        server.createContext("/bad", x -> answer(x, 400, "\"bad request\"", false));
        server.start();
        try (HttpConnection c = new HttpConnection("127.0.0.1:" + server.getAddress().getPort(), null)) {
            HttpConnection.Response r = c.post("/len", "{}".getBytes(StandardCharsets.UTF_8));
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.text()).isEqualTo("{\"Exists\":true}");
            HttpConnection.Response chunked = c.post("/chunked", "{}".getBytes(StandardCharsets.UTF_8));
            assertThat(HttpTarget.count(chunked.text(), "\"Key\"")).isEqualTo(2);
            assertThat(c.post("/bad", new byte[0]).status()).isEqualTo(400);
        } finally {
            server.stop(0);
        }
    }

    private static void answer(com.sun.net.httpserver.HttpExchange x, int status, String body, boolean chunked)
            throws IOException {
        x.getRequestBody().readAllBytes();
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        x.sendResponseHeaders(status, chunked ? 0 : b.length);
        try (OutputStream out = x.getResponseBody()) {
            out.write(b);
        }
    }
}

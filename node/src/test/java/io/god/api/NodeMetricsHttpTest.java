package io.god.api;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.net.URL;
import io.god.testing.TimeScale;
import io.restassured.RestAssured;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * {@code /q/metrics} of the Quarkus node: small (fixed latency buckets, a bounded number of series
 * after one call of every method) and moving with the requests, their refusals and the ring.
 */
@QuarkusTest
@TestProfile(NodeMetricsHttpTest.FreshNode.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class NodeMetricsHttpTest extends RpcTestSupport {

    /**
     * A node of its own: the series bound is about one call of each method, not about the routes the
     * other tests of a shared test application called before (their HTTP timers stay registered).
     */
    public static class FreshNode implements QuarkusTestProfile {
    }

    /** The bound on series after one call of each method (issue 37). */
    static final int MAX_SERIES = 400;

    @TestHTTPResource(value = "metrics", management = true)
    URL metrics;

    String scrape() {
        return given().header("Authorization", BEARER).get(metrics).then().statusCode(200).extract().asString();
    }

    /** Sample lines (not comments) of a scrape. */
    static List<String> series(String text) {
        return text.lines().filter(l -> !l.isBlank() && !l.startsWith("#")).toList();
    }

    /** One series' value ({@code name{tags}} without the trailing comma the text format may print), or NaN. */
    /** Series per metric family, largest first (the failure message). */
    static String families(List<String> series) {
        var counts = new java.util.TreeMap<String, Integer>();
        series.forEach(l -> counts.merge(l.replaceAll("[{ ].*", "").replaceAll("_(bucket|count|sum|max|total)$", ""), 1,
                Integer::sum));
        return counts.entrySet().stream().sorted(java.util.Map.Entry.<String, Integer>comparingByValue().reversed())
                .map(e -> e.getKey() + "=" + e.getValue()).toList().toString();
    }

    static double value(String text, String series) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(series) + " (\\S+)$").matcher(text.replace(",}", "}"));
        return m.find() ? Double.parseDouble(m.group(1)) : Double.NaN;
    }

    @Test
    @Order(1)
    void afterOneCallOfEachMethodTheScrapeStaysSmall() {
        for (String method : JsonRpc.METHODS) {
            post(method, "{}"); // many answer 400 (no key): one outcome each, what a real client would cause
        }
        post("Nope", "{}");
        given().header("Authorization", BEARER).body("v").put("/v1/keys/metrics-series-key").then().statusCode(204);
        String text = scrape();
        List<String> series = series(text);
        List<String> http = series.stream().filter(l -> l.startsWith("http_server_requests_seconds")).toList();
        assertThat(http).as("one HTTP timer for every /rpc method").noneMatch(l -> l.contains("uri=\"/rpc/DHash.Get\""))
                .anyMatch(l -> l.contains("uri=\"/rpc/DHash.{method}\""));
        assertThat(series.size()).as("series in /q/metrics after one call of each method; by family: %s",
                families(series)).isLessThanOrEqualTo(MAX_SERIES);
        assertThat(http).as("HTTP series carry route templates, never a key").noneMatch(
                l -> l.matches(".*uri=\"/v1/(keys|trees)/[^{\"]+\".*"));
        // request latency: a fixed set of at most 10 buckets (with +Inf) per kind, no per-method histogram
        assertThat(series.stream().filter(l -> l.startsWith("god_rpc_latency_seconds_bucket{kind=\"read\"")))
                .hasSizeBetween(2, 10);
        assertThat(series.stream().filter(l -> l.startsWith("god_rpc_seconds"))).isEmpty(); // no per-method timer
        assertThat(text).contains("god_rpc_requests_total{method=\"Get\"");
    }

    @Test
    void requestsRefusalsAndDataMoveTheirMetrics() {
        String before = scrape();
        double puts = orZero(value(before, "god_rpc_requests_total{method=\"Put\",outcome=\"ok\"}"));
        double writes = orZero(value(before, "god_rpc_latency_seconds_count{kind=\"write\"}"));
        double refused = orZero(value(before, "god_limit_refusals_total{limit=\"god.limits.json-depth\"}"));
        double entries = value(before, "god_tree_entries");
        double tombstones = value(before, "god_tree_tombstone_markers");

        call("Put", "{\"Key\":\"" + s("metrics-put") + "\",\"Value\":\"" + s("v") + "\"}");
        call("Put", "{\"Key\":\"" + s("metrics-del") + "\",\"Value\":\"" + s("v") + "\"}");
        call("Del", "{\"Key\":\"" + s("metrics-del") + "\"}");
        String nested = "[".repeat(300) + "]".repeat(300);
        assertThat(post("Get", "{\"Other\":" + nested + "}").statusCode()).isEqualTo(400);

        String after = scrape();
        assertThat(value(after, "god_rpc_requests_total{method=\"Put\",outcome=\"ok\"}")).isEqualTo(puts + 2);
        assertThat(value(after, "god_rpc_latency_seconds_count{kind=\"write\"}")).isEqualTo(writes + 3);
        assertThat(value(after, "god_limit_refusals_total{limit=\"god.limits.json-depth\"}")).isEqualTo(refused + 1);
        assertThat(value(after, "god_tree_entries")).isEqualTo(entries + 1);
        assertThat(value(after, "god_tree_tombstone_markers")).isEqualTo(tombstones + 1);
        // a one-node ring in memory: live, ACTIVE, replicated, nothing queued, not catching up
        assertThat(value(after, "god_ring_members{state=\"live\"}")).isEqualTo(1);
        assertThat(value(after, "god_node_state{state=\"ACTIVE\"}")).isEqualTo(1);
        assertThat(value(after, "god_replicated")).isEqualTo(1);
        assertThat(value(after, "god_catching_up")).isZero();
        assertThat(value(after, "god_replication_queue")).isZero();
        assertThat(value(after, "god_bulkhead_rejections_total")).isZero();
        assertThat(value(after, "god_loops_dead")).isZero();
    }

    @jakarta.inject.Inject
    NodeBean bean;

    static HttpResponse<String> v1(String method, String path, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://localhost:" + RestAssured.port + "/v1/" + path))
                .header("Authorization", BEARER).header("Content-Type", "application/octet-stream");
        b = body == null ? b.method(method, HttpRequest.BodyPublishers.noBody())
                : b.method(method, HttpRequest.BodyPublishers.ofString(body));
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void refusalsOnV1AndRpcAreCounted() throws Exception {
        String[] limits = {"god.limits.body-size", "god.limits.key-size", "god.limits.value-size", "god.limits.json-depth"};
        String before = scrape();
        Map<String, Double> was = new java.util.HashMap<>();
        for (String l : limits) {
            was.put(l, orZero(value(before, "god_limit_refusals_total{limit=\"" + l + "\"}")));
        }
        double busy = orZero(value(before, "god_bulkhead_rejections_total"));
        String big = "A".repeat(20_000); // over god.limits.body-size (16K in tests)
        String bigValue = "A".repeat(8_000); // over god.limits.value-size (4K), under the body limit

        // /rpc: body-size (the HTTP body limit), value-size
        assertThat(post("Put", "{\"Key\":\"" + s("k") + "\",\"Value\":\"" + big + "\"}").statusCode()).isEqualTo(400);
        assertThat(post("Put", "{\"Key\":\"" + s("k") + "\",\"Value\":\"" + bigValue + "\"}").statusCode()).isEqualTo(400);
        // /v1: body-size, value-size, key-size, json-depth
        assertThat(v1("PUT", "keys/refused", big).statusCode()).isEqualTo(400);
        assertThat(v1("PUT", "keys/refused", "x".repeat(5_000)).statusCode()).isEqualTo(400);
        assertThat(v1("PUT", "keys/" + "k".repeat(2_000), "v").statusCode()).isEqualTo(400);
        HttpResponse<String> deep = HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + RestAssured.port
                + "/v1/setops")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"expr\":" + "[".repeat(300) + "]".repeat(300) + "}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(deep.statusCode()).as(deep.body()).isEqualTo(400);
        assertThat(deep.body()).contains("god.limits.json-depth");
        // /v1: the bulkhead full (expensive-running 2 + expensive-queue 8 held here) → 503
        io.god.limits.Bulkhead bulkhead = bean.rpc().bulkhead();
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        var pool = java.util.concurrent.Executors.newFixedThreadPool(10);
        try {
            for (int i = 0; i < 10; i++) {
                pool.submit(() -> bulkhead.run(() -> {
                    try {
                        return release.await(TimeScale.seconds(60).toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
                    } catch (InterruptedException e) {
                        return false;
                    }
                }));
            }
            org.awaitility.Awaitility.await().atMost(TimeScale.seconds(20)).until(() -> bulkhead.admitted() == 10);
            HttpResponse<String> full = HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + RestAssured.port
                    + "/v1/setops")).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"expr\":\"(U refused)\"}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(full.statusCode()).as(full.body()).isEqualTo(503);
            assertThat(full.headers().firstValue("Retry-After")).hasValue("1");
            // a slice by position of at most 1024 rows (ZRANGE key 0 99) is not expensive: still served; wider or
            // unbounded slices wait for the bulkhead like set expressions
            assertThat(post("SliceIndex", "{\"Key\":\"" + s("k") + "\",\"MinIndex\":0,\"MaxIndex\":99}").statusCode())
                    .isEqualTo(200);
            assertThat(post("MirrorReverseSliceIndex", "{\"Key\":\"" + s("k") + "\",\"MinIndex\":-10,\"MaxIndex\":-1}")
                    .statusCode()).isEqualTo(200);
            assertThat(post("SliceIndex", "{\"Key\":\"" + s("k") + "\",\"MinIndex\":0,\"MaxIndex\":1024}").statusCode())
                    .isEqualTo(503);
            assertThat(post("SliceIndex", "{\"Key\":\"" + s("k") + "\",\"MinIndex\":0,\"MaxIndex\":-1}").statusCode())
                    .isEqualTo(503);
            assertThat(post("Slice", "{\"Key\":\"" + s("k") + "\"}").statusCode()).isEqualTo(503);
        } finally {
            release.countDown();
            pool.shutdown();
            assertThat(pool.awaitTermination(TimeScale.seconds(20).toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)).isTrue();
        }

        String after = scrape();
        assertThat(value(after, "god_limit_refusals_total{limit=\"god.limits.body-size\"}"))
                .isEqualTo(was.get("god.limits.body-size") + 2);
        assertThat(value(after, "god_limit_refusals_total{limit=\"god.limits.value-size\"}"))
                .isEqualTo(was.get("god.limits.value-size") + 2);
        assertThat(value(after, "god_limit_refusals_total{limit=\"god.limits.key-size\"}"))
                .isEqualTo(was.get("god.limits.key-size") + 1);
        assertThat(value(after, "god_limit_refusals_total{limit=\"god.limits.json-depth\"}"))
                .isEqualTo(was.get("god.limits.json-depth") + 1);
        assertThat(value(after, "god_bulkhead_rejections_total")).isEqualTo(busy + 4);
        // nothing was written by the refused calls
        assertThat(v1("GET", "keys/refused", null).statusCode()).isEqualTo(404);
    }

    private static double orZero(double v) {
        return Double.isNaN(v) ? 0 : v;
    }
}

package io.god.api;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URL;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code /q/metrics} of the Quarkus node: small (fixed latency buckets, a bounded number of series
 * after one call of every method) and moving with the requests, their refusals and the ring.
 */
@QuarkusTest
class NodeMetricsHttpTest extends RpcTestSupport {

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
    void afterOneCallOfEachMethodTheScrapeStaysSmall() {
        for (String method : JsonRpc.METHODS) {
            post(method, "{}"); // many answer 400 (no key): one outcome each, what a real client would cause
        }
        post("Nope", "{}");
        given().header("Authorization", BEARER).body("v").put("/v1/keys/metrics-series-key").then().statusCode(204);
        String text = scrape();
        List<String> all = series(text);
        // Quarkus' per-route HTTP series grow with the routes the other tests of this shared test app called
        // before this one (a fixed set of templates, never per key): bounded apart, not in the node's budget
        List<String> http = all.stream().filter(l -> l.startsWith("http_server_requests_seconds")).toList();
        List<String> series = all.stream().filter(l -> !http.contains(l)).toList();
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

    private static double orZero(double v) {
        return Double.isNaN(v) ? 0 : v;
    }
}

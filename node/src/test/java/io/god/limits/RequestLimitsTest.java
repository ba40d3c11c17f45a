package io.god.limits;

import static io.god.limits.LimitServer.b64;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.god.time.NanoClock;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Each request limit over HTTP (the god JSON contract): a 400 naming the limit's key, nothing
 * changed; the bulkhead's 503 with Retry-After.
 */
class RequestLimitsTest {

    /** A clock the test can slow down (every reading moves it on) or hold (readings on HTTP workers wait). */
    static final class TestClock implements NanoClock {
        final AtomicLong now = new AtomicLong(1_700_000_000_000_000_000L);
        volatile long stepPerReading;
        volatile CountDownLatch hold;
        final CountDownLatch held = new CountDownLatch(1);

        @Override
        public long nanos() {
            CountDownLatch h = hold;
            if (h != null && Thread.currentThread().getName().startsWith("vert.x-worker")) {
                held.countDown();
                try {
                    h.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return now.addAndGet(1 + stepPerReading);
        }
    }

    private static void put(LimitServer s, String tree, String key, String value) throws Exception {
        assertThat(s.call("SubPut", "{\"Key\":\"" + b64(tree) + "\",\"SubKey\":\"" + b64(key) + "\",\"Value\":\""
                + b64(value) + "\"}").statusCode()).isEqualTo(200);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    private static long size(LimitServer s, String tree) throws Exception {
        return Long.parseLong(s.call("SubSize", "{\"Key\":\"" + b64(tree) + "\"}").body());
    }

    private static void refused(HttpResponse<String> r, String limit) {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
        assertThat(r.body()).contains(limit);
    }

    @Test
    void setExpressionSourcesAndDepthAreRefusedBeforeAnythingRuns() throws Exception {
        try (LimitServer s = new LimitServer(Map.of(Limits.SET_SOURCES, "5", Limits.SET_DEPTH, "3"),
                NanoClock.system())) {
            put(s, "a", "k", "v");
            String six = "(U a a a a a a)";
            refused(s.call("SetExpression", "{\"Code\":\"" + six + "\"}"), "god.limits.set-sources");
            refused(s.call("SetExpression", "{\"Code\":\"" + six + "\",\"Dest\":\"" + b64("d") + "\"}"),
                    "god.limits.set-sources");
            refused(s.call("SetExpression", "{\"Code\":\"(U (U a a a) (U a a a))\"}"), "god.limits.set-sources");
            StringBuilder op = new StringBuilder("{\"Sources\":[");
            for (int i = 0; i < 6; i++) {
                op.append(i == 0 ? "" : ",").append("{\"Key\":\"").append(b64("a")).append("\"}");
            }
            op.append("]}");
            refused(s.call("SetExpression", "{\"Op\":" + op + "}"), "god.limits.set-sources");
            refused(s.call("SetExpression", "{\"Code\":\"(U (U (U (U a))))\",\"Dest\":\"" + b64("d") + "\"}"),
                    "god.limits.set-depth");
            String deep = "{\"Sources\":[{\"SetOp\":{\"Sources\":[{\"SetOp\":{\"Sources\":[{\"SetOp\":"
                    + "{\"Sources\":[{\"Key\":\"" + b64("a") + "\"}]}}]}}]}}]}";
            refused(s.call("SetExpression", "{\"Op\":" + deep + "}"), "god.limits.set-depth");
            assertThat(size(s, "d")).isZero();
            // at the limits it runs
            HttpResponse<String> ok = s.call("SetExpression", "{\"Code\":\"(U a a (U a (U a a)))\"}");
            assertThat(ok.statusCode()).as(ok.body()).isEqualTo(200);
            assertThat(ok.body()).contains(b64("k"));
        }
    }

    @Test
    void resultsOverTheRowOrByteLimitAreRefusedNotTruncated() throws Exception {
        try (LimitServer s = new LimitServer(Map.of(Limits.RESULT_ROWS, "10", Limits.RESULT_BYTES, "200"),
                NanoClock.system())) {
            for (int i = 0; i < 11; i++) {
                put(s, "t", "k" + i, "v");
            }
            for (int i = 0; i < 5; i++) {
                put(s, "fat", "k" + i, "x".repeat(60));
            }
            String t = b64("t");
            String range = ",\"Min\":\"" + b64("k") + "\",\"MinInc\":true,\"Max\":\"" + b64("l") + "\"";
            for (String m : List.of("Slice", "ReverseSlice", "SliceIndex", "ReverseSliceIndex")) {
                refused(s.call(m, "{\"Key\":\"" + t + "\"" + range + "}"), "god.limits.result-rows");
            }
            refused(s.call("SliceLen", "{\"Key\":\"" + t + "\",\"Len\":1000}"), "god.limits.result-rows");
            refused(s.call("SetExpression", "{\"Code\":\"(U t)\"}"), "god.limits.result-rows");
            refused(s.call("SetExpression", "{\"Code\":\"(U:ConCat t)\",\"Dest\":\"" + b64("d") + "\"}"),
                    "god.limits.result-rows");
            refused(s.call("Slice", "{\"Key\":\"" + b64("fat") + "\"" + range + "}"), "god.limits.result-bytes");
            refused(s.call("SetExpression", "{\"Code\":\"(U:ConCat fat)\",\"Dest\":\"" + b64("d") + "\"}"),
                    "god.limits.result-bytes");
            assertThat(size(s, "d")).isZero();
            // within the limits: answered whole
            HttpResponse<String> ten = s.call("SliceLen", "{\"Key\":\"" + t + "\",\"Len\":10}");
            assertThat(ten.statusCode()).isEqualTo(200);
            assertThat(ten.body().split("\"Key\"")).hasSize(11);
            assertThat(s.call("SetExpression", "{\"Code\":\"(U:ConCat t)\",\"Len\":10,\"Dest\":\"" + b64("d") + "\"}")
                    .statusCode()).isEqualTo(200);
            assertThat(size(s, "d")).isEqualTo(10);
        }
    }

    @Test
    void evaluationOverItsTimeIsStoppedInsideTheSkippers() throws Exception {
        TestClock clock = new TestClock();
        try (LimitServer s = new LimitServer(Map.of(Limits.EVAL_TIME, "5ms"), clock)) {
            // (D a b) with equal sources: the difference skips through every key without one result
            for (int i = 0; i < 3000; i++) {
                for (String tree : List.of("a", "b")) {
                    s.node.store().apply(io.god.persist.Record.subPut(bytes(tree), bytes("k" + i), bytes("v"),
                            s.node.timestamps().next()));
                }
            }
            clock.stepPerReading = 1_000_000; // each clock reading: 1 ms later
            refused(s.call("SetExpression", "{\"Code\":\"(D:ConCat a b)\",\"Dest\":\"" + b64("d") + "\"}"),
                    "god.limits.eval-time");
            clock.stepPerReading = 0;
            assertThat(size(s, "d")).isZero();
            assertThat(s.call("SetExpression", "{\"Code\":\"(D a b)\"}").body()).isEqualTo("[]");
        }
    }

    @Test
    void jsonNestingAndStringLengthAreRefusedByTheParser() throws Exception {
        try (LimitServer s = new LimitServer(Map.of(Limits.JSON_DEPTH, "16", Limits.JSON_STRING, "100"),
                NanoClock.system())) {
            String nested = "[".repeat(20) + "]".repeat(20);
            refused(s.call("Get", "{\"Other\":" + nested + "}"), "god.limits.json-depth");
            refused(s.call("SetExpression", "{\"Code\":\"(U " + "a".repeat(200) + ")\"}"), "god.limits.json-string");
            // base64 values are decoded without becoming a string: god.limits.value-size bounds them
            refused(s.call("SetExpression", "{\"Code\":\"(U " + "a".repeat(200) + ")\",\"Dest\":\"" + b64("d")
                    + "\"}"), "god.limits.json-string");
            assertThat(s.call("SubSize", "{\"Key\":\"" + b64("d") + "\"}").body()).isEqualTo("0");
        }
    }

    @Test
    void aFullBulkheadAnswers503WithRetryAfterWhilePointReadsGoOn() throws Exception {
        TestClock clock = new TestClock();
        try (LimitServer s = new LimitServer(Map.of(Limits.EXPENSIVE_RUNNING, "1", Limits.EXPENSIVE_QUEUE, "0"),
                clock)) {
            put(s, "a", "k", "v");
            CountDownLatch release = new CountDownLatch(1);
            clock.hold = release; // the next expensive call waits inside its slot (at its budget's clock reading)
            CompletableFuture<HttpResponse<String>> first = CompletableFuture.supplyAsync(() -> {
                try {
                    return s.call("SetExpression", "{\"Code\":\"(U a)\"}");
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            try {
                assertThat(clock.held.await(20, TimeUnit.SECONDS)).isTrue();
                assertThat(s.meters.get("god.bulkhead.rejections").counter().count()).isZero();
                HttpResponse<String> busy = s.call("Slice", "{\"Key\":\"" + b64("a") + "\"}");
                assertThat(busy.statusCode()).as(busy.body()).isEqualTo(503);
                assertThat(s.meters.get("god.bulkhead.rejections").counter().count()).as("god_bulkhead_rejections_total")
                        .isEqualTo(1);
                assertThat(busy.headers().firstValue("Retry-After")).hasValue("1");
                assertThat(busy.body()).contains("god.limits.expensive-running");
                // a point read is no expensive call: answered meanwhile
                assertThat(s.call("Get", "{\"Key\":\"" + b64("x") + "\"}", Duration.ofSeconds(5)).statusCode())
                        .isEqualTo(200);
            } finally {
                clock.hold = null;
                release.countDown();
            }
            assertThat(first.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
            assertThat(s.call("Slice", "{\"Key\":\"" + b64("a") + "\"}").statusCode()).isEqualTo(200);
        }
    }
}

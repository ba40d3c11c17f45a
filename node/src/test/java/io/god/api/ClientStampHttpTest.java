package io.god.api;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URL;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * Issue 23 over HTTP: a client-chosen {@code Timestamp} on a write is refused with a 400 naming the
 * field; the zero value and {@code TTL} (which the original ignores) still work; the node's stamp is
 * its own time; /admin/status and /q/metrics show the clock bound's state.
 */
@QuarkusTest
class ClientStampHttpTest extends RpcTestSupport {

    @TestHTTPResource(value = "metrics", management = true)
    URL metrics;

    static long nowNanos() {
        Instant i = Instant.now();
        return i.getEpochSecond() * 1_000_000_000L + i.getNano();
    }

    @Test
    void aClientTimestampIsRefusedAndTheNodeStampsNow() throws Exception {
        String key = s("stamp-http");
        for (String ts : new String[] {"7258118400000000000", String.valueOf(Long.MAX_VALUE - 1), "-1", "\"soon\""}) {
            Response r = post("Put", "{\"Key\":\"" + key + "\",\"Value\":\"" + s("v") + "\",\"Timestamp\":" + ts + "}");
            assertThat(r.statusCode()).as(ts).isEqualTo(400);
            assertThat(JSON.readTree(r.asString()).asText())
                    .startsWith("Timestamp: a client may not choose the timestamp of DHash.Put")
                    .contains("omit Timestamp or send 0");
        }
        Response sub = post("SubPut", "{\"Key\":\"" + key + "\",\"SubKey\":\"" + s("a") + "\",\"Value\":\"" + s("1")
                + "\",\"TIMESTAMP\":1}");
        assertThat(sub.statusCode()).isEqualTo(400);
        assertThat(sub.asString()).contains("TIMESTAMP: a client may not choose the timestamp of DHash.SubPut");
        assertThat(call("Get", "{\"Key\":\"" + key + "\"}")).contains("\"Exists\":false");

        // what a Go client's zero values look like: accepted, Timestamp and TTL ignored as by the original
        long before = nowNanos();
        assertThat(call("Put", "{\"Key\":\"" + key + "\",\"Value\":\"" + s("v") + "\",\"Timestamp\":0,\"TTL\":5}"))
                .isEqualTo("{}");
        JsonNode got = json("Get", "{\"Key\":\"" + key + "\",\"Stamped\":true}");
        long stamp = got.get("Timestamp").asLong();
        assertThat(stamp).as("stamped by the node, about now")
                .isBetween(before - Duration.ofMinutes(1).toNanos(), nowNanos() + Duration.ofMinutes(1).toNanos());
        // a read with a Timestamp field is not a write: ignored
        assertThat(call("Get", "{\"Key\":\"" + key + "\",\"Timestamp\":5}")).contains("\"Exists\":true");

        URL status = new URL(metrics, "/admin/status");
        JsonNode n = JSON.readTree(given().header("Authorization", BEARER).get(status).then().statusCode(200)
                .extract().asString());
        assertThat(n.has("futureStamps")).isTrue();
        assertThat(n.get("futureStamps").isNull()).as("in memory: nothing from the future").isTrue();
        assertThat(n.get("timeClamps").asLong()).isZero();
        String text = given().header("Authorization", BEARER).get(metrics).then().statusCode(200).extract().asString();
        assertThat(text).contains("god_time_clamps_total ");
    }
}

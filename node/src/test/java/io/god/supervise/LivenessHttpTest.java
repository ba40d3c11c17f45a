package io.god.supervise;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.god.api.NodeBean;
import io.god.testing.TimeScale;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.net.URL;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Supervised loops seen through {@code /q/health/live} on the management port of the Quarkus node:
 * a long anti-entropy round that reports progress keeps it UP however long it runs on the node's
 * clock; one that stops reporting, or a loop whose thread is gone, turns it DOWN with the loop's name
 * in the check's data.
 */
@QuarkusTest
@TestProfile(LivenessHttpTest.Loops.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LivenessHttpTest {

    /** The node on {@link LoopRuntime} (jumping clock, reachable loop executors), with fast loops. */
    public static class Loops implements QuarkusTestProfile {
        @Override
        public Set<Class<?>> getEnabledAlternatives() {
            return Set.of(LoopRuntime.class);
        }

        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("god.gc.interval", "50ms", "god.ring.interval", "50ms", "god.sync.interval", "50ms");
        }
    }

    @TestHTTPResource(value = "health/live", management = true)
    URL live;

    @Inject
    LoopRuntime runtime;

    @Inject
    NodeBean bean;

    private Heartbeat loop(String name) {
        return bean.node().supervisor().loops().stream().filter(h -> h.name().equals(name)).findFirst().orElseThrow();
    }

    /**
     * Waits until the loops other than {@code except} have started an iteration since now, so a probe
     * after a clock jump sees them alive and judges only the loop under test.
     */
    private void othersTicked(String except) {
        Map<String, Long> before = new java.util.HashMap<>();
        bean.node().supervisor().loops().forEach(h -> before.put(h.name(), h.beats()));
        await().atMost(TimeScale.seconds(10)).until(() -> bean.node().supervisor().loops().stream()
                .filter(h -> !h.name().equals(except)).allMatch(h -> h.beats() > before.get(h.name())));
    }

    private Response probe() {
        return given().get(live).then().extract().response();
    }

    private void assertUp(String when) {
        Response r = probe();
        assertThat(r.statusCode()).as(when + ": " + r.asString()).isEqualTo(200);
        assertThat(r.jsonPath().getString("status")).isEqualTo("UP");
    }

    @Test
    @Order(1)
    void aLongRoundThatReportsProgressKeepsLivenessUpAndOneThatStallsTurnsItDown() throws Exception {
        assertThat(bean.node().supervisor().loops()).extracting(Heartbeat::name)
                .contains("ring", "tombstone-gc", "sync");
        assertUp("at start");
        Heartbeat sync = loop("sync");
        // the long round occupies the sync loop's only thread: no iteration starts while it runs; it does
        // what the test hands it (report progress, or nothing) on that thread
        BlockingQueue<Runnable> steps = new LinkedBlockingQueue<>();
        Runnable end = () -> { };
        CompletableFuture<Void> round = new CompletableFuture<>();
        runtime.loop("god-sync-").execute(() -> {
            try {
                for (Runnable step = steps.take(); step != end; step = steps.take()) {
                    step.run();
                }
                round.complete(null);
            } catch (InterruptedException e) {
                round.completeExceptionally(e);
            }
        });
        try {
            for (int i = 1; i <= 6; i++) { // 3 minutes on the node's clock: a region exchanged every 30 s
                FutureTask<Void> region = new FutureTask<>(() -> {
                    runtime.advance(Duration.ofSeconds(30));
                    sync.progress();
                    return null;
                });
                steps.add(region);
                region.get(TimeScale.seconds(10).toMillis(), TimeUnit.MILLISECONDS);
                othersTicked("sync");
                assertUp("after " + i * 30 + " s of one round reporting progress");
            }
            // the round stalls: more than max(5 intervals, 60 s) without progress
            runtime.advance(Duration.ofSeconds(61));
            othersTicked("sync");
            Response down = probe();
            assertThat(down.statusCode()).as(down.asString()).isEqualTo(503);
            assertThat(down.jsonPath().getString("status")).isEqualTo("DOWN");
            assertThat(down.jsonPath().getString("checks.find { it.name == 'god-loops' }.data.dead"))
                    .startsWith("sync: no iteration or progress for");
        } finally {
            steps.add(end);
        }
        round.get(TimeScale.seconds(10).toMillis(), TimeUnit.MILLISECONDS);
        await().atMost(TimeScale.seconds(10)).untilAsserted(() -> assertUp("once the sync loop iterates again"));
    }

    @Test
    @Order(2)
    void aLoopWhoseThreadIsGoneTurnsLivenessDownNamingIt() {
        assertUp("before");
        runtime.loop("god-gc-").shutdownNow(); // the tombstone collection loop's thread ends
        await().atMost(TimeScale.seconds(10)).untilAsserted(() -> {
            Response r = probe();
            assertThat(r.statusCode()).as(r.asString()).isEqualTo(503);
            assertThat(r.jsonPath().getString("status")).isEqualTo("DOWN");
            assertThat(r.jsonPath().getString("checks.find { it.name == 'god-loops' }.data.dead"))
                    .startsWith("tombstone-gc: thread god-gc-").endsWith(" is gone");
        });
    }
}

package io.god.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.god.api.web.DashboardRoutes;
import io.god.api.ws.EventStream;
import io.god.cluster.Rings;
import io.god.node.GodNode;
import io.god.testing.ScaledTimeout;
import io.god.testing.TimeScale;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.StaticHandler;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The dashboard of one node of a 3-node ring in a real browser, each node serving HTTP on a port that has nothing to
 * do with its binary port (as {@code bin/god-ring} does): every row of the node table fills in, the peers' from their
 * event feeds relayed by the page's node ({@code /ws/peer}) over the binary protocol ({@code Ops.EVENTS}) — the peers
 * serve no {@code /ws} at all — so the browser talks to that one node only, as through a port-forward. Skipped only
 * where {@code /usr/bin/chromium} is missing outside CI.
 */
@ScaledTimeout(120)
class DashboardRingBrowserTest {

    @Test
    void everyRowOfA3NodeRingFillsIn() throws Exception {
        boolean ci = "true".equals(System.getenv("CI"));
        if (!Files.isExecutable(Path.of(DashboardBrowserTest.CHROMIUM))) {
            assertThat(ci).as("CI=true but chromium is missing").isFalse();
            Assumptions.abort("no chromium here (outside CI): browser test skipped");
        }
        Vertx vertx = Vertx.vertx();
        List<HttpServer> servers = new ArrayList<>();
        try (Rings rings = new Rings()) {
            for (int i = 0; i < 3; i++) {
                GodNode node = rings.start(i, null, rings.address(0));
                JsonRpc rpc = new JsonRpc(node);
                Router router = Router.router(vertx);
                if (i > 0) {
                    // the peers are out of the browser's reach (as pods behind a port-forward of node 0 are): any
                    // request a browser makes (it sends Origin) is refused; node 0's relay sends none
                    router.route().order(-1).handler(ctx -> {
                        if (ctx.request().getHeader("Origin") != null) {
                            ctx.response().setStatusCode(403).end();
                        } else {
                            ctx.next();
                        }
                    });
                }
                if (i == 0) {
                    EventStream.mount(router, vertx, () -> rpc, 500);
                } else {
                    // the peers serve no /ws: their rows can only come over the binary port (Ops.EVENTS)
                    new EventStream(vertx, node.events(), rpc, 500).serveFeed();
                }
                DashboardRoutes.mount(router, vertx, () -> node);
                RpcRoutes.mount(router, () -> rpc, node.settings().bodySize());
                router.route().handler(StaticHandler.create("META-INF/resources"));
                DashboardPeersTest.serve(vertx, router, i, node, servers);
            }
            await().atMost(TimeScale.seconds(30)).until(() -> rings.converged()
                    && rings.nodes.get(0).membership().ring().size() == 3);

            System.setProperty("webdriver.chrome.driver", DashboardBrowserTest.CHROMEDRIVER);
            Path profile = Files.createTempDirectory("god-chromium");
            ChromeOptions options = new ChromeOptions();
            options.setBinary(DashboardBrowserTest.CHROMIUM);
            options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                    "--disable-background-networking", "--disable-component-update", "--disable-sync",
                    "--disable-dev-shm-usage", "--window-size=1500,1100", "--user-data-dir=" + profile);
            ChromeDriverService service = new ChromeDriverService.Builder()
                    .usingDriverExecutable(new File(DashboardBrowserTest.CHROMEDRIVER)).usingAnyFreePort().build();
            WebDriver driver = new ChromeDriver(service, options);
            try {
                WebDriverWait wait = new WebDriverWait(driver, TimeScale.seconds(30));
                driver.get("http://127.0.0.2:" + servers.get(0).actualPort() + "/");
                // three rows, each with its node's owned/held entries (not "–"): the peers' come from their /ws
                wait.until(d -> {
                    List<List<String>> rows = rows(d);
                    return rows.size() == 3 && rows.stream().allMatch(r -> !r.get(2).equals("–"));
                });
                String table = driver.findElement(By.id("nodes")).getText();
                for (int i = 0; i < 3; i++) {
                    assertThat(table).contains(rings.address(i));
                }

                // traffic for the picture in docs/api.md (docs/dashboard.png is this screenshot): Sync writes
                // through node 0, whose forwards and replication show as lines between the members
                try (io.god.client.GodClient client = io.god.client.GodClient.builder().endpoints(rings.address(0))
                        .build()) {
                    for (int k = 0; k < 40; k++) {
                        client.put(io.god.client.GodClient.utf8("user:" + k), io.god.client.GodClient.utf8("v" + k), true);
                    }
                }
                wait.until(d -> d.findElement(By.id("events")).getText().contains("DHash"));
                wait.until(d -> rows(d).stream().allMatch(r -> r.get(3).equals("40"))); // N=3: each holds every key
                byte[] png = ((TakesScreenshot) driver).getScreenshotAs(OutputType.BYTES);
                Files.createDirectories(Path.of("target"));
                Files.write(Path.of("target", "dashboard-ring.png"), png);

                // a member that stops: its row loses its figures once its /ws closes (the others keep theirs)
                rings.nodes.get(2).close();
                servers.get(2).close().toCompletionStage().toCompletableFuture()
                        .get(TimeScale.seconds(10).toMillis(), TimeUnit.MILLISECONDS);
                String gone = rings.address(2);
                wait.until(d -> rows(d).stream().noneMatch(r -> r.get(0).equals(gone) && !r.get(2).equals("–")));
                assertThat(rows(driver)).filteredOn(r -> !r.get(0).equals(gone)).hasSize(2)
                        .allSatisfy(r -> assertThat(r.get(2)).isNotEqualTo("–"));
                Object errors = ((JavascriptExecutor) driver).executeScript("return window.__errors || null;");
                assertThat(errors).isNull();
            } finally {
                driver.quit();
                service.stop();
            }
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(TimeScale.seconds(10).toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /** The node table's cells, read at once (the page redraws it every second). */
    @SuppressWarnings("unchecked")
    private static List<List<String>> rows(WebDriver d) {
        return (List<List<String>>) ((JavascriptExecutor) d).executeScript("return Array.from(document.querySelectorAll("
                + "'#nodes tbody tr')).map(function (r) { return Array.from(r.cells).map(function (c) {"
                + " return c.textContent; }); });");
    }
}

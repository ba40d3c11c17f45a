package io.god.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.god.events.Event;
import io.god.testing.TimeScale;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import jakarta.inject.Inject;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The dashboard in a real browser: Debian's headless Chromium through its chromedriver (never a
 * downloaded driver) loads {@code /}, gets live ring data over {@code /ws}, runs DHash.Put then
 * DHash.Get from the API console and shows the decoded value; a screenshot goes to
 * {@code target/dashboard.png}. Skipped only where {@code /usr/bin/chromium} is missing outside CI
 * ({@code CI=true} makes a missing browser a failure).
 */
@QuarkusTest
class DashboardBrowserTest extends RpcTestSupport {

    static final String CHROMIUM = "/usr/bin/chromium";
    static final String CHROMEDRIVER = "/usr/bin/chromedriver";

    @Inject
    NodeBean bean;

    @Test
    void putAndGetFromTheConsole() throws Exception {
        Browser browser = Browser.open();
        WebDriver driver = browser.driver();
        try {
            WebDriverWait wait = new WebDriverWait(driver, TimeScale.seconds(20));
            driver.get("http://localhost:" + RestAssured.port + "/");
            wait.until(d -> "true".equals(d.findElement(By.tagName("body")).getAttribute("data-methods-loaded")));
            // live data over /ws: the node table fills in from the first RingChange
            wait.until(d -> d.findElement(By.id("nodes")).getText().contains("127.0.0.1:9191"));
            assertThat(driver.findElement(By.id("status")).getText()).isEqualTo("live");

            driver.findElement(By.id("token")).sendKeys(TOKEN);
            run(driver, wait, "Put", "{\"Key\":\"" + s("hello") + "\",\"Value\":\"" + s("dashboard world") + "\"}", 1);
            assertThat(driver.findElement(By.id("result-status")).getText()).isEqualTo("DHash.Put → 200");
            assertThat(driver.findElement(By.id("result")).getText()).isEqualTo("{}");

            run(driver, wait, "Get", "{\"Key\":\"" + s("hello") + "\"}", 2);
            assertThat(driver.findElement(By.id("result-status")).getText()).isEqualTo("DHash.Get → 200");
            assertThat(driver.findElement(By.id("result")).getText()).contains(s("dashboard world"));
            assertThat(driver.findElement(By.id("decoded")).getText()).contains("\"Value\": \"dashboard world\"",
                    "\"Key\": \"hello\"", "\"Exists\": true");
            assertThat(json("Get", "{\"Key\":\"" + s("hello") + "\"}").get("Value").asText())
                    .isEqualTo(s("dashboard world"));

            // the base64 helper
            driver.findElement(By.id("b64-text")).sendKeys("some key");
            driver.findElement(By.id("b64-encode")).click();
            assertThat(driver.findElement(By.id("b64-out")).getAttribute("value")).isEqualTo(s("some key"));

            // a picture with a few ring members and events for the screenshot (the ring issue sends real ones)
            showSomeTraffic();
            wait.until(d -> d.findElement(By.id("events")).getText().contains("Clean"));
            String events = driver.findElement(By.id("events")).getText();
            assertThat(events).as("pings are hidden by default").contains("DHash.SlavePut", "Discord.Notify", "Sync")
                    .doesNotContain("Discord.Ping");
            // a kind is shown or hidden by its legend box (remembered in the browser)
            driver.findElement(By.cssSelector(".legend input[data-kind=Ping]")).click();
            driver.findElement(By.cssSelector(".legend input[data-kind=Sync]")).click();
            showSomeTraffic();
            wait.until(d -> d.findElement(By.id("events")).getText().contains("Discord.Ping"));
            assertThat(driver.findElement(By.id("events")).getText().lines().filter(l -> l.contains(" Sync ")).count())
                    .as("Sync hidden now: only the first round's line").isEqualTo(1);
            driver.navigate().refresh();
            wait.until(d -> "true".equals(d.findElement(By.tagName("body")).getAttribute("data-methods-loaded")));
            assertThat(driver.findElement(By.cssSelector(".legend input[data-kind=Ping]")).isSelected()).isTrue();
            assertThat(driver.findElement(By.cssSelector(".legend input[data-kind=Sync]")).isSelected()).isFalse();
            driver.findElement(By.cssSelector(".legend input[data-kind=Sync]")).click();
            wait.until(d -> d.findElement(By.id("nodes")).getText().contains("127.0.0.1:9191"));
            showSomeTraffic();
            wait.until(d -> d.findElement(By.id("events")).getText().contains("Clean"));
            byte[] png = ((TakesScreenshot) driver).getScreenshotAs(OutputType.BYTES);
            Files.createDirectories(Path.of("target"));
            Files.write(Path.of("target", "dashboard.png"), png);
            assertThat(png.length).isGreaterThan(10_000);
            Object errors = ((JavascriptExecutor) driver).executeScript("return window.__errors || null;");
            assertThat(errors).isNull();
        } finally {
            browser.close();
        }
    }

    /** Debian's headless Chromium through its chromedriver; aborts the test where there is none (outside CI). */
    record Browser(WebDriver driver, ChromeDriverService service) implements AutoCloseable {

        static Browser open() throws java.io.IOException {
            boolean ci = "true".equals(System.getenv("CI"));
            if (!Files.isExecutable(Path.of(CHROMIUM))) {
                assertThat(ci).as("CI=true but " + CHROMIUM + " is missing (.ci/run installs it)").isFalse();
                Assumptions.abort("no " + CHROMIUM + " here (outside CI): browser test skipped");
            }
            assertThat(Path.of(CHROMEDRIVER)).as("chromium is here, so its driver must be (Debian chromium-driver)")
                    .isExecutable();
            System.setProperty("webdriver.chrome.driver", CHROMEDRIVER);
            Path profile = Files.createTempDirectory("god-chromium");
            ChromeOptions options = new ChromeOptions();
            options.setBinary(CHROMIUM);
            options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                    "--disable-background-networking", "--disable-component-update", "--disable-sync",
                    "--disable-dev-shm-usage", "--window-size=1500,1100", "--user-data-dir=" + profile);
            ChromeDriverService service = new ChromeDriverService.Builder()
                    .usingDriverExecutable(new File(CHROMEDRIVER)).usingAnyFreePort().build();
            WebDriver driver = new ChromeDriver(service, options);
            return new Browser(driver, service);
        }

        @Override
        public void close() {
            driver.quit();
            service.stop();
        }
    }

    private static void run(WebDriver driver, WebDriverWait wait, String method, String body, int calls) {
        new Select(driver.findElement(By.id("method"))).selectByValue(method);
        WebElement text = driver.findElement(By.id("body"));
        text.clear();
        text.sendKeys(body);
        driver.findElement(By.id("execute")).click();
        wait.until(d -> String.valueOf(calls).equals(d.findElement(By.tagName("body")).getAttribute("data-calls")));
    }

    private void showSomeTraffic() {
        Event.NodeRef self = new Event.NodeRef(bean.node().position(), bean.node().address());
        int at = bean.node().position()[0] & 0xff; // the others spread around this node's random position
        Event.NodeRef a = new Event.NodeRef(pos(at + 0x40), "127.0.0.1:1");
        Event.NodeRef b = new Event.NodeRef(pos(at + 0x90), "127.0.0.1:3");
        Event.NodeRef c = new Event.NodeRef(pos(at + 0xd0), "127.0.0.1:5");
        List<Event.NodeRef> ring = new java.util.ArrayList<>(List.of(a, b, c, self));
        ring.sort((x, y) -> java.util.Arrays.compareUnsigned(x.position(), y.position()));
        bean.node().events().publish(new Event.RingChange(self, ring));
        bean.node().events().publish(new Event.Comm(self, a, "hello".getBytes(), null, "DHash.SlavePut"));
        bean.node().events().publish(new Event.Comm(a, b, null, null, "Discord.Notify"));
        bean.node().events().publish(new Event.Comm(b, c, null, null, "Discord.Ping"));
        bean.node().events().publish(new Event.Sync(c, self, 2, 1));
        bean.node().events().publish(new Event.Clean(b, self, 1, 1));
    }

    private static byte[] pos(int first) {
        byte[] p = new byte[16];
        p[0] = (byte) (first & 0xff);
        return p;
    }
}

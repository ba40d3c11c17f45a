package io.god.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.god.testing.TimeScale;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import jakarta.inject.Inject;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Issue 32 in a real browser: with {@code god.auth.reads=true} the page cannot open {@code /ws} (a browser sets no
 * Authorization on a WebSocket), so it shows the login; a wrong token stays refused, the right one sets the cookie
 * and the page shows the ring and live events; logging out brings the login back.
 */
@QuarkusTest
@TestProfile(DashboardLoginBrowserTest.ReadsProtected.class)
class DashboardLoginBrowserTest extends RpcTestSupport {

    public static class ReadsProtected implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("god.auth.reads", "true");
        }
    }

    @Inject
    NodeBean bean;

    @Test
    void theLoginOpensTheRingAndItsLiveEvents() throws Exception {
        try (DashboardBrowserTest.Browser browser = DashboardBrowserTest.Browser.open()) {
            WebDriver driver = browser.driver();
            // the page reloads after a login and a logout: an element found just before is then stale, not absent
            WebDriverWait wait = new WebDriverWait(driver, TimeScale.seconds(20));
            wait.ignoring(org.openqa.selenium.StaleElementReferenceException.class);
            driver.get("http://localhost:" + RestAssured.port + "/");
            wait.until(d -> d.findElement(By.id("login")).isDisplayed());
            assertThat(driver.findElement(By.id("status")).getText()).isNotEqualTo("live");
            assertThat(driver.findElement(By.id("logout")).isDisplayed()).isFalse();

            driver.findElement(By.id("login-token")).sendKeys("wrong-token");
            driver.findElement(By.id("login-submit")).click();
            wait.until(d -> d.findElement(By.id("login-error")).getText().contains("token refused"));
            assertThat(driver.findElement(By.id("status")).getText()).isNotEqualTo("live");

            driver.findElement(By.id("login-token")).clear();
            driver.findElement(By.id("login-token")).sendKeys(TOKEN);
            driver.findElement(By.id("login-submit")).click();
            wait.until(d -> "live".equals(d.findElement(By.id("status")).getText()));
            wait.until(d -> d.findElement(By.id("nodes")).getText().contains(bean.node().address()));
            assertThat(driver.findElement(By.id("login")).isDisplayed()).isFalse();
            assertThat(driver.findElement(By.id("logout")).isDisplayed()).isTrue();
            // a live event reaches the page over the cookie-authenticated /ws
            bean.node().events().publish(new io.god.events.Event.Clean(
                    new io.god.events.Event.NodeRef(bean.node().position(), bean.node().address()),
                    new io.god.events.Event.NodeRef(bean.node().position(), bean.node().address()), 1, 1));
            wait.until(d -> d.findElement(By.id("events")).getText().contains("Clean"));
            Object errors = ((JavascriptExecutor) driver).executeScript("return window.__errors || null;");
            assertThat(errors).isNull();

            driver.findElement(By.id("logout")).click();
            wait.until(d -> d.findElement(By.id("login")).isDisplayed());
        }
    }
}

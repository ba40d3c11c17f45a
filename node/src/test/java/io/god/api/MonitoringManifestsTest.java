package io.god.api;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.god.metrics.MonitoringNames;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * deploy/monitoring/: every metric name of the Grafana dashboard and the PrometheusRule exists in a
 * running node's /q/metrics (the operator's names: the operator's GodClusterOperationsTest).
 */
@QuarkusTest
class MonitoringManifestsTest extends RpcTestSupport {

    @TestHTTPResource(value = "metrics", management = true)
    URL metrics;

    @Test
    void everyNodeMetricOfTheDashboardAndTheAlertsIsServed() throws Exception {
        // one of each event that creates a series lazily: a call, a limit refusal
        call("Put", "{\"Key\":\"" + s("monitoring") + "\",\"Value\":\"" + s("v") + "\"}");
        assertThat(post("Get", "{\"Other\":" + "[".repeat(300) + "]".repeat(300) + "}").statusCode()).isEqualTo(400);
        String scrape = given().header("Authorization", BEARER).get(metrics).then().statusCode(200).extract().asString();

        List<String> expressions = new ArrayList<>(
                MonitoringNames.dashboardExpressions(MonitoringNames.dir().resolve("god-dashboard.json")));
        assertThat(expressions).hasSizeGreaterThan(20);
        List<String> rules = MonitoringNames.ruleExpressions(MonitoringNames.dir().resolve("god-alerts.yaml"));
        assertThat(rules).hasSizeGreaterThanOrEqualTo(5);
        expressions.addAll(rules);
        Set<String> names = MonitoringNames.names(expressions);
        names.removeIf(n -> n.startsWith("god_operator_"));
        assertThat(names).contains("god_replicated", "god_ring_expected_members", "god_wal_fsync_seconds_bucket");
        assertThat(MonitoringNames.missing(names, scrape)).as("names in deploy/monitoring/ this node does not serve")
                .isEmpty();
        // the check catches an unknown name (a typo, a renamed metric)
        assertThat(MonitoringNames.missing(MonitoringNames.names(List.of("rate(god_no_such_metric_total[5m])")), scrape))
                .containsExactly("god_no_such_metric_total");
    }
}

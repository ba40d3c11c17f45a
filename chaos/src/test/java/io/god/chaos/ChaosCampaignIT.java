package io.god.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import io.god.testing.ScaledTimeout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The fault campaign against real node processes in network namespaces (docs/testing.md). In the normal
 * build: a short campaign, fixed seed, every nemesis once, invariants asserted. Without root or
 * {@code ip netns} it is skipped, saying why, except under {@code CI=true} where it fails.
 * Settings (system properties): {@code god.chaos.seed} (a number or {@code random}), {@code god.chaos.nodes},
 * {@code god.chaos.duration} (e.g. {@code 30m}: random nemeses until then; unset: each once),
 * {@code god.chaos.nemeses} (comma-separated names), {@code god.chaos.fault} (seconds per fault).
 * Report and node logs: {@code chaos/target/chaos/}.
 */
@ScaledTimeout(value = 20, unit = TimeUnit.MINUTES)
class ChaosCampaignIT {

    static final Path OUT = Path.of("target", "chaos");

    @Test
    void acknowledgedWritesAndDeletesSurviveEveryNemesis() throws Exception {
        String reason = Net.unavailableReason();
        Path jar = Path.of(System.getProperty("god.node.jar", "../node/target/quarkus-app/quarkus-run.jar"));
        if (reason == null && !Files.exists(jar)) {
            reason = "the packaged node is missing: " + jar.toAbsolutePath() + " (build with -pl chaos -am)";
        }
        String nemeses = System.getProperty("god.chaos.nemeses", "");
        List<Nemesis> list = nemeses.isBlank() ? Nemesis.all()
                : Arrays.stream(nemeses.split(",")).map(String::strip).map(Nemesis::named).toList();
        if (reason == null && list.stream().anyMatch(n -> n instanceof Nemesis.Skew)) {
            reason = NodeProcess.faketimeUnavailable();
        }
        if (reason != null) {
            if ("true".equals(System.getenv("CI"))) {
                fail("CI=true and the chaos campaign cannot run: " + reason);
            }
            Assumptions.abort("chaos campaign skipped: " + reason);
        }
        String seedSetting = System.getProperty("god.chaos.seed", "27");
        long seed = seedSetting.equals("random") ? new java.util.Random().nextLong() & Long.MAX_VALUE
                : Long.parseLong(seedSetting);
        String duration = System.getProperty("god.chaos.duration", "");
        Campaign.Config config = new Campaign.Config(seed, Integer.getInteger("god.chaos.nodes", 3), list,
                duration.isBlank() ? null : Duration.parse("PT" + duration.toUpperCase()),
                Duration.ofSeconds(Integer.getInteger("god.chaos.fault", 6)), Duration.ofSeconds(2),
                2, jar, OUT);
        Campaign.Result result;
        try (Campaign campaign = new Campaign(config)) {
            result = campaign.run();
        }
        Report.write(result, OUT);
        System.out.println(Report.markdown(result));
        assertThat(result.violations()).as("violations, seed " + seed + " (report: " + OUT.resolve("report.md") + ")")
                .extracting(Checker.Violation::describe).isEmpty();
        assertThat(result.phases()).as("convergence after each heal, seed " + seed)
                .allSatisfy(p -> assertThat(p.notConverged()).as(p.nemesis()).isNull());
        // the nemeses bit: some node saw its ring shrink during a fault (else the faults were no-ops)
        assertThat(result.phases()).as("a fault some node noticed, seed " + seed)
                .anyMatch(p -> p.smallestRing() < config.nodes());
        assertThat(result.finalNotConverged()).as("final convergence, seed " + seed).isNull();
        assertThat(result.history()).as("the workload ran").anyMatch(op -> op.kind() == Op.Kind.PUT && op.ok())
                .anyMatch(op -> op.kind() == Op.Kind.DEL && op.ok()).anyMatch(op -> op.kind() == Op.Kind.GET && op.ok())
                .anyMatch(op -> Workload.isSubTreeEntry(op.key()) && op.kind() == Op.Kind.DEL && op.ok())
                .anyMatch(op -> op.key().startsWith("r") && op.kind() == Op.Kind.GET && op.found());
    }
}

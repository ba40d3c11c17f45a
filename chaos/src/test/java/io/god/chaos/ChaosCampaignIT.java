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
 * {@code god.chaos.nemeses} (comma-separated names; the opt-in {@code fsync-fail} only so), {@code god.chaos.fault} (seconds per fault),
 * {@code god.chaos.tombstone-window} (e.g. {@code 5s}: runs the report-only scenario of a partition longer than it).
 * Report and node logs: {@code chaos/target/chaos/} (the window scenario: {@code chaos/target/chaos-window/}).
 */
@ScaledTimeout(value = 20, unit = TimeUnit.MINUTES)
class ChaosCampaignIT {

    static final Path OUT = Path.of("target", "chaos");

    static final Path WINDOW_OUT = Path.of("target", "chaos-window");

    @Test
    void acknowledgedWritesAndDeletesSurviveEveryNemesis() throws Exception {
        String nemeses = System.getProperty("god.chaos.nemeses", "");
        List<Nemesis> list = nemeses.isBlank() ? Nemesis.all()
                : Arrays.stream(nemeses.split(",")).map(String::strip).map(Nemesis::named).toList();
        Path jar = jarOrSkip(list);
        long seed = seed();
        String duration = System.getProperty("god.chaos.duration", "");
        Campaign.Config config = new Campaign.Config(seed, Integer.getInteger("god.chaos.nodes", 3), list,
                duration.isBlank() ? null : Duration.parse("PT" + duration.toUpperCase()),
                Duration.ofSeconds(Integer.getInteger("god.chaos.fault", 6)), Duration.ofSeconds(2),
                2, jar, OUT, null);
        Campaign.Result result = run(config);
        assertThat(result.replicas()).as("the replicas were compared after the final convergence, seed " + seed)
                .isNotNull().satisfies(r -> assertThat(r.keys()).isPositive());
        assertThat(result.violations()).as("violations, seed " + seed + " (report: " + OUT.resolve("report.md") + ")")
                .extracting(Checker.Violation::describe).isEmpty();
        assertThat(result.phases()).as("convergence after each heal, seed " + seed)
                .allSatisfy(p -> assertThat(p.notConverged()).as(p.nemesis()).isNull());
        // a node whose fsync failed must have said so on its liveness (it stays in the ring meanwhile)
        assertThat(result.phases()).as("liveness after a failed fsync, seed " + seed)
                .filteredOn(p -> p.nemesis().equals(Nemesis.FsyncFail.NAME))
                .allSatisfy(p -> assertThat(p.action()).contains("liveness DOWN (wal-fsync: failed"));
        // the nemeses bit: some node saw its ring shrink during a fault, or a failed fsync (else they were no-ops)
        assertThat(result.phases()).as("a fault some node noticed, seed " + seed)
                .anyMatch(p -> p.smallestRing() < config.nodes() || p.action().contains("liveness DOWN"));
        assertThat(result.finalNotConverged()).as("final convergence, seed " + seed).isNull();
        assertThat(result.history()).as("the workload ran").anyMatch(op -> op.kind() == Op.Kind.PUT && op.ok())
                .anyMatch(op -> op.kind() == Op.Kind.DEL && op.ok()).anyMatch(op -> op.kind() == Op.Kind.GET && op.ok())
                .anyMatch(op -> Workload.isSubTreeEntry(op.key()) && op.kind() == Op.Kind.DEL && op.ok())
                .anyMatch(op -> op.key().startsWith("r") && op.kind() == Op.Kind.GET && op.found());
    }

    /**
     * Beyond the promise (issue 27, DESIGN §7): the nodes run with a short tombstone window and one node is
     * isolated for three windows while the workload deletes, then healed. Resurrected deletes, lost writes and
     * whether the quarantine kicked in are only reported ({@code target/chaos-window/report.md}); the test
     * fails only when the ring does not form or converge. Not in the CI campaign: runs when
     * {@code god.chaos.tombstone-window} is set (e.g. {@code 5s}; the isolation lasts three times that).
     */
    @Test
    void aPartitionLongerThanTheTombstoneWindowIsOnlyReported() throws Exception {
        String window = System.getProperty("god.chaos.tombstone-window", "");
        Assumptions.assumeFalse(window.isBlank(), "the tombstone-window scenario runs with -Dgod.chaos.tombstone-window=5s");
        Duration w = Duration.parse("PT" + window.toUpperCase());
        List<Nemesis> isolate = List.of(new Nemesis.IsolateOne());
        Path jar = jarOrSkip(isolate);
        Campaign.Config config = new Campaign.Config(seed(), 3, isolate, null, w.multipliedBy(3), Duration.ofSeconds(2),
                2, jar, WINDOW_OUT, w);
        Campaign.Result result = run(config);
        assertThat(result.phases()).allSatisfy(p -> assertThat(p.notConverged()).as(p.nemesis()).isNull());
        assertThat(result.finalNotConverged()).isNull();
        assertThat(result.violations()).as("everything the checker found is reported under the window").isEmpty();
        assertThat(result.history()).as("deletes ran while the node was away")
                .anyMatch(op -> op.kind() == Op.Kind.DEL && op.ok() && op.invoke() > result.phases().get(0).injectedAt()
                        && op.complete() < result.phases().get(0).healedAt());
    }

    private static Campaign.Result run(Campaign.Config config) throws Exception {
        Campaign.Result result;
        try (Campaign campaign = new Campaign(config)) {
            result = campaign.run();
        }
        Report.write(result, config.out());
        System.out.println(Report.markdown(result));
        return result;
    }

    private static long seed() {
        String seedSetting = System.getProperty("god.chaos.seed", "27");
        return seedSetting.equals("random") ? new java.util.Random().nextLong() & Long.MAX_VALUE
                : Long.parseLong(seedSetting);
    }

    /** The packaged node, or the test skipped (failed under {@code CI=true}) saying why the campaign cannot run. */
    private static Path jarOrSkip(List<Nemesis> list) {
        String reason = Net.unavailableReason();
        Path jar = Path.of(System.getProperty("god.node.jar", "../node/target/quarkus-app/quarkus-run.jar"));
        if (reason == null && !Files.exists(jar)) {
            reason = "the packaged node is missing: " + jar.toAbsolutePath() + " (build with -pl chaos -am)";
        }
        if (reason == null && list.stream().anyMatch(n -> n instanceof Nemesis.Skew)) {
            reason = NodeProcess.faketimeUnavailable();
        }
        if (reason != null) {
            if ("true".equals(System.getenv("CI"))) {
                fail("CI=true and the chaos campaign cannot run: " + reason);
            }
            Assumptions.abort("chaos campaign skipped: " + reason);
        }
        return jar;
    }
}

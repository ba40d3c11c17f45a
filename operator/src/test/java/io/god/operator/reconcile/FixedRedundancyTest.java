package io.god.operator.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.god.operator.admin.NodeStatus;
import io.god.operator.model.GodCluster;
import io.god.operator.model.Settings;
import io.god.operator.reconcile.Observation.PodView;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The N the members report, when the status has none yet (no API server: nothing is read when a member tells N). */
class FixedRedundancyTest {

    static Observation reporting(Integer n0, Integer n1) {
        return new Observation(2,
                List.of(new PodView("demo-0", 0, true, "10.0.0.1", false), new PodView("demo-1", 1, true, "10.0.0.2", false)),
                Map.of("demo-0", StatusWriterTest.active("h").withRedundancy(n0),
                        "demo-1", StatusWriterTest.active("h").withRedundancy(n1)), Map.of());
    }

    static List<String> problems(int specN, Observation seen) {
        GodCluster gc = StatusWriterTest.cluster(2);
        gc.getSpec().setRedundancy(specN);
        return new FixedRedundancy(null).problems(gc, Settings.of(gc.getSpec(), "img"), seen, null);
    }

    @Test
    void theNTheMembersReportIsTheOnlyOneAccepted() {
        assertThat(problems(2, reporting(2, 2))).isEmpty();
        assertThat(problems(3, reporting(2, 2))).singleElement().asString()
                .contains("the running members report N 2, got 3", "set it back");
        assertThat(problems(3, reporting(null, 2))).as("a node without N tells nothing").singleElement().asString()
                .contains("report N 2, got 3");
    }

    /** Members left with two N by an earlier operator's unfinished roll: either ends it, nothing else. */
    @Test
    void membersWithTwoNAcceptEitherOfThem() {
        assertThat(problems(2, reporting(3, 2))).isEmpty();
        assertThat(problems(3, reporting(3, 2))).isEmpty();
        assertThat(problems(1, reporting(3, 2))).singleElement().asString().contains("report N 2 and 3, got 1");
    }

    @Test
    void withoutAReportOrATemplateAnyNIsAccepted() {
        assertThat(problems(5, reporting(null, null))).isEmpty();
        assertThat(problems(5, new Observation(0, List.of(), Map.<String, NodeStatus>of(), Map.of()))).isEmpty();
    }
}

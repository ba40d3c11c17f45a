package io.god.operator.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.god.operator.fake.FakeNodeAdmin;
import io.god.operator.reconcile.Observation.PodView;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A pass asks each member once: the main observation takes the answers the redundancy check's observation of the same
 * pass already had — only for the very same pod (name, uid, IP).
 */
class ObservationReuseTest {

    static final PodView A = new PodView("demo-0", 0, true, "10.0.0.1", false, "h", "uid-a");
    static final PodView B = new PodView("demo-1", 1, false, "10.0.0.2", false, "h", "uid-b");

    @Test
    void theSamePodsAnswerOrFailureIsReusedAnythingElseIsAskedAgain() {
        Observation earlier = new Observation(2, null, List.of(A, B), List.of(),
                Map.of("demo-0", FakeNodeAdmin.active("ns/demo-0")), Map.of("demo-1", "IOException: refused"));

        assertThat(earlier.answerOf(A)).isCompletedWithValue(FakeNodeAdmin.active("ns/demo-0"));
        assertThat(earlier.answerOf(B)).isCompletedExceptionally();
        assertThat(earlier.answerOf(new PodView("demo-0", 0, true, "10.0.0.1", false, "h", "uid-new")))
                .as("a new pod at the ordinal").isNull();
        assertThat(earlier.answerOf(new PodView("demo-0", 0, true, "10.0.0.9", false, "h", "uid-a")))
                .as("another IP").isNull();
        assertThat(earlier.answerOf(new PodView("demo-2", 2, false, "10.0.0.3", false, "h", "uid-c")))
                .as("not asked then").isNull();
        Observation noIp = new Observation(2, null, List.of(new PodView("demo-0", 0, false, null, false, "h", "uid-a")),
                List.of(), Map.of(), Map.of());
        assertThat(noIp.answerOf(new PodView("demo-0", 0, false, null, false, "h", "uid-a"))).as("never asked")
                .isNull();
    }
}

package io.god.operator.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.god.operator.model.Member;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Silence counts per pod: a replacement pod at the same ordinal does not inherit its predecessor's silence. */
class SilenceTest {

    static final Instant T0 = Instant.parse("2026-11-24T10:00:00Z");

    private static Observation silentPod(String uid) {
        return new Observation(1, List.of(new Observation.PodView("demo-0", 0, false, "10.0.0.1", false, "h", uid)),
                Map.of(), Map.of());
    }

    private static Member previous(int missed, String since, String uid) {
        Member m = new Member(0, "demo-0");
        m.setMissedPolls(missed);
        m.setUnansweredSince(since);
        m.setPodUid(uid);
        return m;
    }

    @Test
    void theSamePodKeepsCountingAndANewPodStartsAgain() {
        Instant now = T0.plus(Duration.ofMinutes(5));
        Map<Integer, Silence.Entry> same = Silence.update(List.of(previous(5, T0.toString(), "uid-a")),
                silentPod("uid-a"), now);
        assertThat(same.get(0)).isEqualTo(new Silence.Entry(6, T0.toString()));
        assertThat(Silence.unanswering(same, now, Silence.Bounds.DEFAULT)).containsExactly(0);

        Map<Integer, Silence.Entry> replaced = Silence.update(List.of(previous(5, T0.toString(), "uid-a")),
                silentPod("uid-b"), now);
        assertThat(replaced.get(0)).isEqualTo(new Silence.Entry(1, now.toString()));
        assertThat(Silence.unanswering(replaced, now, Silence.Bounds.DEFAULT)).isEmpty();
    }
}

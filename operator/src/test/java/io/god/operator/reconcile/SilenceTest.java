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

    @Test
    void anAnswerHeardAfterTheRecordedSilenceBeganStartsTheCountAgain() {
        // recorded: silent for 2 passes since T0; the pass in between that had an answer lost its status write
        Instant now = T0.plus(Duration.ofMinutes(5));
        Map<String, Instant> heard = Map.of("uid-a", T0.plus(Duration.ofMinutes(4)));
        Map<Integer, Silence.Entry> broken = Silence.update(List.of(previous(2, T0.toString(), "uid-a")),
                silentPod("uid-a"), now, heard);
        assertThat(broken.get(0)).isEqualTo(new Silence.Entry(1, now.toString()));
        assertThat(Silence.unanswering(broken, now, Silence.Bounds.DEFAULT)).isEmpty();

        // without the memory (an operator restart) the recorded count goes on: 3 passes and 5 minutes
        Map<Integer, Silence.Entry> recorded = Silence.update(List.of(previous(2, T0.toString(), "uid-a")),
                silentPod("uid-a"), now, Map.of());
        assertThat(Silence.unanswering(recorded, now, Silence.Bounds.DEFAULT)).containsExactly(0);

        // an answer heard before the silence began, or from another pod, changes nothing
        assertThat(Silence.update(List.of(previous(2, T0.toString(), "uid-a")), silentPod("uid-a"), now,
                Map.of("uid-a", T0.minusSeconds(1), "uid-b", now)).get(0)).isEqualTo(new Silence.Entry(3, T0.toString()));
    }

    @Test
    void heardRecordsAnsweringPodsByUidAndForgetsAfterAnHour() {
        Heard heard = new Heard();
        Observation answered = new Observation(1, List.of(new Observation.PodView("demo-0", 0, true, "10.0.0.1", false,
                "h", "uid-a")), Map.of("demo-0", io.god.operator.fake.FakeNodeAdmin.active("ns/demo-0")),
                Map.of());
        heard.record(answered, T0);
        heard.record(silentPod("uid-b"), T0.plusSeconds(1));
        assertThat(heard.view()).containsOnlyKeys("uid-a").containsEntry("uid-a", T0);
        heard.record(silentPod("uid-b"), T0.plus(Duration.ofMinutes(61)));
        assertThat(heard.view()).isEmpty();
    }
}

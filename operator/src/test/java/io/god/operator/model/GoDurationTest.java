package io.god.operator.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class GoDurationTest {

    @Test
    void parsesGoDurations() {
        assertThat(GoDuration.parse("24h")).isEqualTo(Duration.ofHours(24));
        assertThat(GoDuration.parse("1h30m")).isEqualTo(Duration.ofMinutes(90));
        assertThat(GoDuration.parse("1.5h")).isEqualTo(Duration.ofMinutes(90));
        assertThat(GoDuration.parse("3600s")).isEqualTo(Duration.ofHours(1));
        assertThat(GoDuration.parse("250ms")).isEqualTo(Duration.ofMillis(250));
        assertThat(GoDuration.parse("2h0m1s")).isEqualTo(Duration.ofSeconds(7201));
    }

    @Test
    void rejectsOtherTextNamingIt() {
        for (String bad : new String[] {"1d", "24", "", "h", "-1h", "1h 30m", "PT24H"}) {
            assertThatThrownBy(() -> GoDuration.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("'" + bad + "'");
        }
        assertThatThrownBy(() -> GoDuration.parse(null)).isInstanceOf(IllegalArgumentException.class);
    }
}

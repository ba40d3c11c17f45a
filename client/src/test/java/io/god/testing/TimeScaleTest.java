package io.god.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class TimeScaleTest {

    @Test
    void propertyWinsOverEnvironmentWhichWinsOverTheDefault() {
        assertThat(TimeScale.resolve("5", "7")).isEqualTo(5);
        assertThat(TimeScale.resolve(null, "7")).isEqualTo(7);
        assertThat(TimeScale.resolve(" ", "1.5")).isEqualTo(1.5);
        assertThat(TimeScale.resolve(null, null)).isEqualTo(TimeScale.DEFAULT);
        assertThat(TimeScale.resolve("", "")).isEqualTo(TimeScale.DEFAULT);
    }

    @Test
    void aBadFactorNamesItsSource() {
        assertThatThrownBy(() -> TimeScale.resolve("fast", null))
                .hasMessageContaining("system property god.test.time-scale").hasMessageContaining("'fast'");
        assertThatThrownBy(() -> TimeScale.resolve(null, "0"))
                .hasMessageContaining("environment variable GOD_TEST_TIME_SCALE").hasMessageContaining("'0'");
        assertThatThrownBy(() -> TimeScale.resolve("-2", null)).hasMessageContaining("> 0");
    }

    @Test
    void durationsAreMultipliedByTheFactor() {
        double f = TimeScale.factor();
        assertThat(TimeScale.seconds(10)).isEqualTo(Duration.ofMillis(Math.round(10_000 * f)));
        assertThat(TimeScale.millis(300)).isEqualTo(Duration.ofMillis(Math.round(300 * f)));
        assertThat(TimeScale.of(Duration.ofMinutes(1))).isEqualTo(TimeScale.seconds(60));
        assertThat(TimeScale.scale(Duration.ofMillis(500), 3)).isEqualTo(Duration.ofMillis(1500));
        assertThat(TimeScale.scale(Duration.ofMillis(500), 1.5)).isEqualTo(Duration.ofMillis(750));
    }

    @Test
    void settingsAreParsedLikeTheNodeReadsThemAndAnsweredInMilliseconds() {
        assertThat(TimeScale.parseSetting("500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(TimeScale.parseSetting("2s")).isEqualTo(Duration.ofSeconds(2));
        assertThat(TimeScale.parseSetting("1m30s")).isEqualTo(Duration.ofSeconds(90));
        assertThat(TimeScale.parseSetting("10")).isEqualTo(Duration.ofSeconds(10));
        assertThat(TimeScale.setting("500ms")).isEqualTo(TimeScale.millis(500).toMillis() + "ms");
        assertThatThrownBy(() -> TimeScale.setting("soon")).hasMessageContaining("'soon'");
        assertThatThrownBy(() -> TimeScale.setting("")).hasMessageContaining("empty");
    }

    @Test
    void childJvmsGetTheSameFactor() {
        assertThat(TimeScale.jvmOption()).startsWith("-Dgod.test.time-scale=");
        String value = TimeScale.jvmOption().substring("-Dgod.test.time-scale=".length());
        assertThat(TimeScale.resolve(value, null)).isEqualTo(TimeScale.factor());
        assertThat(TimeScale.format(3)).isEqualTo("3");
        assertThat(TimeScale.format(1.5)).isEqualTo("1.5");
    }
}

package io.god.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RespSettingsTest {

    private static RespSettings of(Map<String, String> values) {
        return RespSettings.from(key -> Optional.ofNullable(values.get(key)));
    }

    @Test
    void eventLoopsDefaultToOnePerCoreButOneAndCanBeSet() {
        assertThat(of(Map.of()).eventLoops())
                .isEqualTo(RespSettings.defaultEventLoops(Runtime.getRuntime().availableProcessors()));
        assertThat(RespSettings.defaultEventLoops(1)).isEqualTo(1);
        assertThat(RespSettings.defaultEventLoops(2)).isEqualTo(1);
        assertThat(RespSettings.defaultEventLoops(4)).isEqualTo(3);
        assertThat(RespSettings.defaultEventLoops(128)).isEqualTo(64);
        assertThat(of(Map.of("god.resp.event-loops", " 3 ")).eventLoops()).isEqualTo(3);
    }

    @Test
    void aBadEventLoopCountIsRefusedNamingTheSetting() {
        for (String bad : new String[] {"0", "65", "two", ""}) {
            assertThatThrownBy(() -> of(Map.of("god.resp.event-loops", bad)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("god.resp.event-loops").hasMessageContaining("1 to 64");
        }
    }
}

package io.god.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.god.testing.TimeScale;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** A real 4-node ring (TCP on 127.0.0.x, N = 3) and a ring-aware client, shared by a test class. */
abstract class FourNodeRing {

    static ClientRings rings;
    static GodClient client;

    @BeforeAll
    static void ring() throws Exception {
        rings = new ClientRings().start(4);
        client = GodClient.builder().endpoints(rings.address(0)).attemptTimeout(TimeScale.millis(500)).build();
        assertThat(client.ring()).hasSize(4);
    }

    @AfterAll
    static void down() {
        if (client != null) {
            client.close();
        }
        if (rings != null) {
            rings.close();
        }
    }

    static String s(byte[] b) {
        return b == null ? null : new String(b, StandardCharsets.UTF_8);
    }

    static List<String> keys(List<GodClient.Entry> entries) {
        return entries.stream().map(e -> s(e.key())).toList();
    }
}

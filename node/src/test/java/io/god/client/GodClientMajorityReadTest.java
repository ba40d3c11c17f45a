package io.god.client;

import static io.god.client.GodClient.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.god.node.GodNode;
import io.god.testing.ScaledTimeout;
import io.god.testing.TimeScale;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A newest-of-replicas read trusts a majority of the key's replica set, never a lone replica: a member
 * that has just taken over a range may not hold the key yet, and its "not found" must not hide a
 * Sync=true write the other replicas hold.
 */
@ScaledTimeout(60)
class GodClientMajorityReadTest {

    @Test
    void aReadNeedsAMajorityOfTheReplicaSet() throws Exception {
        try (ClientRings rings = new ClientRings()) {
            rings.extra.put("god.ring.failures", "1000"); // dead members stay in the ring for this test
            rings.start(3);
            try (GodClient client = GodClient.builder().endpoints(rings.address(0))
                    .attemptTimeout(TimeScale.millis(300)).deadline(TimeScale.millis(1500)).build()) {
                byte[] key = utf8("majority");
                client.put(key, utf8("v"), true);
                GodNode second = rings.byAddress(rings.address(1));
                GodNode third = rings.byAddress(rings.address(2));

                third.close();
                assertThat(client.get(key).value()).as("2 of 3 replicas answer").isEqualTo(utf8("v"));

                second.close();
                assertThatThrownBy(() -> client.get(key)).isInstanceOf(GodUnavailableException.class)
                        // 3, or 2 when the client's view marks a member catching up (a node that missed
                        // its ring ticks on a loaded machine rejoins through catching up): a lone answer never wins
                        .hasMessageMatching("(?s).*only 1 of [23] replicas answered.*");
            }
        }
    }
}

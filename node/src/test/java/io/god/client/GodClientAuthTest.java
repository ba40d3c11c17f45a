package io.god.client;

import static io.god.client.GodClient.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** god.auth.token: the client's hello and Authorization carry it; a wrong token is a 401, not retried. */
@Timeout(60)
class GodClientAuthTest {

    @Test
    void tokenIsPresentedAndAWrongOneFailsFast() throws Exception {
        try (ClientRings rings = new ClientRings()) {
            rings.extra.put("god.auth.token", "s3cret-token");
            rings.start(2);
            try (GodClient ok = GodClient.builder().endpoints(rings.address(0)).token("s3cret-token").build()) {
                assertThat(ok.ring()).hasSize(2);
                ok.put(utf8("a"), utf8("1"), true);
                assertThat(ok.get(utf8("a")).exists()).isTrue();
            }
            long t0 = System.nanoTime();
            try (GodClient bad = GodClient.builder().endpoints(rings.address(0)).token("wrong").gateway(true)
                    .deadline(Duration.ofSeconds(5)).build()) {
                assertThatThrownBy(() -> bad.get(utf8("a"))).isInstanceOf(GodRequestException.class)
                        .satisfies(e -> assertThat(((GodRequestException) e).status()).isEqualTo(401));
            }
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(2));
        }
    }
}

package io.god.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.commands.ProtocolCommand;
import redis.clients.jedis.exceptions.JedisDataException;

/** god's own RESP commands on a 3-node ring: GOD.SETEXPR (with LIMIT and STORE), GOD.RING, GOD.STATUS, bad input. */
class RespGodCommandsTest {

    static ProtocolCommand command(String name) {
        return () -> name.getBytes(StandardCharsets.UTF_8);
    }

    static String text(Object o) {
        return new String((byte[]) o, StandardCharsets.UTF_8);
    }

    @Test
    void setExpressionsRingAndStatusThroughAnyNode() throws Exception {
        try (RespNodes n = new RespNodes(Map.of()).start(3); Jedis j0 = RespTest.jedis(n, 0);
             Jedis j2 = RespTest.jedis(n, 2)) {
            j0.hset("left", Map.of("a", "1", "b", "2", "c", "3"));
            j0.hset("right", Map.of("b", "20", "d", "40"));

            List<?> union = (List<?>) j2.sendCommand(command("GOD.SETEXPR"), "(U left right)");
            assertThat(union.stream().map(r -> text(((List<?>) r).get(0)))).containsExactly("a", "b", "c", "d");
            List<?> inter = (List<?>) j2.sendCommand(command("GOD.SETEXPR"), "(I left right)");
            assertThat(inter).hasSize(1);
            assertThat(text(((List<?>) inter.get(0)).get(0))).isEqualTo("b");
            assertThat((List<?>) j2.sendCommand(command("GOD.SETEXPR"), "(U left right)", "LIMIT", "2")).hasSize(2);

            assertThat(text(j2.sendCommand(command("GOD.SETEXPR"), "(D:First left right)", "STORE", "only-left")))
                    .isEqualTo("OK");
            assertThat(j0.hgetAll("only-left")).containsOnlyKeys("a", "c");

            assertThatThrownBy(() -> j0.sendCommand(command("GOD.SETEXPR"), "(U left"))
                    .isInstanceOf(JedisDataException.class).hasMessageStartingWith("ERR");
            assertThatThrownBy(() -> j0.sendCommand(command("GOD.SETEXPR"), "(U left right)", "LIMIT", "-1"))
                    .hasMessageContaining("LIMIT must be 0");
            assertThatThrownBy(() -> j0.sendCommand(command("GOD.SETEXPR"), "(U left right)", "LIMIT"))
                    .hasMessageContaining("syntax error");

            List<?> ring = (List<?>) j0.sendCommand(command("GOD.RING"));
            assertThat(ring).hasSize(3);
            List<?> status = (List<?>) j2.sendCommand(command("GOD.STATUS"));
            assertThat(status.stream().filter(o -> o instanceof byte[]).map(RespGodCommandsTest::text))
                    .contains("addr", "owned_entries", "ring_size");
            assertThat(status.contains(3L)).as("ring_size 3").isTrue();
        }
    }
}

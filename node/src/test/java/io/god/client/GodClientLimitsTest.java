package io.god.client;

import static io.god.client.GodClient.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.god.limits.Limits;
import io.god.node.GodNode;
import io.god.testing.ScaledTimeout;
import org.junit.jupiter.api.Test;

/**
 * The request limits over the binary protocol ({@link GodClient}: SetExpression travels as a god
 * JSON-contract call on port 9191): an expression over a limit is a 400 naming it, not retried, and
 * stores nothing at its Dest, on a two-node ring where the sources and the Dest may live on the
 * other node.
 */
@ScaledTimeout(90)
class GodClientLimitsTest {

    private static void refused(Runnable call, String limit) {
        assertThatThrownBy(call::run).isInstanceOfSatisfying(GodRequestException.class,
                e -> assertThat(e.status()).isEqualTo(400)).hasMessageContaining(limit);
    }

    @Test
    void setExpressionsOverALimitAreRefusedAndStoreNothing() throws Exception {
        try (ClientRings rings = new ClientRings()) {
            rings.extra.put(Limits.SET_SOURCES, "5");
            rings.extra.put(Limits.SET_DEPTH, "3");
            rings.extra.put(Limits.RESULT_ROWS, "10");
            rings.start(2);
            try (GodClient c = GodClient.builder().endpoints(rings.address(0)).redundancy(2).build()) {
                for (int i = 0; i < 11; i++) {
                    c.subPut(utf8("a"), utf8("k" + i), utf8("v"), true);
                }
                c.subPut(utf8("b"), utf8("k0"), utf8("v"), true);
                byte[] dest = utf8("dest");
                refused(() -> c.setExpression("(U b b b b b b)", dest), Limits.SET_SOURCES);
                refused(() -> c.setExpression("(U (U b b b) (U b b b))", null), Limits.SET_SOURCES);
                refused(() -> c.setExpression("(U (U (U (U b))))", dest), Limits.SET_DEPTH);
                refused(() -> c.setExpression("(U a)", null), Limits.RESULT_ROWS);
                refused(() -> c.setExpression("(U:ConCat a b)", dest), Limits.RESULT_ROWS);
                assertThat(c.subSize(dest)).isZero();
                for (GodNode n : rings.nodes) {
                    assertThat(n.store().state().sub(dest).size()).as(n.address()).isZero();
                }
                // a larger source on the other node: the expression runs there and reads a page by page from its
                // owner, whose refusal of a page over the row limit is the caller's 400, not an internal error
                String owner = rings.nodes.get(0).cluster().ring().successor(utf8("a")).address();
                String larger = null;
                for (int i = 0; i < 65_536 && larger == null; i += 17) { // keys over the whole ring, in hex
                    String k = String.format("%04x", i);
                    byte[] raw = java.util.HexFormat.of().parseHex(k);
                    if (!rings.nodes.get(0).cluster().ring().successor(raw).address().equals(owner)) {
                        larger = k;
                    }
                }
                assertThat(larger).as("a key owned by the other node").isNotNull();
                byte[] largerKey = java.util.HexFormat.of().parseHex(larger);
                for (int i = 0; i < 12; i++) {
                    c.subPut(largerKey, utf8("k" + i), utf8("v"), true);
                }
                // the Op form of (U a <larger>): the contract's JSON takes binary source keys
                com.fasterxml.jackson.databind.node.ObjectNode body = com.fasterxml.jackson.databind.node.JsonNodeFactory
                        .instance.objectNode();
                com.fasterxml.jackson.databind.node.ObjectNode op = body.putObject("Op").put("Type", 0).put("Merge", 0);
                op.putArray("Sources").add(body.objectNode().put("Key", utf8("a")))
                        .add(body.objectNode().put("Key", largerKey));
                refused(() -> c.raw("SetExpression", null, body), Limits.RESULT_ROWS);
                // within the limit (Len 10) stored on a's node: the larger source is read from the other node in
                // pages no larger than the row limit, so its owner refuses none of them
                byte[] destHere = null;
                for (int i = 0; i < 65_536 && destHere == null; i += 17) {
                    byte[] k = {(byte) (i >> 8), (byte) i, 'd'};
                    if (rings.nodes.get(0).cluster().ring().successor(k).address().equals(owner)) {
                        destHere = k;
                    }
                }
                assertThat(destHere).as("a key owned by a's node").isNotNull();
                com.fasterxml.jackson.databind.node.ObjectNode store = body.objectNode().put("Len", 10)
                        .put("Dest", destHere);
                store.putObject("Op").put("Type", 0).put("Merge", 1).putArray("Sources")
                        .add(body.objectNode().put("Key", largerKey));
                c.raw("SetExpression", null, store);
                assertThat(c.subSize(destHere)).isEqualTo(10);
                // at the limits it runs and stores
                assertThat(c.setExpression("(U b b (U b (U b b)))", null)).hasSize(1);
                c.setExpression("(U:ConCat a)", null, null, false, false, 10, dest);
                assertThat(c.subSize(dest)).isEqualTo(10);
            }
        }
    }
}

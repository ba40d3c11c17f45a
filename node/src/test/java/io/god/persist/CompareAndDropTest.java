package io.god.persist;

import static org.assertj.core.api.Assertions.assertThat;

import io.god.tree.TreeState;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Cleaning's drop removes an entry only while it is still the version the owners confirmed. */
class CompareAndDropTest {

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aWriteBetweenConfirmationAndDropSurvives() {
        TreeState handed = TreeState.EMPTY.put(b("k"), b("v1"), 10).subPut(b("t"), b("x"), b("1"), 11);
        Record dropK = Record.dropIfUnchanged(b("k"), handed.entry(b("k")), 100);
        Record dropT = Record.dropIfUnchanged(b("t"), handed.entry(b("t")), 100);
        // unchanged: dropped, without a tombstone
        assertThat(dropK.applyTo(handed).entry(b("k"))).isNull();
        assertThat(dropT.applyTo(handed).entry(b("t"))).isNull();
        // a newer value, a newer timestamp for the same value, a sub-tree write: all survive
        TreeState newer = handed.put(b("k"), b("v2"), 20);
        assertThat(dropK.applyTo(newer).get(b("k")).value()).isEqualTo(b("v2"));
        TreeState rewritten = handed.put(b("k"), b("v1"), 21);
        assertThat(dropK.applyTo(rewritten).entry(b("k"))).isNotNull();
        TreeState subWrite = handed.subPut(b("t"), b("y"), b("2"), 22);
        assertThat(dropT.applyTo(subWrite).sub(b("t")).size()).isEqualTo(2);
    }

    @Test
    void theExpectationSurvivesTheLogEncodingAndOldDropsStillDecode() {
        TreeState s = TreeState.EMPTY.put(b("k"), b("v1"), 10);
        Record drop = Record.decode(Record.dropIfUnchanged(b("k"), s.entry(b("k")), 100).encode());
        assertThat(drop.applyTo(s.put(b("k"), b("v2"), 20)).entry(b("k"))).isNotNull();
        assertThat(drop.applyTo(s).entry(b("k"))).isNull();
        Record old = Record.decode(Record.drop(b("k"), 100).encode());
        assertThat(old.applyTo(s.put(b("k"), b("v2"), 20)).entry(b("k"))).isNull();
    }
}

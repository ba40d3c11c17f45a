package io.god.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.god.persist.Record;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** RecordBody reads the node's own record encoding (io.god.persist.Record), kind by kind. */
class RecordBodyTest {

    @Test
    void peeksKindTimestampAndKeyOfEveryReplicatedKind() {
        byte[] k = {1, 2, 3};
        List<Record> records = List.of(Record.put(k, new byte[] {9}, 11), Record.delete(k, 12),
                Record.subPut(k, new byte[] {4}, new byte[] {5}, 13), Record.subDelete(k, new byte[] {4}, 14),
                Record.subClear(k, 15), Record.subSetConfiguration(k, Map.of("mirrored", "yes"), 16));
        for (Record r : records) {
            RecordBody b = RecordBody.peek(r.encode());
            assertThat(b.kind()).isEqualTo(r.encode()[0]);
            assertThat(b.timestamp()).isEqualTo(r.timestamp());
            assertThat(b.key()).isEqualTo(k);
            assertThat(b.marker()).isEqualTo(r.kind() == Record.Kind.DELETE || r.kind() == Record.Kind.SUB_DELETE
                    || r.kind() == Record.Kind.SUB_CLEAR);
        }
        assertThat(RecordBody.peek(Record.setConfiguration(Map.of("a", "b"), 17).encode()).key()).isNull();
        assertThat(RecordBody.peek(Record.clear(18).encode()).marker()).isTrue();
    }

    @Test
    void refusesWhatIsNotAReplicatedRecord() {
        assertThatThrownBy(() -> RecordBody.peek(Record.drop(new byte[] {1}, 5).encode())).hasMessageContaining("kind 9");
        assertThatThrownBy(() -> RecordBody.peek(new byte[] {1, 0})).hasMessageContaining("shorter");
        byte[] cut = Record.put(new byte[] {1, 2, 3}, new byte[] {4}, 5).encode();
        cut[9] = 100; // key length beyond the record
        assertThatThrownBy(() -> RecordBody.peek(cut)).hasMessageContaining("beyond");
    }
}

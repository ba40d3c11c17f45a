package io.god.persist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.god.tree.TreeState;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A record's frame written straight into one array ({@link Record#frame}) is byte for byte the frame of its encoded
 * body ({@code Frames.frame(encode())}), which recovery reads: every kind, lengths on both sides of a varint's byte.
 */
class RecordFrameTest {

    @Test
    void everyKindFramesAsItsEncodedBody() {
        Random random = new Random(30);
        List<Record> records = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            byte[] k = bytes(random, 1 + random.nextInt(200));
            byte[] sk = bytes(random, random.nextInt(300));
            byte[] v = bytes(random, random.nextInt(i < 290 ? 300 : 20_000));
            long ts = 1 + random.nextInt(Integer.MAX_VALUE);
            records.add(Record.put(k, v, ts));
            records.add(Record.delete(k, ts));
            records.add(Record.subPut(k, sk, v, ts));
            records.add(Record.subDelete(k, sk, ts));
            records.add(Record.subClear(k, ts));
            records.add(Record.drop(k, ts));
            records.add(Record.dropIfUnchanged(k, TreeState.EMPTY.put(k, v, ts).entry(k), ts));
            records.add(Record.subSetConfiguration(k, Map.of("mirrored", "yes"), ts));
            records.add(Record.setConfiguration(Map.of("a", "b", "c", ""), ts));
            records.add(Record.clear(ts));
        }
        records.add(Record.put(new byte[0], new byte[0], 1));
        for (Record r : records) {
            byte[] frame = r.frame();
            assertThat(frame).as("%s", r.kind()).isEqualTo(Frames.frame(r.encode()));
            assertThat(Frames.frameAt(frame, 0)).as("a whole frame with its checksum").isEqualTo(frame.length - 8);
            Record back = Record.decode(Arrays.copyOfRange(frame, Frames.HEADER, frame.length));
            assertThat(back.kind()).isEqualTo(r.kind());
            assertThat(back.timestamp()).isEqualTo(r.timestamp());
            assertThat(back.key()).isEqualTo(r.key());
        }
    }

    @Test
    void aBodyOverTheFrameBoundIsRefusedAsByEncode() {
        Record huge = Record.put(new byte[] {1}, new byte[Frames.MAX_BODY], 1);
        assertThatThrownBy(huge::frame).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("exceeds " + Frames.MAX_BODY);
        assertThatThrownBy(() -> Frames.frame(huge.encode())).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("exceeds " + Frames.MAX_BODY);
    }

    private static byte[] bytes(Random random, int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }
}

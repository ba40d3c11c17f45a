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
 * A record's frame ({@link Record#frame}, the one writer of logs and snapshots) reads back as the same record: every
 * kind, lengths on both sides of a varint's byte; and its layout is the one data directories already hold.
 */
class RecordFrameTest {

    @Test
    void everyKindReadsBackFromItsFrame() {
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
            assertThat(Frames.frameAt(frame, 0)).as("a whole frame with its checksum").isEqualTo(frame.length - 8);
            byte[] body = Arrays.copyOfRange(frame, Frames.HEADER, frame.length);
            assertThat(Record.decode(body)).as("%s", r.kind()).isEqualTo(r);
            assertThat(r.encode()).isEqualTo(body);
        }
    }

    /**
     * The bytes of a frame as logs and snapshots written since the first release hold them: the body's length and the
     * CRC32C of length and body (big-endian ints), then the body: the kind, the big-endian timestamp and each byte string after its varint length.
     */
    @Test
    void theLayoutIsTheOneOnDisk() {
        byte[] key = new byte[200];
        Arrays.fill(key, (byte) 'k');
        byte[] body = Arrays.copyOfRange(Record.subPut(key, new byte[] {'s'}, new byte[] {'v', 'w'},
                0x0102030405060708L).frame(), Frames.HEADER, 1 + 8 + 2 + 200 + 2 + 3 + Frames.HEADER);
        java.io.ByteArrayOutputStream expected = new java.io.ByteArrayOutputStream();
        expected.writeBytes(new byte[] {3, 1, 2, 3, 4, 5, 6, 7, 8, (byte) 0xc8, 0x01});
        expected.writeBytes(key);
        expected.writeBytes(new byte[] {1, 's', 2, 'v', 'w'});
        assertThat(body).isEqualTo(expected.toByteArray());
        byte[] frame = Record.put(new byte[] {'k'}, new byte[] {'v'}, 9).frame();
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(new byte[] {0, 0, 0, 13});
        crc.update(frame, Frames.HEADER, frame.length - Frames.HEADER);
        assertThat(java.nio.ByteBuffer.wrap(frame).getInt()).isEqualTo(13);
        assertThat(java.nio.ByteBuffer.wrap(frame).getInt(4)).isEqualTo((int) crc.getValue());
        assertThat(Arrays.copyOfRange(frame, Frames.HEADER, frame.length))
                .isEqualTo(new byte[] {1, 0, 0, 0, 0, 0, 0, 0, 9, 1, 'k', 1, 'v'});
    }

    @Test
    void aBodyOverTheFrameBoundIsRefused() {
        Record huge = Record.put(new byte[] {1}, new byte[Frames.MAX_BODY], 1);
        assertThatThrownBy(huge::frame).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("exceeds " + Frames.MAX_BODY);
        assertThatThrownBy(huge::encode).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("exceeds " + Frames.MAX_BODY);
    }

    private static byte[] bytes(Random random, int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }
}

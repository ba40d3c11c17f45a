package io.god.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The binary data call codec: round trips of every kind, and malformed payloads rejected with a reason. */
class DataCallTest {

    private static final Random RND = new Random(11);

    private static byte[] random(int max) {
        byte[] b = new byte[RND.nextInt(max + 1)];
        RND.nextBytes(b);
        return b;
    }

    @Test
    void everyKindRoundTrips() {
        for (int i = 0; i < 500; i++) {
            int kind = DataCall.GET + RND.nextInt(6);
            DataCall c = new DataCall(kind, random(40), random(40), random(300), RND.nextBoolean(),
                    RND.nextBoolean() ? null : "Bearer " + RND.nextInt(), RND.nextInt(256),
                    RND.nextBoolean() ? Call.ROUTE : Call.EXECUTE, RND.nextBoolean() ? 0 : RND.nextLong() >>> 1);
            DataCall d = DataCall.decode(c.encode());
            assertThat(d.kind()).isEqualTo(kind);
            assertThat(d.key()).isEqualTo(c.key());
            assertThat(d.subKey()).isEqualTo(c.subKey());
            assertThat(d.value()).isEqualTo(c.value());
            assertThat(d.sync()).isEqualTo(c.sync());
            assertThat(d.authorization()).isEqualTo(c.authorization());
            assertThat(d.hops()).isEqualTo(c.hops());
            assertThat(d.mode()).isEqualTo(c.mode());
            assertThat(d.stamp()).isEqualTo(c.stamp());
        }
    }

    @Test
    void fieldsAKindDoesNotCarryAreDroppedAndNullsMeanEmpty() {
        DataCall get = new DataCall(DataCall.GET, null, new byte[] {1}, new byte[] {2}, true, null, 0, Call.ROUTE, 0);
        assertThat(get.key()).isEmpty();
        assertThat(get.subKey()).isNull();
        assertThat(get.value()).isNull();
        assertThat(get.sync()).isFalse(); // Sync is a write option
        DataCall subPut = DataCall.decode(new DataCall(DataCall.SUB_PUT, new byte[] {1}, null, null, true, null, 0,
                Call.EXECUTE, 0).encode());
        assertThat(subPut.subKey()).isEmpty();
        assertThat(subPut.value()).isEmpty();
        assertThat(subPut.sync()).isTrue();
        assertThat(subPut.mode()).isEqualTo(Call.EXECUTE);
        DataCall fwd = subPut.forwarded(Call.ROUTE, 77);
        assertThat(fwd.hops()).isEqualTo(1);
        assertThat(fwd.stamp()).isEqualTo(77);
        assertThat(fwd.mode()).isEqualTo(Call.ROUTE);
        assertThat(fwd.method()).isEqualTo("SubPut");
    }

    @Test
    void repliesRoundTrip() {
        DataCall.Reply found = DataCall.Reply.decode(DataCall.Reply.found(true, 123, new byte[] {9, 8}).encode());
        assertThat(found.status()).isEqualTo(200);
        assertThat(found.exists()).isTrue();
        assertThat(found.timestamp()).isEqualTo(123);
        assertThat(found.value()).containsExactly(9, 8);
        DataCall.Reply empty = DataCall.Reply.decode(DataCall.Reply.found(true, 5, new byte[0]).encode());
        assertThat(empty.exists()).isTrue();
        assertThat(empty.value()).isEmpty(); // an empty value exists
        DataCall.Reply tomb = DataCall.Reply.decode(DataCall.Reply.found(false, 99, new byte[] {1}).encode());
        assertThat(tomb.exists()).isFalse();
        assertThat(tomb.value()).isNull();
        assertThat(tomb.timestamp()).isEqualTo(99); // a tombstone's time travels: it beats older values
        DataCall.Reply err = DataCall.Reply.decode(DataCall.Reply.error(400, "Key of 9 bytes exceeds").encode());
        assertThat(err.status()).isEqualTo(400);
        assertThat(err.message()).isEqualTo("Key of 9 bytes exceeds");
        assertThat(DataCall.Reply.decode(DataCall.Reply.ok().encode()).status()).isEqualTo(200);
    }

    @Test
    void malformedCallsAreRejected() {
        byte[] good = new DataCall(DataCall.PUT, new byte[] {1, 2}, null, new byte[] {3}, false, "Bearer x", 1,
                Call.ROUTE, 5).encode();
        assertThat(DataCall.decode(good).value()).containsExactly(3);
        // every truncation fails
        for (int n = 0; n < good.length; n++) {
            byte[] cut = Arrays.copyOf(good, n);
            assertThatThrownBy(() -> DataCall.decode(cut)).isInstanceOf(WireException.class);
        }
        // trailing garbage
        byte[] longer = Arrays.copyOf(good, good.length + 1);
        assertThatThrownBy(() -> DataCall.decode(longer)).isInstanceOf(WireException.class)
                .hasMessageContaining("trailing");
        // unknown kind, unknown flags, Sync on a read
        byte[] kind = good.clone();
        kind[0] = 9;
        assertThatThrownBy(() -> DataCall.decode(kind)).hasMessageContaining("unknown data operation 9");
        byte[] flags = good.clone();
        flags[1] = 4;
        assertThatThrownBy(() -> DataCall.decode(flags)).hasMessageContaining("unknown flags");
        byte[] syncGet = new DataCall(DataCall.GET, new byte[] {1}, null, null, false, null, 0, Call.ROUTE, 0).encode();
        syncGet[1] = 1;
        assertThatThrownBy(() -> DataCall.decode(syncGet)).hasMessageContaining("Sync on a read");
        // a key length running past the end
        byte[] runaway = new WireWriter().u8(DataCall.GET).u8(0).varint(0).varint(1000).raw(new byte[3]).toBytes();
        assertThatThrownBy(() -> DataCall.decode(runaway)).hasMessageContaining("runs past the payload end");
        // hops over 255, a negative stamp
        byte[] hops = new WireWriter().u8(DataCall.GET).u8(0).varint(256).bytes(new byte[0]).string(null).signed(0)
                .toBytes();
        assertThatThrownBy(() -> DataCall.decode(hops)).hasMessageContaining("out of range");
        byte[] negative = new WireWriter().u8(DataCall.GET).u8(0).varint(0).bytes(new byte[0]).string(null).signed(-4)
                .toBytes();
        assertThatThrownBy(() -> DataCall.decode(negative)).hasMessageContaining("stamp must not be negative");
        assertThatThrownBy(() -> DataCall.decode(new byte[0])).isInstanceOf(WireException.class);
    }

    @Test
    void malformedRepliesAreRejected() {
        byte[] existsWithoutValue = new WireWriter().varint(200).bool(true).signed(1).bytes(null).toBytes();
        assertThatThrownBy(() -> DataCall.Reply.decode(existsWithoutValue)).hasMessageContaining("without a value");
        byte[] status = new WireWriter().varint(1000).toBytes();
        assertThatThrownBy(() -> DataCall.Reply.decode(status)).hasMessageContaining("out of range");
        byte[] ok = DataCall.Reply.found(true, 1, new byte[] {1}).encode();
        for (int n = 0; n < ok.length; n++) {
            byte[] cut = Arrays.copyOf(ok, n);
            assertThatThrownBy(() -> DataCall.Reply.decode(cut)).isInstanceOf(WireException.class);
        }
        assertThatThrownBy(() -> DataCall.Reply.error(200, "no")).isInstanceOf(IllegalArgumentException.class);
    }
}

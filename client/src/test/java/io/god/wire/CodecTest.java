package io.god.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class CodecTest {

    @Test
    void framesRoundTripWhateverTheChunking() {
        Random rnd = new Random(7);
        List<Frame> sent = new ArrayList<>();
        java.io.ByteArrayOutputStream stream = new java.io.ByteArrayOutputStream();
        for (int i = 0; i < 200; i++) {
            byte[] p = new byte[rnd.nextInt(300)];
            rnd.nextBytes(p);
            Frame f = new Frame(rnd.nextLong(), (byte) rnd.nextInt(4), rnd.nextInt(65536), p);
            sent.add(f);
            stream.writeBytes(f.encode());
        }
        byte[] all = stream.toByteArray();
        FrameDecoder d = new FrameDecoder(1 << 16);
        List<Frame> got = new ArrayList<>();
        int off = 0;
        while (off < all.length) {
            int n = Math.min(all.length - off, 1 + rnd.nextInt(97));
            got.addAll(d.feed(all, off, n));
            off += n;
        }
        assertThat(d.buffered()).isZero();
        assertThat(got).hasSize(sent.size());
        for (int i = 0; i < sent.size(); i++) {
            assertThat(got.get(i).id()).isEqualTo(sent.get(i).id());
            assertThat(got.get(i).kind()).isEqualTo(sent.get(i).kind());
            assertThat(got.get(i).op()).isEqualTo(sent.get(i).op());
            assertThat(got.get(i).payload()).isEqualTo(sent.get(i).payload());
        }
    }

    @Test
    void oversizedFrameIsRejectedFromItsHeader() {
        FrameDecoder d = new FrameDecoder(100);
        byte[] header = ByteBuffer.allocate(4).putInt(1_000_000).array();
        assertThatThrownBy(() -> d.feed(header)).isInstanceOf(WireException.class)
                .hasMessageContaining("frame of 1000000 bytes exceeds the maximum of 100 bytes");
        FrameDecoder neg = new FrameDecoder(100);
        assertThatThrownBy(() -> neg.feed(new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF}))
                .isInstanceOf(WireException.class).hasMessageContaining("exceeds the maximum");
    }

    @Test
    void shortLengthAndUnknownKindAreMalformed() {
        assertThatThrownBy(() -> new FrameDecoder(100).feed(new byte[] {0, 0, 0, 3, 1, 2, 3}))
                .isInstanceOf(WireException.class).hasMessageContaining("shorter than a header");
        byte[] bad = Frame.request(1, 2, new byte[0]).encode();
        bad[12] = 9;
        assertThatThrownBy(() -> new FrameDecoder(100).feed(bad)).isInstanceOf(WireException.class)
                .hasMessageContaining("unknown frame kind 9");
    }

    @Test
    void payloadValuesRoundTrip() {
        byte[] p = new WireWriter().varint(0).varint(Long.MAX_VALUE).signed(-5).signed(Long.MIN_VALUE).bool(true)
                .bytes(null).bytes(new byte[0]).bytes(new byte[] {1, 2}).string("ünï").byteList(List.of(new byte[] {9}))
                .toBytes();
        WireReader r = new WireReader(p);
        assertThat(r.varint()).isZero();
        assertThat(r.varint()).isEqualTo(Long.MAX_VALUE);
        assertThat(r.signed()).isEqualTo(-5);
        assertThat(r.signed()).isEqualTo(Long.MIN_VALUE);
        assertThat(r.bool()).isTrue();
        assertThat(r.bytes()).isNull();
        assertThat(r.bytes()).isEmpty();
        assertThat(r.bytes()).containsExactly(1, 2);
        assertThat(r.string()).isEqualTo("ünï");
        assertThat(r.byteList(10)).singleElement().satisfies(b -> assertThat(b).containsExactly(9));
        r.end();
    }

    @Test
    void truncatedOrLyingPayloadsAreErrorsNotCrashes() {
        byte[] lying = new WireWriter().varint(1_000_000).toBytes();
        assertThatThrownBy(() -> new WireReader(lying).bytes()).isInstanceOf(WireException.class)
                .hasMessageContaining("runs past the payload end");
        assertThatThrownBy(() -> new WireReader(new byte[] {(byte) 0x80}).varint()).isInstanceOf(WireException.class);
        assertThatThrownBy(() -> new WireReader(new byte[] {5}).bool()).isInstanceOf(WireException.class);
        byte[] call = new Call("DHash.Get", "{}".getBytes(), null, 1, Call.EXECUTE).encode();
        Call back = Call.decode(call);
        assertThat(back.method()).isEqualTo("DHash.Get");
        assertThat(back.hops()).isEqualTo(1);
        assertThat(back.mode()).isEqualTo(Call.EXECUTE);
        assertThat(back.stamp()).isZero();
        byte[] trailing = java.util.Arrays.copyOf(call, call.length + 2);
        assertThatThrownBy(() -> Call.decode(trailing)).isInstanceOf(WireException.class).hasMessageContaining("trailing");
        byte[] zeroStamp = java.util.Arrays.copyOf(call, call.length + 1);
        assertThatThrownBy(() -> Call.decode(zeroStamp)).isInstanceOf(WireException.class).hasMessageContaining("stamp");
        Random rnd = new Random(3);
        for (int i = 0; i < 2000; i++) {
            byte[] junk = new byte[rnd.nextInt(20)];
            rnd.nextBytes(junk);
            try {
                Call.decode(junk);
            } catch (WireException expected) {
                // malformed input is a WireException, never anything else
            }
        }
        // a forwarded write's stamp travels; a frame without one (an older node's) decodes as before
        Call stamped = Call.decode(new Call("DHash.Put", "{}".getBytes(), "Bearer t", 2, Call.EXECUTE,
                1_795_280_387_973_444_414L).encode());
        assertThat(stamped.stamp()).isEqualTo(1_795_280_387_973_444_414L);
        assertThat(stamped.authorization()).isEqualTo("Bearer t");
        byte[] old = new WireWriter().string("DHash.Put").bytes("{}".getBytes()).string(null).varint(1).varint(0)
                .toBytes();
        Call oldCall = Call.decode(old);
        assertThat(oldCall.method()).isEqualTo("DHash.Put");
        assertThat(oldCall.hops()).isEqualTo(1);
        assertThat(oldCall.stamp()).isZero();
        Call.Reply reply = Call.Reply.decode(new Call.Reply(200, "{}".getBytes()).encode());
        assertThat(reply.status()).isEqualTo(200);
        assertThat(new String(reply.body())).isEqualTo("{}");
    }
}

package io.god.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The binary slice call codec: round trips of both kinds and their replies, malformed payloads rejected. */
class SliceCallTest {

    private static final Random RND = new Random(29);

    private static byte[] random(int max) {
        byte[] b = new byte[RND.nextInt(max + 1)];
        RND.nextBytes(b);
        return b;
    }

    @Test
    void callsAndRepliesRoundTrip() {
        for (int i = 0; i < 300; i++) {
            int kind = SliceCall.SLICE_LEN + RND.nextInt(4); // both slices and both digests
            SliceCall c = new SliceCall(kind, random(40), RND.nextBoolean() ? null : random(40), RND.nextBoolean(),
                    RND.nextLong(), RND.nextBoolean() ? null : "Bearer " + RND.nextInt(), RND.nextInt(256),
                    RND.nextBoolean() ? Call.ROUTE : Call.EXECUTE);
            assertThat(SliceCall.isSlice(c.encode())).isTrue();
            SliceCall d = SliceCall.decode(c.encode());
            assertThat(d.kind()).isEqualTo(kind);
            assertThat(d.key()).isEqualTo(c.key());
            assertThat(d.from()).isEqualTo(c.from());
            assertThat(d.fromInc()).isEqualTo(c.fromInc());
            assertThat(d.len()).isEqualTo(c.len());
            assertThat(d.authorization()).isEqualTo(c.authorization());
            assertThat(d.hops()).isEqualTo(c.hops());
            assertThat(d.mode()).isEqualTo(c.mode());
            assertThat(d.digest()).isEqualTo(kind >= SliceCall.SLICE_LEN_DIGEST);
            assertThat(d.reverse()).isEqualTo(kind == SliceCall.REVERSE_SLICE_LEN
                    || kind == SliceCall.REVERSE_SLICE_LEN_DIGEST);
            assertThat(d.asDigest(!d.digest()).asDigest(d.digest())).isEqualTo(d);
            assertThat(d.asDigest(true).reverse()).isEqualTo(d.reverse());

            List<SliceCall.Stamped> entries = new ArrayList<>();
            for (int e = RND.nextInt(20); e > 0; e--) {
                boolean exists = RND.nextBoolean();
                entries.add(new SliceCall.Stamped(random(20), exists, RND.nextLong(), exists ? random(50) : null));
            }
            SliceCall.Reply r = SliceCall.Reply.decode(SliceCall.Reply.ok(entries).encode());
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.entries()).hasSameSizeAs(entries);
            for (int e = 0; e < entries.size(); e++) {
                assertThat(r.entries().get(e).key()).isEqualTo(entries.get(e).key());
                assertThat(r.entries().get(e).exists()).isEqualTo(entries.get(e).exists());
                assertThat(r.entries().get(e).timestamp()).isEqualTo(entries.get(e).timestamp());
                assertThat(r.entries().get(e).value()).isEqualTo(entries.get(e).value());
            }
        }
        SliceCall.Reply err = SliceCall.Reply.decode(SliceCall.Reply.error(400, "bad").encode());
        assertThat(err.status()).isEqualTo(400);
        assertThat(err.message()).isEqualTo("bad");
        // a DataCall's error reply reads the same (an older node refusing the kind)
        assertThat(SliceCall.Reply.decode(DataCall.Reply.error(400, "unknown data operation 32").encode()).message())
                .isEqualTo("unknown data operation 32");
    }

    @Test
    void digestsCoverEveryPartOfEveryEntry() {
        List<SliceCall.Stamped> entries = new ArrayList<>();
        for (int e = 0; e < 50; e++) {
            boolean exists = e % 7 != 3;
            entries.add(new SliceCall.Stamped(random(20), exists, RND.nextLong(), exists ? random(50) : null));
        }
        SliceCall.Reply reply = SliceCall.Reply.ok(entries);
        byte[] digest = SliceCall.digest(reply.encode());
        SliceCall.DigestReply d = SliceCall.DigestReply.decode(SliceCall.DigestReply.of(reply));
        assertThat(d.status()).isEqualTo(200);
        assertThat(d.digest()).hasSize(SliceCall.DIGEST_BYTES).isEqualTo(digest);
        // what a client receives and hashes (the decoded reply encodes to the same bytes)
        assertThat(SliceCall.digest(SliceCall.Reply.decode(reply.encode()).encode())).isEqualTo(digest);
        for (int e = 0; e < entries.size(); e++) {
            SliceCall.Stamped x = entries.get(e);
            List<SliceCall.Stamped> changed = new ArrayList<>(entries);
            byte[] key = Arrays.copyOf(x.key(), x.key().length + 1);
            changed.set(e, new SliceCall.Stamped(key, x.exists(), x.timestamp(), x.value()));
            assertThat(digestOf(changed)).as("key of %d", e).isNotEqualTo(digest);
            changed.set(e, new SliceCall.Stamped(x.key(), x.exists(), x.timestamp() + 1, x.value()));
            assertThat(digestOf(changed)).as("stamp of %d", e).isNotEqualTo(digest);
            changed.set(e, x.exists() ? new SliceCall.Stamped(x.key(), false, x.timestamp(), null)
                    : new SliceCall.Stamped(x.key(), true, x.timestamp(), new byte[0]));
            assertThat(digestOf(changed)).as("tombstone or value at %d", e).isNotEqualTo(digest);
            if (x.exists()) {
                byte[] v = x.value().clone();
                changed.set(e, new SliceCall.Stamped(x.key(), true, x.timestamp(), Arrays.copyOf(v, v.length + 1)));
                assertThat(digestOf(changed)).as("value of %d", e).isNotEqualTo(digest);
            }
        }
        assertThat(digestOf(entries.subList(0, 49))).as("one entry fewer").isNotEqualTo(digest);
        // errors keep the slice reply's error form
        SliceCall.DigestReply err = SliceCall.DigestReply.decode(SliceCall.DigestReply.of(SliceCall.Reply.error(403,
                "no")));
        assertThat(err.status()).isEqualTo(403);
        assertThat(err.message()).isEqualTo("no");
        assertThat(SliceCall.DigestReply.decode(DataCall.Reply.error(400, "unknown data operation 34").encode())
                .message()).isEqualTo("unknown data operation 34");
        byte[] shortDigest = new WireWriter().varint(200).bytes(new byte[5]).toBytes();
        assertThatThrownBy(() -> SliceCall.DigestReply.decode(shortDigest)).hasMessageContaining("malformed slice digest");
    }

    /**
     * The node encodes and hashes its tree's entries through {@link SliceCall.Entries} (key and value as ranges of
     * one array): the bytes and the digest are those of the typed reply, values larger than the hashing chunk too.
     */
    @Test
    void entriesReadFromArrayRangesEncodeAndHashAsTheTypedReply() {
        List<SliceCall.Stamped> typed = new ArrayList<>();
        List<byte[]> stored = new ArrayList<>(); // key then value in one array, as the tree keeps them
        for (int e = 0; e < 120; e++) {
            boolean exists = e % 5 != 2;
            byte[] key = random(30);
            byte[] value = !exists ? null : e == 7 ? new byte[5000] : random(60);
            typed.add(new SliceCall.Stamped(key, exists, RND.nextLong(), value));
            byte[] both = Arrays.copyOf(key, key.length + (value == null ? 0 : value.length));
            if (value != null) {
                System.arraycopy(value, 0, both, key.length, value.length);
            }
            stored.add(both);
        }
        SliceCall.Entries view = new SliceCall.Entries() {
            public int size() {
                return typed.size();
            }

            public byte[] keyArray(int i) {
                return stored.get(i);
            }

            public int keyLength(int i) {
                return typed.get(i).key().length;
            }

            public boolean exists(int i) {
                return typed.get(i).exists();
            }

            public long timestamp(int i) {
                return typed.get(i).timestamp();
            }

            public byte[] valueArray(int i) {
                return typed.get(i).exists() ? stored.get(i) : null;
            }

            public int valueOffset(int i) {
                return typed.get(i).key().length;
            }

            public int valueLength(int i) {
                return typed.get(i).exists() ? typed.get(i).value().length : 0;
            }
        };
        byte[] encoded = SliceCall.Reply.ok(typed).encode();
        assertThat(SliceCall.encodeOk(view)).isEqualTo(encoded);
        assertThat(SliceCall.digestOk(view)).isEqualTo(SliceCall.digest(encoded));
        assertThat(SliceCall.DigestReply.decode(SliceCall.DigestReply.of(view)).digest())
                .isEqualTo(SliceCall.digest(encoded));
        assertThat(SliceCall.digestOk(SliceCall.Reply.entries(List.of())))
                .isEqualTo(SliceCall.digest(SliceCall.Reply.ok(List.of()).encode()));
    }

    private static byte[] digestOf(List<SliceCall.Stamped> entries) {
        return SliceCall.digest(SliceCall.Reply.ok(entries).encode());
    }

    @Test
    void malformedPayloadsAreRejected() {
        byte[] good = new SliceCall(SliceCall.SLICE_LEN, new byte[] {1}, null, true, 100, null, 0, Call.EXECUTE)
                .encode();
        assertThat(SliceCall.isSlice(new byte[0])).isFalse();
        assertThat(SliceCall.isSlice(new byte[] {DataCall.GET})).isFalse();
        assertThatThrownBy(() -> SliceCall.decode(Arrays.copyOf(good, good.length - 1))).isInstanceOf(WireException.class);
        assertThatThrownBy(() -> SliceCall.decode(Arrays.copyOf(good, good.length + 1))).isInstanceOf(WireException.class);
        byte[] kind = good.clone();
        kind[0] = 36;
        assertThat(SliceCall.isSlice(kind)).isFalse();
        assertThatThrownBy(() -> SliceCall.decode(kind)).hasMessageContaining("unknown slice operation 36");
        byte[] flags = good.clone();
        flags[1] = 4;
        assertThatThrownBy(() -> SliceCall.decode(flags)).hasMessageContaining("unknown flags 4");
        assertThatThrownBy(() -> new SliceCall(SliceCall.SLICE_LEN, null, null, true, 1, null, 256, Call.ROUTE))
                .hasMessageContaining("hops");
        // an entry that says it exists without a value, or a count past the bound
        byte[] noValue = new WireWriter().varint(200).varint(1).bytes(new byte[] {1}).bool(true).signed(5).bytes(null)
                .toBytes();
        assertThatThrownBy(() -> SliceCall.Reply.decode(noValue)).hasMessageContaining("malformed stamped entry 0");
        byte[] tooMany = new WireWriter().varint(200).varint(SliceCall.Reply.MAX_ENTRIES + 1L).toBytes();
        assertThatThrownBy(() -> SliceCall.Reply.decode(tooMany)).isInstanceOf(WireException.class);
    }
}

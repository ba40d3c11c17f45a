package io.god.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.god.tree.Entry;
import io.god.tree.TreeState;
import io.god.wire.WireException;
import io.god.wire.WireReader;
import io.god.wire.WireWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The anti-entropy wire pieces decode to what was encoded (fixed seeds), and reject garbage. */
class SyncCodecTest {

    @Test
    void prefixesRoundTripAsDifferencesFromThePreviousOne() {
        Random random = new Random(11);
        List<byte[]> prefixes = new ArrayList<>();
        List<Integer> lengths = new ArrayList<>();
        WireWriter w = new WireWriter();
        byte[] prev = new byte[0];
        int prevNibbles = 0;
        for (int i = 0; i < 2000; i++) {
            int nibbles = random.nextInt(i % 50 == 0 ? 60 : 9);
            byte[] p = Nibbles.low(randomBytes(random, (nibbles + 1) / 2, i % 3 == 0 ? prev : null), nibbles);
            Nibbles.writePrefix(w, prev, prevNibbles, p, nibbles);
            prefixes.add(p);
            lengths.add(nibbles);
            prev = p;
            prevNibbles = nibbles;
        }
        WireReader r = new WireReader(w.toBytes());
        byte[] last = new byte[0];
        int[] n = {0};
        for (int i = 0; i < prefixes.size(); i++) {
            last = Nibbles.readPrefix(r, last, n[0], n);
            assertThat(n[0]).isEqualTo(lengths.get(i));
            assertThat(last).as("prefix %d", i).isEqualTo(prefixes.get(i));
        }
        r.end();
        // sharing more nibbles than the previous prefix has is refused
        WireWriter bad = new WireWriter().varint(9L << 3);
        assertThatThrownBy(() -> Nibbles.readPrefix(new WireReader(bad.toBytes()), new byte[1], 2, new int[1]))
                .isInstanceOf(WireException.class);
    }

    @Test
    void probesAndSummariesRoundTrip() {
        Random random = new Random(5);
        TreeState s = TreeState.EMPTY;
        for (int i = 0; i < 3000; i++) {
            byte[] key = randomBytes(random, 1 + random.nextInt(3), null);
            s = switch (i % 4) {
                case 0 -> s.delete(key, 1000 + i);
                case 1 -> s.subPut(key, new byte[] {(byte) i}, new byte[] {1}, 1000 + i);
                default -> s.put(key, new byte[] {(byte) i}, 1000 + i);
            };
        }
        for (int lane = 0; lane < 16; lane += 5) {
            for (int i = 0; i < 500; i++) {
                int nibbles = random.nextInt(7);
                byte[] prefix = Nibbles.low(randomBytes(random, (nibbles + 1) / 2, null), nibbles);
                boolean wide = i % 2 == 1; // the hashes of partial nodes: 63 bits each, compared exactly
                WireWriter w = new WireWriter();
                Probe.encode(w, s.fingerprint(prefix, nibbles), prefix, nibbles, lane, wide);
                WireReader r = new WireReader(w.toBytes());
                Probe got = Probe.decode(r, prefix, nibbles, wide);
                r.end();
                Probe want = Probe.of(s.fingerprint(prefix, nibbles), lane, wide);
                if (want == null) {
                    assertThat(got).isNull();
                    continue;
                }
                assertThat(got.depth()).isEqualTo(want.depth());
                assertThat(Nibbles.mismatch(got.key(), want.key(), want.depth())).isEqualTo(want.depth());
                assertThat(got.entry()).isEqualTo(want.entry());
                for (int c = 0; c < 16; c++) {
                    assertThat(Probe.differ(got.children()[c], want.children()[c], got.narrow())).isFalse();
                }
                if (wide) {
                    assertThat(got.narrow()).isFalse();
                    assertThat(got.children()).isEqualTo(want.children());
                    if (got.depth() > nibbles) {
                        assertThat(got.own()).isEqualTo(want.own());
                    }
                }
                if (nibbles == 0) {
                    assertThat(got.full()).isEqualTo(want.full());
                }
            }
        }
        for (Iterator<Entry> it = s.entries(null); it.hasNext(); ) {
            VersionSummary v = VersionSummary.of(it.next(), 0, 42, io.god.tree.HashVersion.STAMPED);
            WireWriter w = new WireWriter();
            v.write(w);
            WireReader r = new WireReader(w.toBytes());
            assertThat(VersionSummary.read(r)).isEqualTo(v);
            r.end();
        }
    }

    private static byte[] randomBytes(Random random, int n, byte[] near) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        if (near != null) {
            System.arraycopy(near, 0, b, 0, Math.min(near.length, Math.max(0, n - 1)));
        }
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (b[i] & 0x73); // a small alphabet: shared prefixes and compressed paths
        }
        return Arrays.copyOf(b, n);
    }
}

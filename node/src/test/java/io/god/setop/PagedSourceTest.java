package io.god.setop;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class PagedSourceTest {

    /** A fetcher over a sorted list, as a remote SliceLen would answer. */
    static PagedSource.PageFetcher over(List<SetEntry> entries) {
        return (min, inclusive, limit) -> {
            List<SetEntry> out = new ArrayList<>();
            for (SetEntry e : entries) {
                if (out.size() < limit && Keys.atLeast(e.key(), min, inclusive)) {
                    out.add(e);
                }
            }
            return out;
        };
    }

    static List<SetEntry> range(int n, int step) {
        List<SetEntry> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            byte[] k = Encodings.encodeInt64((long) i * step);
            out.add(SetEntry.of(k, k));
        }
        return out;
    }

    @Test
    void readsPageByPage() {
        List<SetEntry> all = range(1000, 1);
        PagedSource p = new PagedSource(over(all), 128);
        List<SetEntry> read = new ArrayList<>();
        for (SetEntry e = p.next(); e != null; e = p.next()) {
            read.add(e);
        }
        assertThat(read).isEqualTo(all);
        assertThat(p.fetches()).isEqualTo(8); // 7 full pages and one short one that ends the source
        assertThat(p.next()).isNull();
    }

    @Test
    void skipAheadSavesFetches() {
        List<SetEntry> large = range(100_000, 2);
        List<SetEntry> small = range(100, 2_000);
        PagedSource remote = new PagedSource(over(large));
        List<SetEntry> result = SetOps.evaluate(SetExpression.builder().code("(I s l)").build(),
                name -> name[0] == 's' ? ListSource.of(small) : remote);
        assertThat(result).hasSize(100);
        assertThat(remote.fetches()).isLessThanOrEqualTo(101); // one page per distant key, not 100000/128
    }

    @Property(seed = "99", tries = 300)
    void behavesLikeAListSource(@ForAll @Size(max = 60) List<@IntRange(min = 0, max = 100) Integer> keys,
            @ForAll @Size(max = 20) List<@IntRange(min = -1, max = 101) Integer> skips, @ForAll @IntRange(min = 1, max = 7) int page) {
        List<SetEntry> entries = ListSource.entries(keys.stream().map(k -> String.format("%03d", k)).toList());
        PagedSource paged = new PagedSource(over(entries), page);
        ListSource list = ListSource.of(entries);
        int step = 0;
        for (Integer s : skips) {
            SetEntry a;
            SetEntry b;
            if (s < 0) {
                a = paged.next();
                b = list.next();
            } else {
                byte[] min = String.format("%03d", s).getBytes();
                boolean inc = step++ % 2 == 0;
                a = paged.skip(min, inc);
                b = list.skip(min, inc);
            }
            assertThat(a).isEqualTo(b);
        }
    }
}

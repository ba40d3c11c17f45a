package io.god.resp;

import io.god.command.SubUpdates.Kind;
import io.god.command.Wire;
import io.god.limits.LimitExceededException;
import io.god.limits.Limits;
import io.god.request.Command;
import io.god.request.Request;
import io.god.request.Result;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.UnaryOperator;

/**
 * ZRANDMEMBER key [count [WITHSCORES]] and HRANDFIELD key [count [WITHVALUES]]: random index reads of a sub tree's
 * order (best effort while it changes). Without a count one member or field (nil for no key); a positive count that
 * many distinct ones (all of a smaller one), a negative one |count| that may repeat. More than god.limits.result-rows
 * to answer is an error, never a shorter answer.
 */
final class RandomPicks {

    private final RespCommands core;

    RandomPicks(RespCommands core) {
        this.core = core;
    }

    void register() {
        core.add("ZRANDMEMBER", -2, (s, a, w) -> random(s, a, w, Kind.ZSET, "ZRANDMEMBER", "WITHSCORES",
                Scores::formatted));
        core.add("HRANDFIELD", -2, (s, a, w) -> random(s, a, w, Kind.HASH, "HRANDFIELD", "WITHVALUES", v -> v));
    }

    private void random(RespSession s, List<byte[]> a, RespWriter w, Kind kind, String name, String withWord,
                        UnaryOperator<byte[]> shown) {
        byte[] key = a.get(1);
        Long count = null;
        boolean with = false;
        if (a.size() >= 3) {
            count = RespCommands.number(a.get(2));
            if (count == Long.MIN_VALUE) {
                throw new IllegalArgumentException("value is out of range");
            }
            if (a.size() > 4 || a.size() == 4 && !RespCommands.text(a.get(3)).equalsIgnoreCase(withWord)) {
                throw new IllegalArgumentException("syntax error");
            }
            with = a.size() == 4;
        }
        core.expect(s, key, kind);
        long card = core.subSize(s, key);
        if (count == null) {
            List<byte[]> one = card == 0 ? List.of()
                    : at(s, key, List.of(ThreadLocalRandom.current().nextLong(card)), null);
            w.bulk(one.isEmpty() ? null : one.get(0));
            return;
        }
        long n = count >= 0 ? Math.min(count, card) : card == 0 ? 0 : -count;
        int limit = core.node.settings().limits().resultRows();
        if (n > limit) {
            throw new LimitExceededException(Limits.RESULT_ROWS, name + " would answer " + n + " entries, more"
                    + " than god.limits.result-rows (" + limit + ")");
        }
        List<Long> indexes = new ArrayList<>();
        ThreadLocalRandom random = ThreadLocalRandom.current();
        if (count < 0) {
            for (long i = 0; i < n; i++) {
                indexes.add(random.nextLong(card));
            }
        } else {
            Set<Long> distinct = new LinkedHashSet<>();
            while (distinct.size() < n) {
                distinct.add(random.nextLong(card));
            }
            indexes.addAll(distinct);
        }
        w.bulks(at(s, key, indexes, with ? shown : null));
    }

    /** The sub keys (each followed by its shown value when {@code shown} is set) at these indexes; one gone is left out. */
    @SuppressWarnings("unchecked")
    private List<byte[]> at(RespSession s, byte[] key, List<Long> indexes, UnaryOperator<byte[]> shown) {
        List<byte[]> out = new ArrayList<>();
        for (long i : indexes) {
            Request q = new Request.SliceIndex(Command.SLICE_INDEX, key, i, i);
            for (Result.ValueRes v : (List<Result.ValueRes>) core.call(s, q)) {
                out.add(v.key());
                if (shown != null) {
                    out.add(shown.apply(v.value()));
                }
            }
        }
        return out;
    }
}

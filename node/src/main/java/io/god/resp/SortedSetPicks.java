package io.god.resp;

import io.god.command.SubUpdates.Kind;
import io.god.command.Wire;
import io.god.limits.LimitExceededException;
import io.god.limits.Limits;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The sorted-set commands that take members out of sets or walk one: ZMPOP (a pop at each key's owner, key after key,
 * until one answers), ZRANDMEMBER (random index reads of the member order: best effort while the set changes) and
 * ZSCAN ({@link SubScan}: members in byte order).
 */
final class SortedSetPicks {

    private final RespCommands core;

    SortedSetPicks(RespCommands core) {
        this.core = core;
    }

    void register() {
        core.add("ZMPOP", -4, this::zmpop);
        core.add("ZRANDMEMBER", -2, this::random);
        core.add("ZSCAN", -3, (s, a, w) -> SubScan.scan(core, s, a, w, Kind.ZSET, Scores::formatted));
    }

    /**
     * ZMPOP numkeys key [key ...] MIN|MAX [COUNT n]: the first key with members (in argument order) loses up to n of
     * its lowest or highest, in one update at its owner; answers [key, [[member, score] ...]], or a null array.
     */
    private void zmpop(RespSession s, List<byte[]> a, RespWriter w) {
        long numkeys = positive(a.get(1), "numkeys should be greater than 0");
        int where = 2 + (int) Math.min(numkeys, a.size());
        if (where >= a.size()) {
            throw new IllegalArgumentException("syntax error");
        }
        String end = RespCommands.text(a.get(where)).toUpperCase(Locale.ROOT);
        if (!end.equals("MIN") && !end.equals("MAX")) {
            throw new IllegalArgumentException("syntax error");
        }
        long count = -1;
        for (int i = where + 1; i < a.size(); i++) {
            if (count == -1 && RespCommands.text(a.get(i)).equalsIgnoreCase("COUNT") && i + 1 < a.size()) {
                count = positive(a.get(++i), "count should be greater than 0");
            } else {
                throw new IllegalArgumentException("syntax error");
            }
        }
        List<byte[]> args = List.of(bytes(end.toLowerCase(Locale.ROOT)), bytes(Long.toString(Math.max(count, 1))));
        for (byte[] key : a.subList(2, where)) {
            Wire.UpdateRes r = core.update(s, key, "zpop", args);
            if (r.n() > 0) {
                w.array(2).bulk(key).array((int) r.n());
                for (int i = 0; i < r.values().size(); i += 2) {
                    w.array(2).bulk(r.values().get(i)).bulk(Scores.formatted(r.values().get(i + 1)));
                }
                return;
            }
        }
        w.nilArray();
    }

    /** A number of at least 1; {@code message} otherwise (also for no number), as Redis' getRangeLong. */
    private static long positive(byte[] b, String message) {
        long n;
        try {
            n = RespCommands.number(b);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(message);
        }
        if (n < 1) {
            throw new IllegalArgumentException(message);
        }
        return n;
    }

    /**
     * ZRANDMEMBER key [count [WITHSCORES]]: without a count one member (nil for no set); a positive count that many
     * distinct members (all when the set has fewer), a negative one |count| members that may repeat. More than
     * god.limits.result-rows members to answer is an error, never a shorter answer.
     */
    @SuppressWarnings("unchecked")
    private void random(RespSession s, List<byte[]> a, RespWriter w) {
        byte[] key = a.get(1);
        Long count = null;
        boolean scores = false;
        if (a.size() >= 3) {
            count = RespCommands.number(a.get(2));
            if (count == Long.MIN_VALUE) {
                throw new IllegalArgumentException("value is out of range");
            }
            if (a.size() > 4 || a.size() == 4 && !RespCommands.text(a.get(3)).equalsIgnoreCase("WITHSCORES")) {
                throw new IllegalArgumentException("syntax error");
            }
            scores = a.size() == 4;
        }
        core.expect(s, key, Kind.ZSET);
        long card = core.subSize(s, key);
        if (count == null) {
            List<byte[]> one = card == 0 ? List.of() : at(s, key, List.of(ThreadLocalRandom.current().nextLong(card)),
                    false);
            w.bulk(one.isEmpty() ? null : one.get(0));
            return;
        }
        long n = count >= 0 ? Math.min(count, card) : card == 0 ? 0 : -count;
        int limit = core.node.settings().limits().resultRows();
        if (n > limit) {
            throw new LimitExceededException(Limits.RESULT_ROWS, "ZRANDMEMBER would answer " + n + " members, more"
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
        w.bulks(at(s, key, indexes, scores));
    }

    /** The members (and formatted scores) at these indexes of the member order; one gone by now is left out. */
    @SuppressWarnings("unchecked")
    private List<byte[]> at(RespSession s, byte[] key, List<Long> indexes, boolean scores) {
        List<byte[]> out = new ArrayList<>();
        for (long i : indexes) {
            Wire.Req q = RespCommands.req(key, null);
            q.minIndex = i;
            q.maxIndex = i;
            for (Wire.ValueRes v : (List<Wire.ValueRes>) core.call(s, "SliceIndex", q)) {
                out.add(v.key());
                if (scores) {
                    out.add(Scores.formatted(v.value()));
                }
            }
        }
        return out;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }
}

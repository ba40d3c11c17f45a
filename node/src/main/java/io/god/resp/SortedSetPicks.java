package io.god.resp;

import io.god.command.SubUpdates.Kind;
import io.god.command.Wire;
import io.god.request.Result;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The sorted-set commands that take members out of sets or walk one: ZMPOP (a pop at each key's owner, key after key,
 * until one answers) and ZSCAN ({@link SubScan}: members in byte order); ZRANDMEMBER is in {@link RandomPicks}.
 */
final class SortedSetPicks {

    private final RespCommands core;

    SortedSetPicks(RespCommands core) {
        this.core = core;
    }

    void register() {
        core.add("ZMPOP", -4, this::zmpop);
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
            Result.UpdateRes r = core.update(s, key, "zpop", args);
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

    private static byte[] bytes(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }
}

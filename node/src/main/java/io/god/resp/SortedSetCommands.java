package io.god.resp;

import io.god.command.ScoreCodec;
import io.god.command.SubUpdates.Kind;
import io.god.command.SubUpdates;
import io.god.command.Wire;
import io.god.request.Command;
import io.god.request.Request;
import io.god.request.Result;
import io.god.setop.Encodings;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * Sorted sets of the RESP table: a sorted set is the key's mirrored sub tree, a member its sub key and the score its
 * value in {@link ScoreCodec}'s order-preserving bytes, so the mirror orders by score, then member (Redis' order) and
 * ranks, score ranges and counts are the mirror's index reads. Lexicographic ranges read the plain sub tree (member
 * order), which is Redis' order when all scores are equal, the only case Redis defines. Writes (ZADD and its options,
 * ZINCRBY, ZREM, ZPOPMIN/MAX) run at the key's owner as one {@code SubUpdate}.
 */
final class SortedSetCommands {

    private static final String LIMIT_ONLY = "syntax error, LIMIT is only supported in combination with either"
            + " BYSCORE or BYLEX";
    private static final String BAD_LEX = "min or max not valid string range item";

    /** How ZRANGE reads its start and stop. */
    enum By { RANK, SCORE, LEX }

    /** One member and its encoded score. */
    record Member(byte[] member, byte[] score) {
    }

    private final RespCommands core;

    SortedSetCommands(RespCommands core) {
        this.core = core;
    }

    void register() {
        core.add("ZADD", -4, this::zadd);
        core.add("ZINCRBY", 4, (s, a, w) -> {
            byte[] score = Encodings.encodeFloat64(Scores.parse(a.get(2)));
            Result.UpdateRes r = core.update(s, a.get(1), "zadd", List.of(bytes("INCR"), score, a.get(3)));
            w.bulk(incremented(r));
        });
        core.add("ZREM", -3, (s, a, w) -> w.integer(core.update(s, a.get(1), "zrem", a.subList(2, a.size())).n()));
        core.add("ZPOPMIN", -2, (s, a, w) -> pop(s, a, w, "min"));
        core.add("ZPOPMAX", -2, (s, a, w) -> pop(s, a, w, "max"));
        core.add("ZSCORE", 3, (s, a, w) -> {
            read(s, a.get(1));
            byte[] v = score(s, a.get(1), a.get(2));
            w.bulk(v == null ? null : Scores.formatted(v));
        });
        core.add("ZMSCORE", -3, (s, a, w) -> {
            read(s, a.get(1));
            w.array(a.size() - 2);
            for (byte[] m : a.subList(2, a.size())) {
                byte[] v = score(s, a.get(1), m);
                w.bulk(v == null ? null : Scores.formatted(v));
            }
        });
        core.add("ZCARD", 2, (s, a, w) -> {
            read(s, a.get(1));
            w.integer(core.subSize(s, a.get(1)));
        });
        core.add("ZCOUNT", 4, (s, a, w) -> {
            Scores.Bound min = Scores.Bound.parse(a.get(2));
            Scores.Bound max = Scores.Bound.parse(a.get(3));
            read(s, a.get(1));
            w.integer(count(s, "MirrorCount", a.get(1), min.value(), min.inclusive(), max.value(), max.inclusive()));
        });
        core.add("ZLEXCOUNT", 4, (s, a, w) -> {
            Lex min = Lex.parse(a.get(2));
            Lex max = Lex.parse(a.get(3));
            read(s, a.get(1));
            w.integer(lexCount(s, a.get(1), min, max));
        });
        core.add("ZRANK", 3, (s, a, w) -> rank(s, a, w, false));
        core.add("ZREVRANK", 3, (s, a, w) -> rank(s, a, w, true));
        core.add("ZRANGE", -4, (s, a, w) -> range(s, a, w, By.RANK, false, true));
        core.add("ZREVRANGE", -4, (s, a, w) -> range(s, a, w, By.RANK, true, false));
        core.add("ZRANGEBYSCORE", -4, (s, a, w) -> range(s, a, w, By.SCORE, false, false));
        core.add("ZREVRANGEBYSCORE", -4, (s, a, w) -> range(s, a, w, By.SCORE, true, false));
        core.add("ZRANGEBYLEX", -4, (s, a, w) -> range(s, a, w, By.LEX, false, false));
        core.add("ZREVRANGEBYLEX", -4, (s, a, w) -> range(s, a, w, By.LEX, true, false));
        core.add("ZRANGESTORE", -5, this::rangeStore);
    }

    // ---- writes -------------------------------------------------------------------------------------------------

    /** ZADD key [NX|XX] [GT|LT] [CH] [INCR] score member [score member ...], checked in Redis' order. */
    private void zadd(RespSession s, List<byte[]> a, RespWriter w) {
        List<String> flags = new ArrayList<>();
        int i = 2;
        for (; i < a.size(); i++) {
            String f = RespCommands.text(a.get(i)).toUpperCase(Locale.ROOT);
            if (!SubUpdates.ZADD_FLAGS.contains(f)) {
                break;
            }
            flags.add(f);
        }
        int elements = a.size() - i;
        if (elements == 0 || elements % 2 != 0) {
            throw new IllegalArgumentException("syntax error");
        }
        if (flags.contains("NX") && flags.contains("XX")) {
            throw new IllegalArgumentException("XX and NX options at the same time are not compatible");
        }
        if (flags.contains("NX") && (flags.contains("GT") || flags.contains("LT"))
                || flags.contains("GT") && flags.contains("LT")) {
            throw new IllegalArgumentException("GT, LT, and/or NX options at the same time are not compatible");
        }
        boolean incr = flags.contains("INCR");
        if (incr && elements > 2) {
            throw new IllegalArgumentException("INCR option supports a single increment-element pair");
        }
        List<byte[]> args = new ArrayList<>();
        args.add(bytes(flags.isEmpty() ? "-" : String.join(",", flags)));
        for (; i < a.size(); i += 2) {
            args.add(Encodings.encodeFloat64(Scores.parse(a.get(i))));
            args.add(a.get(i + 1));
        }
        Result.UpdateRes r = core.update(s, a.get(1), "zadd", args);
        if (incr) {
            w.bulk(incremented(r));
        } else {
            w.integer(r.n());
        }
    }

    /** ZADD INCR's answer: the new score (IEEE bytes, see SubUpdates.Outcome), nil when an option stopped it. */
    private static byte[] incremented(Result.UpdateRes r) {
        return r.values() == null ? null : Scores.format(Encodings.decodeFloat64(r.values().get(0)))
                .getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }

    /** ZPOPMIN/ZPOPMAX key [count]: without a count one pair (or none), with one an array of pairs. */
    private void pop(RespSession s, List<byte[]> a, RespWriter w, String end) {
        if (a.size() > 3) {
            throw new IllegalArgumentException("syntax error");
        }
        long count = 1;
        if (a.size() == 3) {
            count = RespCommands.number(a.get(2));
            if (count < 0) {
                throw new IllegalArgumentException("value is out of range, must be positive");
            }
        }
        Result.UpdateRes r = core.update(s, a.get(1), "zpop", List.of(bytes(end), bytes(Long.toString(count))));
        List<byte[]> out = new ArrayList<>();
        for (int i = 0; i < r.values().size(); i += 2) {
            out.add(r.values().get(i));
            out.add(Scores.formatted(r.values().get(i + 1)));
        }
        w.bulks(out);
    }

    // ---- reads --------------------------------------------------------------------------------------------------

    private void read(RespSession s, byte[] key) {
        core.expect(s, key, Kind.ZSET);
    }

    private byte[] score(RespSession s, byte[] key, byte[] member) {
        Result.SubValueRes v = (Result.SubValueRes) core.call(s, RespCommands.sub(key, member));
        return v.exists() ? v.value() : null;
    }

    private long count(RespSession s, String method, byte[] key, byte[] min, boolean minInc, byte[] max,
            boolean maxInc) {
        Request q = new Request.Count(Command.named(method), key, min, max, minInc, maxInc);
        return ((Number) core.call(s, q)).longValue();
    }

    /** ZRANK: the members with a lower score, and those with the same score and a lower member. */
    @SuppressWarnings("unchecked")
    private void rank(RespSession s, List<byte[]> a, RespWriter w, boolean reverse) {
        byte[] key = a.get(1);
        read(s, key);
        byte[] score = score(s, key, a.get(2));
        if (score == null) {
            w.nil();
            return;
        }
        long rank = count(s, "MirrorCount", key, null, false, score, false);
        Request q = new Request.Slice(Command.MIRROR_SLICE, key, score, score, true, true, false);
        for (Result.ValueRes tie : (List<Result.ValueRes>) core.call(s, q)) {
            if (Arrays.compareUnsigned(tie.value(), a.get(2)) < 0) {
                rank++;
            }
        }
        w.integer(reverse ? core.subSize(s, key) - 1 - rank : rank);
    }

    /**
     * The ZRANGE family. {@code options}: ZRANGE's BYSCORE/BYLEX/REV/LIMIT/WITHSCORES; otherwise the command's own
     * (WITHSCORES, and LIMIT for the BYSCORE/BYLEX forms).
     */
    private void range(RespSession s, List<byte[]> a, RespWriter w, By by, boolean reverse, boolean options) {
        boolean[] withScores = new boolean[1];
        List<byte[]> out = new ArrayList<>();
        for (Member m : select(s, a, 1, by, reverse, options, withScores)) {
            out.add(m.member());
            if (withScores[0]) {
                out.add(Scores.formatted(m.score()));
            }
        }
        w.bulks(out);
    }

    /**
     * ZRANGESTORE dst src min max [BYSCORE|BYLEX] [REV] [LIMIT offset count]: the selected members with their scores
     * replace dst at its owner (one SubUpdate; nothing selected removes dst); answers how many.
     */
    private void rangeStore(RespSession s, List<byte[]> a, RespWriter w) {
        List<byte[]> pairs = new ArrayList<>();
        for (Member m : select(s, a, 2, By.RANK, false, true, null)) {
            pairs.add(io.god.setop.Encodings.encodeFloat64(io.god.command.ScoreCodec.decode(m.score())));
            pairs.add(m.member());
        }
        w.integer(core.update(s, a.get(1), "zstore", pairs).n());
    }

    /**
     * The members a ZRANGE form selects: the key at {@code keyAt}, then min and max, then the options;
     * {@code withScores} null: WITHSCORES is not an option (ZRANGESTORE), else told whether it was given.
     */
    private List<Member> select(RespSession s, List<byte[]> a, int keyAt, By by, boolean reverse, boolean options,
                                boolean[] withScores) {
        byte[] key = a.get(keyAt);
        long offset = 0;
        long limit = -1;
        boolean limited = false;
        boolean scores = false;
        for (int i = keyAt + 3; i < a.size(); i++) {
            String o = RespCommands.text(a.get(i)).toUpperCase(Locale.ROOT);
            if (o.equals("WITHSCORES") && withScores != null) {
                scores = true;
            } else if (o.equals("LIMIT") && i + 2 < a.size()) {
                offset = RespCommands.number(a.get(i + 1));
                limit = RespCommands.number(a.get(i + 2));
                limited = true;
                i += 2;
            } else if (options && o.equals("BYSCORE")) {
                by = By.SCORE;
            } else if (options && o.equals("BYLEX")) {
                by = By.LEX;
            } else if (options && o.equals("REV")) {
                reverse = true;
            } else {
                throw new IllegalArgumentException("syntax error");
            }
        }
        if (scores && by == By.LEX) {
            throw new IllegalArgumentException("syntax error, WITHSCORES not supported in combination with BYLEX");
        }
        if (limited && by == By.RANK) {
            throw new IllegalArgumentException(LIMIT_ONLY);
        }
        if (withScores != null) {
            withScores[0] = scores;
        }
        // the reverse forms name the upper end first
        byte[] lowArg = reverse && by != By.RANK ? a.get(keyAt + 2) : a.get(keyAt + 1);
        byte[] highArg = reverse && by != By.RANK ? a.get(keyAt + 1) : a.get(keyAt + 2);
        return switch (by) {
            case RANK -> byRank(s, key, RespCommands.number(a.get(keyAt + 1)), RespCommands.number(a.get(keyAt + 2)),
                    reverse);
            case SCORE -> {
                Scores.Bound min = Scores.Bound.parse(lowArg);
                Scores.Bound max = Scores.Bound.parse(highArg);
                read(s, key);
                long below = count(s, "MirrorCount", key, null, false, min.value(), !min.inclusive());
                long n = count(s, "MirrorCount", key, min.value(), min.inclusive(), max.value(), max.inclusive());
                yield window(s, "MirrorSliceIndex", key, below, n, offset, limit, reverse, true);
            }
            case LEX -> {
                Lex min = Lex.parse(lowArg);
                Lex max = Lex.parse(highArg);
                read(s, key);
                long below = min.value() == null ? 0 : count(s, "Count", key, null, false, min.value(), !min.inclusive());
                yield window(s, "SliceIndex", key, below, lexCount(s, key, min, max), offset, limit, reverse, false);
            }
        };
    }

    private List<Member> byRank(RespSession s, byte[] key, long start, long stop, boolean reverse) {
        read(s, key);
        long card = core.subSize(s, key);
        start = start < 0 ? Math.max(0, start + card) : start;
        stop = stop < 0 ? stop + card : Math.min(stop, card - 1);
        if (start > stop || start >= card) {
            return List.of();
        }
        return slice(s, reverse ? "MirrorReverseSliceIndex" : "MirrorSliceIndex", key, start, stop, true);
    }

    /**
     * The n entries from ordinal {@code below} (of the mirror or of the plain sub tree) after LIMIT offset count,
     * walked forward or backward.
     */
    private List<Member> window(RespSession s, String method, byte[] key, long below, long n, long offset, long limit,
            boolean reverse, boolean mirror) {
        if (n <= 0 || offset < 0 || offset >= n) {
            return List.of();
        }
        long take = limit < 0 ? n - offset : Math.min(limit, n - offset);
        if (take == 0) {
            return List.of();
        }
        long from = reverse ? below + n - offset - take : below + offset;
        List<Member> out = new ArrayList<>(slice(s, method, key, from, from + take - 1, mirror));
        if (reverse) {
            Collections.reverse(out);
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private List<Member> slice(RespSession s, String method, byte[] key, long from, long to, boolean mirror) {
        Request q = new Request.SliceIndex(Command.named(method), key, from, to);
        List<Member> out = new ArrayList<>();
        for (Result.ValueRes v : (List<Result.ValueRes>) core.call(s, q)) {
            out.add(mirror ? new Member(v.value(), v.key()) : new Member(v.key(), v.value()));
        }
        return out;
    }

    private long lexCount(RespSession s, byte[] key, Lex min, Lex max) {
        if (min.top() || max.bottom()) {
            return 0;
        }
        return count(s, "Count", key, min.value(), min.inclusive(), max.value(), max.inclusive());
    }

    /** A lexicographic bound: {@code [m}, {@code (m}, {@code -} (below all: value null) or {@code +} (above all). */
    record Lex(byte[] value, boolean inclusive, boolean bottom, boolean top) {
        static Lex parse(byte[] b) {
            if (b.length == 1 && b[0] == '-') {
                return new Lex(null, false, true, false);
            }
            if (b.length == 1 && b[0] == '+') {
                return new Lex(null, false, false, true);
            }
            if (b.length == 0 || b[0] != '[' && b[0] != '(') {
                throw new IllegalArgumentException(BAD_LEX);
            }
            return new Lex(Arrays.copyOfRange(b, 1, b.length), b[0] == '[', false, false);
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }
}

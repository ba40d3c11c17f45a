package io.god.resp;

import io.god.command.RedisNumbers;
import io.god.command.SubUpdates.Kind;
import io.god.command.Wire;
import io.god.request.Command;
import io.god.request.Request;
import io.god.request.Result;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Hashes of the RESP table: a hash is the key's (unmirrored) sub tree, a field its sub key. Writes run at the key's
 * owner ({@code SubUpdate}: the type check, HSETNX's test and HINCRBY/HINCRBYFLOAT's read with the write); the
 * increments are checked here first, as Redis does before the type. Reads check the type, then read the
 * sub tree, so fields come back in byte order (Redis: its own order).
 */
final class HashCommands {

    private final RespCommands core;

    HashCommands(RespCommands core) {
        this.core = core;
    }

    void register() {
        core.add("HSET", -4, (s, a, w) -> w.integer(set(s, a, "hset")));
        core.add("HMSET", -4, (s, a, w) -> {
            set(s, a, "hset");
            w.simple("OK");
        });
        core.add("HSETNX", 4, (s, a, w) -> w.integer(core.update(s, a.get(1), "hsetnx", a.subList(2, 4)).n()));
        core.add("HDEL", -3, (s, a, w) -> w.integer(core.update(s, a.get(1), "hdel", a.subList(2, a.size())).n()));
        core.add("HINCRBY", 4, (s, a, w) -> {
            if (RedisNumbers.integer(a.get(3)) == null) {
                throw new IllegalArgumentException("value is not an integer or out of range");
            }
            w.integer(core.update(s, a.get(1), "hincrby", a.subList(2, 4)).n());
        });
        core.add("HINCRBYFLOAT", 4, (s, a, w) -> {
            BigDecimal incr = RedisNumbers.longDouble(a.get(3));
            if (incr == null || incr == RedisNumbers.INFINITE) {
                throw new IllegalArgumentException(incr == null ? Scores.NOT_A_FLOAT : "value is NaN or Infinity");
            }
            w.bulk(core.update(s, a.get(1), "hincrbyfloat", a.subList(2, 4)).values().get(0));
        });
        core.add("HGET", 3, (s, a, w) -> {
            read(s, a.get(1));
            w.bulk(field(s, a.get(1), a.get(2)));
        });
        core.add("HMGET", -3, (s, a, w) -> {
            read(s, a.get(1));
            w.array(a.size() - 2);
            for (byte[] f : a.subList(2, a.size())) {
                w.bulk(field(s, a.get(1), f));
            }
        });
        core.add("HEXISTS", 3, (s, a, w) -> {
            read(s, a.get(1));
            w.integer(field(s, a.get(1), a.get(2)) == null ? 0 : 1);
        });
        core.add("HSTRLEN", 3, (s, a, w) -> {
            read(s, a.get(1));
            byte[] v = field(s, a.get(1), a.get(2));
            w.integer(v == null ? 0 : v.length);
        });
        core.add("HLEN", 2, (s, a, w) -> {
            read(s, a.get(1));
            w.integer(core.subSize(s, a.get(1)));
        });
        core.add("HKEYS", 2, (s, a, w) -> w.bulks(all(s, a.get(1), true, false)));
        core.add("HVALS", 2, (s, a, w) -> w.bulks(all(s, a.get(1), false, true)));
        core.add("HGETALL", 2, (s, a, w) -> w.bulks(all(s, a.get(1), true, true)));
        core.add("HSCAN", -3, (s, a, w) -> SubScan.scan(core, s, a, w, Kind.HASH, v -> v));
    }

    private long set(RespSession s, List<byte[]> a, String op) {
        if (a.size() % 2 != 0) {
            throw new IllegalArgumentException("wrong number of arguments for '"
                    + RespCommands.text(a.get(0)).toLowerCase(Locale.ROOT) + "' command");
        }
        return core.update(s, a.get(1), op, a.subList(2, a.size())).n();
    }

    private void read(RespSession s, byte[] key) {
        core.expect(s, key, Kind.HASH);
    }

    private byte[] field(RespSession s, byte[] key, byte[] field) {
        Result.SubValueRes v = (Result.SubValueRes) core.call(s, RespCommands.sub(key, field));
        return v.exists() ? v.value() : null;
    }

    /** Every field (bounded by god.limits.result-rows: an error over it, never a truncated answer). */
    @SuppressWarnings("unchecked")
    private List<byte[]> all(RespSession s, byte[] key, boolean fields, boolean values) {
        read(s, key);
        List<byte[]> out = new ArrayList<>();
        for (Result.ValueRes v : (List<Result.ValueRes>) core.call(s, new Request.Slice(Command.SLICE, key, null, null, false, false, false))) {
            if (fields) {
                out.add(v.key());
            }
            if (values) {
                out.add(v.value());
            }
        }
        return out;
    }
}

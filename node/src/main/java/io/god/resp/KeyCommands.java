package io.god.resp;

import io.god.command.Wire;
import io.god.request.Request;
import io.god.request.Result;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Strings (top-level values) and the ordered key space of the RESP table: GET, SET, MGET, MSET, DEL, UNLINK, EXISTS,
 * STRLEN, TYPE, the TTL family (god keeps none), DBSIZE, FLUSHALL, SCAN, KEYS; read-modify-write commands are refused
 * naming themselves.
 */
final class KeyCommands {

    private final RespCommands core;

    KeyCommands(RespCommands core) {
        this.core = core;
    }

    void register() {
        strings();
        keySpace();
    }

    private void strings() {
        core.add("GET", 2, (s, a, w) -> w.bulk(string(s, a.get(1))));
        core.add("SET", -3, (s, a, w) -> {
            for (int i = 3; i < a.size(); i++) {
                String option = RespCommands.text(a.get(i)).toUpperCase(Locale.ROOT);
                switch (option) {
                    case "EX", "PX", "EXAT", "PXAT", "KEEPTTL" -> throw new IllegalArgumentException("god keeps no TTL:"
                            + " SET " + option + " is not offered");
                    case "NX", "XX", "GET" -> throw new IllegalArgumentException("SET " + option + " is not offered:"
                            + " god has no atomic read-modify-write over RESP yet");
                    default -> throw new IllegalArgumentException("syntax error");
                }
            }
            core.put(s, a.get(1), a.get(2));
            w.simple("OK");
        });
        for (String rmw : List.of("SETNX", "GETDEL", "GETSET", "SETRANGE", "APPEND", "INCR", "INCRBY", "DECR", "DECRBY",
                "INCRBYFLOAT", "MSETNX")) {
            core.add(rmw, -1, (s, a, w) -> w.error("ERR " + rmw + " is not offered: god has no atomic read-modify-write"
                    + " over RESP yet"));
        }
        for (String ttl : List.of("SETEX", "PSETEX", "EXPIRE", "PEXPIRE", "EXPIREAT", "PEXPIREAT", "GETEX")) {
            core.add(ttl, -1, (s, a, w) -> w.error("ERR god keeps no TTL: " + ttl + " is not offered"));
        }
        RespCommands.Handler noTtl = (s, a, w) -> w.integer(core.get(s, a.get(1)).exists() ? -1 : -2); // as Redis for a key without one
        core.add("TTL", 2, noTtl);
        core.add("PTTL", 2, noTtl);
        core.add("PERSIST", 2, (s, a, w) -> w.integer(0));
        core.add("MGET", -2, (s, a, w) -> {
            w.array(a.size() - 1);
            for (byte[] key : a.subList(1, a.size())) {
                Result.ValueRes v = core.get(s, key);
                w.bulk(v.exists() ? v.value() : null);
            }
        });
        core.add("MSET", -3, (s, a, w) -> {
            if (a.size() % 2 == 0) {
                throw new IllegalArgumentException("wrong number of arguments for 'mset' command");
            }
            for (int i = 1; i < a.size(); i += 2) { // not atomic across owners (docs/resp.md)
                core.put(s, a.get(i), a.get(i + 1));
            }
            w.simple("OK");
        });
        RespCommands.Handler del = (s, a, w) -> { // each key whatever its type, at its owner
            long deleted = 0;
            for (byte[] key : a.subList(1, a.size())) {
                deleted += core.update(s, key, "del", List.of()).n();
            }
            w.integer(deleted);
        };
        core.add("DEL", -2, del);
        core.add("UNLINK", -2, del);
        core.add("EXISTS", -2, (s, a, w) -> w.integer(a.stream().skip(1)
                .filter(k -> core.get(s, k).exists() || core.subSize(s, k) > 0).count()));
        core.add("STRLEN", 2, (s, a, w) -> {
            byte[] v = string(s, a.get(1));
            w.integer(v == null ? 0 : v.length);
        });
        core.add("TYPE", 2, (s, a, w) -> w.simple(core.kind(s, a.get(1)).name().toLowerCase(Locale.ROOT)));
    }

    /** A string's value, null when absent; WRONGTYPE for a hash or sorted set (a miss asks for the sub tree's size). */
    private byte[] string(RespSession s, byte[] key) {
        Result.ValueRes v = core.get(s, key);
        return v.exists() ? v.value() : core.missing(s, key);
    }

    private void keySpace() {
        core.add("DBSIZE", 1, (s, a, w) -> w.integer(core.size(s)));
        RespCommands.Handler flush = (s, a, w) -> {
            core.call(s, new Request.Clear());
            w.simple("OK");
        };
        core.add("FLUSHALL", -1, flush);
        core.add("FLUSHDB", -1, flush);
        core.add("SCAN", -2, this::scan);
        core.add("KEYS", 2, (s, a, w) -> {
            Glob glob = new Glob(a.get(1));
            int bound = core.node.settings().limits().resultRows();
            List<byte[]> keys = new ArrayList<>();
            byte[] after = new byte[0];
            for (long seen = 0; ; seen++) {
                Result.ValueRes next = (Result.ValueRes) core.call(s, new Request.KeyNext(after));
                if (!next.exists()) {
                    break;
                }
                if (seen >= bound) {
                    throw new IllegalArgumentException("KEYS would look at more than " + bound + " keys ("
                            + io.god.limits.Limits.RESULT_ROWS + "); use SCAN");
                }
                after = next.key();
                if (glob.all() || glob.matches(after)) {
                    keys.add(after);
                }
            }
            w.bulks(keys);
        });
    }

    /**
     * SCAN cursor [MATCH pattern] [COUNT n] [TYPE t]: keys in byte order from after the cursor, at most COUNT (≤
     * {@link #RespCommands.SCAN_MAX}) examined per call. The cursor stands for the last key examined ({@link ScanCursors}; 0:
     * start, and the end), so every key present for the whole scan is returned exactly once, and a scan survives any
     * change of the ring.
     */
    private void scan(RespSession s, List<byte[]> a, RespWriter w) {
        byte[] after = core.cursors.find(RespCommands.text(a.get(1)));
        ScanOptions o = ScanOptions.parse(a, 2, true);
        List<byte[]> keys = new ArrayList<>();
        boolean end = false;
        for (long examined = 0; examined < Math.min(o.count(), RespCommands.SCAN_MAX) && !end; examined++) {
            Result.ValueRes next = (Result.ValueRes) core.call(s, new Request.KeyNext(after));
            end = !next.exists();
            if (!end) {
                after = next.key();
                if (o.matches(after) && (o.type() == null
                        || o.type().equals(core.kind(s, after).name().toLowerCase(Locale.ROOT)))) {
                    keys.add(after);
                }
            }
        }
        w.array(2).bulk(end ? "0" : core.cursors.save(after)).bulks(keys);
    }
}

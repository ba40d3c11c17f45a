package io.god.resp;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.commands.ProtocolCommand;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * The same seeded random sequence of string, hash and sorted-set commands against a real redis-server and a god node
 * over RESP must give the same replies: scores (Redis 7.0's %.17g, ±inf, −0), HINCRBY/HINCRBYFLOAT (long double
 * sums, overflows), ZMPOP, ranks, score and lex ranges with REV and LIMIT, ZADD's options, pops, the set algebra with WEIGHTS and AGGREGATE, and the errors (WRONGTYPE, NaN, bad
 * floats and ranges, syntax). Only the order of HKEYS/HVALS/HGETALL is compared as a set: Redis answers in its hash's
 * order, god in field order (docs/resp.md).
 */
class RespDifferentialTest {

    static final long SEED = Long.getLong("resp.seed", 31);
    static final int COMMANDS = 3_000;

    private static final String[] KEYS = {"s1", "h1", "h2", "z1", "z2", "z3"};
    private static final String[] MEMBERS = {"a", "b", "c", "d", "e", "f"};
    private static final String[] FIELDS = {"f1", "f2", "f3", "f4"};
    /** Dyadic scores, so sums are exact whatever order the servers add them in. */
    private static final String[] SCORES = {"1", "2", "-1", "0", "-0", "1.5", "-2.5", "0.25", "3", "+inf", "-inf", "7"};
    private static final String[] ODD_SCORES = {"1.1", "0.1", "1e300", "-1e-7", "123456789012345678", "nan", "abc",
            "1e", "(1", "inf", "-inf", ""};
    private static final String[] BOUNDS = {"-inf", "+inf", "0", "(0", "1", "(1.5", "2", "(3", "-1", "(-inf", "x"};
    private static final String[] LEX = {"-", "+", "[a", "(a", "[c", "(c", "[e", "(f", "[b", "a", "[", "(" };
    private static final Set<String> UNORDERED = Set.of("HKEYS", "HVALS");

    @TempDir
    Path tmp;

    @Test
    void aSeededRandomSequenceAnswersAsRedisDoes() throws Exception {
        try (RedisServer redis = RedisServer.start(tmp); RespNodes n = new RespNodes(Map.of()).start(1);
                Jedis r = new Jedis("127.0.0.1", redis.port); Jedis g = new Jedis("127.0.0.1", n.port(0))) {
            r.flushAll();
            Random random = new Random(SEED);
            List<String> log = new ArrayList<>();
            int errors = 0;
            int lists = 0;
            Map<String, Integer> kinds = new java.util.TreeMap<>();
            for (int i = 0; i < COMMANDS; i++) {
                List<String> command = next(random);
                log.add(String.join(" ", command));
                Object expected = send(r, command);
                Object actual = send(g, command);
                if (expected instanceof String e && e.startsWith("(error) ")) {
                    errors++;
                    kinds.merge(e.length() > 48 ? e.substring(0, 48) : e, 1, Integer::sum);
                }
                if (expected instanceof List<?> l && !l.isEmpty()) {
                    lists++;
                }
                assertThat(actual).as("command %d: %s (the last ones: %s)", i, String.join(" ", command),
                        log.subList(Math.max(0, log.size() - 12), log.size())).isEqualTo(expected);
                if (i % 50 == 49) { // the key space as a whole (outside the seeded sequence: it draws no numbers)
                    for (List<String> keySpace : KEY_SPACE) {
                        assertThat(keySpace(g, keySpace)).as("after command %d: %s", i, String.join(" ", keySpace))
                                .isEqualTo(keySpace(r, keySpace));
                    }
                }
            }
            assertThat(errors).as("the sequence checks errors too").isGreaterThan(50);
            assertThat(lists).as("and ranges with members in them").isGreaterThan(300);
            System.out.printf("RespDifferentialTest: %d commands, %d errors, %d non-empty arrays%n", COMMANDS, errors,
                    lists);
            System.out.println("RespDifferentialTest errors: " + kinds);
            for (String key : KEYS) {
                assertThat(send(g, List.of("TYPE", key))).as("the end state of " + key)
                        .isEqualTo(send(r, List.of("TYPE", key)));
            }
        }
    }

    /** Commands whose answers the random sequence meets too rarely: long double sums, overflows, ZMPOP's shapes. */
    private static final List<List<String>> FIXED = List.of(
            list("HINCRBYFLOAT", "n", "f", "0.1"), list("HINCRBYFLOAT", "n", "f", "0.1"),
            list("HINCRBYFLOAT", "n", "f", "0.1"), list("HINCRBYFLOAT", "n", "f", "1.1"),
            list("HINCRBYFLOAT", "n", "f", "1e20"), list("HINCRBYFLOAT", "n", "f", "-1e20"),
            list("HINCRBYFLOAT", "n", "f", "1e-20"), list("HINCRBYFLOAT", "n", "g", "123456789.123456789"),
            list("HINCRBYFLOAT", "n", "g", "0.000001"), list("HINCRBYFLOAT", "n", "h", "1e300"),
            list("HINCRBYFLOAT", "n", "h", "1e4000"), list("HINCRBYFLOAT", "n", "h", "1e4932"),
            list("HINCRBYFLOAT", "n", "h", "-1e4932"), list("HINCRBYFLOAT", "n", "i", "3.0e-3"),
            list("HINCRBYFLOAT", "n", "i", "-0.003"), list("HINCRBYFLOAT", "n", "j", "1.7976931348623157e308"),
            list("HINCRBYFLOAT", "n", "j", "1.7976931348623157e308"), list("HINCRBYFLOAT", "n", "k", "1e4933"),
            list("HINCRBYFLOAT", "n", "k", "1e-4960"), list("HINCRBYFLOAT", "n", "k", "-inf"),
            list("HINCRBYFLOAT", "n", "k", "infinity"), list("HINCRBYFLOAT", "n", "k", " 1"),
            list("HINCRBYFLOAT", "n", "k", "1 "), list("HINCRBYFLOAT", "n", "k", "1e"),
            list("HSET", "n", "l", "inf"), list("HINCRBYFLOAT", "n", "l", "1"), list("HINCRBY", "n", "l", "1"),
            list("HINCRBY", "n", "m", "9223372036854775807"), list("HINCRBY", "n", "m", "1"),
            list("HINCRBY", "n", "m", "-9223372036854775807"), list("HINCRBY", "n", "m", "-9223372036854775808"),
            list("HINCRBY", "n", "m", "-2"), list("HINCRBY", "n", "m", "-9223372036854775808"),
            list("HINCRBY", "n", "m", "9223372036854775808"), list("HINCRBY", "n", "m", "-0"),
            list("HINCRBYFLOAT", "n", "m", "0.5"), list("HINCRBY", "n", "m", "1"), list("HGETALL", "n"),
            list("HINCRBY", "n", "f"), list("HINCRBYFLOAT", "n"), list("HINCRBY", "z", "f", "x"),
            list("SET", "s", "1"), list("HINCRBY", "s", "f", "1"), list("HINCRBYFLOAT", "s", "f", "1"),
            list("HINCRBYFLOAT", "s", "f", "x"),
            list("ZADD", "za", "1", "a", "2", "b", "3", "c"), list("ZADD", "zb", "-1", "x"),
            list("ZMPOP", "2", "zz", "za", "MIN"), list("ZMPOP", "2", "zz", "za", "MAX", "COUNT", "5"),
            list("ZMPOP", "3", "za", "zz", "zb", "min", "count", "2"), list("ZMPOP", "1", "zb", "MIN"),
            list("ZMPOP", "0", "za", "MIN"), list("ZMPOP", "-1", "za", "MIN"), list("ZMPOP", "x", "za", "MIN"),
            list("ZMPOP", "3", "za", "MIN"), list("ZMPOP", "1", "za", "LEFT"), list("ZMPOP", "1", "za", "MIN", "COUNT"),
            list("ZMPOP", "1", "za", "MIN", "COUNT", "0"), list("ZMPOP", "1", "za", "MIN", "COUNT", "1", "COUNT", "1"),
            list("ZMPOP", "2", "s", "za", "MIN"), list("ZMPOP", "1", "n", "MAX"),
            list("ZADD", "zc", "1", "a", "inf", "b", "-0", "c"), list("ZMPOP", "1", "zc", "MAX", "COUNT", "9"),
            list("ZSCAN", "zz", "0"), list("ZSCAN", "s", "0"), list("ZADD", "zd", "1.1", "m"), list("ZSCAN", "zd", "0"),
            list("ZSCAN", "zd", "0", "MATCH", "m*", "COUNT", "10"), list("ZSCAN", "zd", "0", "MATCH", "x*"), list("ZSCAN", "zb", "0", "MATCH"),
            list("ZSCAN", "zb", "0", "COUNT", "0"), list("ZSCAN", "zd", "0", "COUNT", "0"),
            list("ZSCAN", "zd", "0", "MATCH"), list("HSCAN", "nohash", "0", "COUNT", "0"),
            list("ZRANDMEMBER", "s"), list("ZRANDMEMBER", "zz"), list("ZRANDMEMBER", "zz", "5"),
            list("ZRANDMEMBER", "zz", "-5", "WITHSCORES"), list("ZRANDMEMBER", "zz", "1", "SCORES"),
            list("ZRANDMEMBER", "zz", "x"), list("HRANDFIELD", "s"), list("HRANDFIELD", "nohash"),
            list("HRANDFIELD", "nohash", "5"), list("HRANDFIELD", "nohash", "-5", "WITHVALUES"),
            list("HRANDFIELD", "nohash", "1", "VALUES"), list("HRANDFIELD", "nohash", "x"), list("HRANDFIELD", "s", "2"),
            list("HSET", "h1", "f", "v"), list("HRANDFIELD", "h1"), list("HRANDFIELD", "h1", "3", "WITHVALUES"),
            list("HRANDFIELD", "h1", "-2"));

    @Test
    void fixedCommandsAnswerAsRedisDoes() throws Exception {
        try (RedisServer redis = RedisServer.start(tmp); RespNodes n = new RespNodes(Map.of()).start(1);
                Jedis r = new Jedis("127.0.0.1", redis.port); Jedis g = new Jedis("127.0.0.1", n.port(0))) {
            r.flushAll();
            for (List<String> command : FIXED) {
                assertThat(send(g, command)).as(String.join(" ", command)).isEqualTo(send(r, command));
            }
        }
    }

    /** Whole-key-space reads: every string, hash and sorted set counts, is listed and is found by its TYPE. */
    private static final List<List<String>> KEY_SPACE = List.of(List.of("DBSIZE"), List.of("KEYS", "*"),
            List.of("KEYS", "z*"), List.of("SCAN", "0", "COUNT", "1000"), List.of("SCAN", "0", "COUNT", "1000", "TYPE",
                    "hash"), List.of("SCAN", "0", "COUNT", "1000", "TYPE", "zset"),
            List.of("SCAN", "0", "COUNT", "1000", "TYPE", "string"));

    /** A key-space reply with its keys sorted (Redis lists them in its hash table's order, god in byte order). */
    static Object keySpace(Jedis j, List<String> command) {
        Object v = send(j, command);
        if (command.get(0).equals("SCAN") && v instanceof List<?> page) {
            assertThat(page.get(0)).as("one page holds the whole small key space").isEqualTo("0");
            v = page.get(1);
        }
        if (v instanceof List<?> keys) {
            List<String> sorted = new ArrayList<>(keys.stream().map(String::valueOf).toList());
            sorted.sort(null);
            return sorted;
        }
        return v;
    }

    /** The reply as comparable values: strings, numbers, lists; an error as "(error) " and its message. */
    static Object send(Jedis j, List<String> command) {
        ProtocolCommand c = () -> command.get(0).getBytes(StandardCharsets.UTF_8);
        try {
            Object reply = j.sendCommand(c, command.subList(1, command.size()).toArray(new String[0]));
            Object v = plain(reply);
            String name = command.get(0);
            if (UNORDERED.contains(name) && v instanceof List<?> l) {
                List<String> sorted = new ArrayList<>(l.stream().map(String::valueOf).toList());
                sorted.sort(null);
                return sorted;
            }
            if (name.equals("HGETALL") && v instanceof List<?> l) {
                List<List<?>> pairs = new ArrayList<>();
                for (int i = 0; i < l.size(); i += 2) {
                    pairs.add(List.of(l.get(i), l.get(i + 1)));
                }
                pairs.sort(Comparator.comparing(p -> String.valueOf(p.get(0))));
                return pairs;
            }
            return v;
        } catch (JedisDataException e) {
            return "(error) " + e.getMessage();
        }
    }

    static Object plain(Object reply) {
        if (reply instanceof byte[] b) {
            return new String(b, StandardCharsets.UTF_8);
        }
        if (reply instanceof List<?> l) {
            return l.stream().map(RespDifferentialTest::plain).toList();
        }
        return reply;
    }

    // ---- the generator ------------------------------------------------------------------------------------------

    static List<String> next(Random r) {
        int kind = r.nextInt(100);
        if (kind < 3) {
            return pick(r, List.of(List.of("SET", pick(r, KEYS), "v" + r.nextInt(3)), List.of("GET", pick(r, KEYS)),
                    List.of("STRLEN", pick(r, KEYS))));
        }
        if (kind < 8) { // keys of the wrong type go again, so most commands meet the type they expect
            return List.of("DEL", pick(r, KEYS), pick(r, KEYS));
        }
        if (kind < 10) {
            return List.of(r.nextBoolean() ? "TYPE" : "EXISTS", pick(r, KEYS));
        }
        if (kind < 30) {
            return hash(r);
        }
        if (kind < 45) {
            return zwrite(r);
        }
        if (kind < 75) {
            return zread(r);
        }
        if (kind < 85) {
            return lex(r);
        }
        return algebra(r);
    }

    static List<String> hash(Random r) {
        String key = r.nextInt(25) == 0 ? pick(r, KEYS) : "h" + (1 + r.nextInt(2));
        String f = pick(r, FIELDS);
        return switch (r.nextInt(13)) {
            case 0, 1 -> List.of("HSET", key, f, "v" + r.nextInt(100));
            case 2 -> List.of("HSET", key, f, "x", pick(r, FIELDS), "yy");
            case 3 -> List.of("HGET", key, f);
            case 4 -> List.of("HMGET", key, f, pick(r, FIELDS));
            case 5 -> List.of("HDEL", key, f, pick(r, FIELDS));
            case 6 -> List.of("HLEN", key);
            case 7 -> List.of("HEXISTS", key, f);
            case 8 -> List.of(pick(r, new String[] {"HKEYS", "HVALS", "HGETALL"}), key);
            case 9 -> List.of("HSETNX", key, f, "n" + r.nextInt(10));
            case 10 -> List.of("HSTRLEN", key, f);
            case 11 -> List.of("HSET", key, f); // arity
            default -> r.nextInt(4) == 0 ? List.of("HMSET", key, f, "m") : increment(r, key);
        };
    }

    private static final String[] INTEGERS = {"1", "-3", "100", "0", "9223372036854775807", "-9223372036854775808",
        "+1", "01", "1.5", "x", ""};
    private static final String[] FLOATS = {"0.1", "1.1", "-2.5", "1e20", "-1e20", "3", "1e-20", "inf", "nan", "abc",
        "5.0e3", "-0", "1e5000", ".5", "1.", "+7", "1e-5000", "123456789.123456789"};

    /** HINCRBY/HINCRBYFLOAT, mostly on their own fields (the others hold text), mixing integers and floats. */
    static List<String> increment(Random r, String key) {
        String f = r.nextInt(4) == 0 ? pick(r, FIELDS) : "n" + (1 + r.nextInt(2));
        return r.nextBoolean() ? List.of("HINCRBY", key, f, pick(r, INTEGERS))
                : List.of("HINCRBYFLOAT", key, f, pick(r, FLOATS));
    }

    static String zkey(Random r) {
        return r.nextInt(30) == 0 ? pick(r, KEYS) : "z" + (1 + r.nextInt(3));
    }

    static String score(Random r) {
        return r.nextInt(15) == 0 ? pick(r, ODD_SCORES) : pick(r, SCORES);
    }

    static List<String> zwrite(Random r) {
        String key = zkey(r);
        return switch (r.nextInt(9)) {
            case 0, 1, 2 -> {
                List<String> c = new ArrayList<>(List.of("ZADD", key));
                for (String option : new String[] {"NX", "XX", "GT", "LT", "CH", "INCR"}) {
                    if (r.nextInt(6) == 0) {
                        c.add(option);
                    }
                }
                int pairs = r.nextInt(8) == 0 ? 2 : 1;
                for (int i = 0; i < pairs; i++) {
                    c.add(score(r));
                    c.add(pick(r, MEMBERS));
                }
                if (r.nextInt(30) == 0) {
                    c.add("dangling");
                }
                yield c;
            }
            case 3 -> List.of("ZADD", key, score(r), pick(r, MEMBERS), score(r), pick(r, MEMBERS));
            case 4 -> List.of("ZINCRBY", key, score(r), pick(r, MEMBERS));
            case 5 -> List.of("ZREM", key, pick(r, MEMBERS), pick(r, MEMBERS));
            case 6 -> r.nextInt(4) == 0 ? zmpop(r, key)
                    : r.nextBoolean() ? List.of("ZPOPMIN", key) : List.of("ZPOPMAX", key, String.valueOf(r.nextInt(4) - 1));
            case 7 -> List.of("ZADD", "zf", pick(r, ODD_SCORES), pick(r, MEMBERS));
            default -> List.of("ZRANGE", "zf", "0", "-1", "WITHSCORES");
        };
    }

    /** ZMPOP over one or two keys, sometimes with a COUNT (0 is refused). */
    static List<String> zmpop(Random r, String key) {
        List<String> c = new ArrayList<>(r.nextBoolean() ? List.of("ZMPOP", "1", key) : List.of("ZMPOP", "2", key,
                zkey(r)));
        c.add(r.nextBoolean() ? "MIN" : "MAX");
        if (r.nextBoolean()) {
            c.addAll(List.of("COUNT", String.valueOf(r.nextInt(4))));
        }
        return c;
    }

    static List<String> zread(Random r) {
        String key = zkey(r);
        String start = String.valueOf(r.nextInt(9) - 4);
        String stop = String.valueOf(r.nextInt(9) - 4);
        String min = pick(r, BOUNDS);
        String max = pick(r, BOUNDS);
        return switch (r.nextInt(16)) {
            case 0 -> List.of("ZSCORE", key, pick(r, MEMBERS));
            case 1 -> List.of("ZMSCORE", key, pick(r, MEMBERS), pick(r, MEMBERS));
            case 2 -> List.of("ZCARD", key);
            case 3 -> List.of("ZCOUNT", key, min, max);
            case 4 -> List.of(r.nextBoolean() ? "ZRANK" : "ZREVRANK", key, pick(r, MEMBERS));
            case 5, 6 -> withOptions(r, new ArrayList<>(List.of("ZRANGE", key, start, stop)), false);
            case 7 -> withOptions(r, new ArrayList<>(List.of("ZRANGE", key, min, max, "BYSCORE")), true);
            case 8 -> withOptions(r, new ArrayList<>(List.of("ZRANGE", key, max, min, "BYSCORE", "REV")), true);
            case 9 -> withOptions(r, new ArrayList<>(List.of("ZREVRANGE", key, start, stop)), false);
            case 10 -> withOptions(r, new ArrayList<>(List.of("ZRANGEBYSCORE", key, min, max)), true);
            case 11 -> withOptions(r, new ArrayList<>(List.of("ZREVRANGEBYSCORE", key, max, min)), true);
            case 12 -> List.of("ZRANGE", key, start, stop, "LIMIT", "0", "1");
            case 13 -> List.of("ZRANGESTORE", zkey(r), key, start, stop);
            case 14 -> withOptions(r, new ArrayList<>(List.of("ZRANGESTORE", zkey(r), key, min, max, "BYSCORE")), true)
                    .stream().filter(a -> !a.equals("WITHSCORES")).toList();
            default -> List.of("ZRANGE", key, start, "x");
        };
    }

    static List<String> withOptions(Random r, List<String> c, boolean limit) {
        if (r.nextBoolean()) {
            c.add("WITHSCORES");
        }
        if (limit && r.nextInt(3) == 0) {
            c.addAll(List.of("LIMIT", String.valueOf(r.nextInt(4) - (r.nextInt(8) == 0 ? 2 : 0)),
                    String.valueOf(r.nextInt(5) - 1)));
        }
        return c;
    }

    static List<String> lex(Random r) {
        String key = r.nextInt(25) == 0 ? pick(r, KEYS) : "zl";
        String min = pick(r, LEX);
        String max = pick(r, LEX);
        List<String> c = switch (r.nextInt(7)) {
            case 0, 1 -> List.of("ZADD", key, "0", pick(r, MEMBERS));
            case 2 -> List.of("ZLEXCOUNT", key, min, max);
            case 3 -> new ArrayList<>(List.of("ZRANGEBYLEX", key, min, max));
            case 4 -> new ArrayList<>(List.of("ZREVRANGEBYLEX", key, max, min));
            case 5 -> new ArrayList<>(List.of("ZRANGE", key, min, max, "BYLEX"));
            default -> new ArrayList<>(List.of("ZRANGE", key, max, min, "BYLEX", "REV"));
        };
        if (c instanceof ArrayList<String> l && r.nextInt(3) == 0) {
            l.addAll(List.of("LIMIT", String.valueOf(r.nextInt(3)), String.valueOf(r.nextInt(4) - 1)));
        }
        if (c instanceof ArrayList<String> l && r.nextInt(12) == 0) {
            l.add("WITHSCORES");
        }
        return c;
    }

    static List<String> algebra(Random r) {
        String name = pick(r, new String[] {"ZUNIONSTORE", "ZINTERSTORE", "ZDIFFSTORE", "ZUNION", "ZINTER", "ZDIFF"});
        boolean store = name.endsWith("STORE");
        List<String> c = new ArrayList<>(List.of(name));
        if (store) {
            c.add(r.nextBoolean() ? "z3" : "zd");
        }
        int n = 1 + r.nextInt(3);
        c.add(r.nextInt(25) == 0 ? "0" : String.valueOf(n));
        for (int i = 0; i < n; i++) {
            c.add(r.nextInt(30) == 0 ? pick(r, KEYS) : "z" + (1 + r.nextInt(2)));
        }
        if (!name.startsWith("ZDIFF") && r.nextBoolean()) {
            c.add("WEIGHTS");
            for (int i = 0; i < n; i++) {
                c.add(pick(r, new String[] {"1", "2", "0.5", "-1", "0", "3"}));
            }
        }
        if (!name.startsWith("ZDIFF") && r.nextBoolean()) {
            c.addAll(List.of("AGGREGATE", pick(r, new String[] {"SUM", "MIN", "MAX", "AVG"})));
        }
        if (!store && r.nextBoolean()) {
            c.add("WITHSCORES");
        }
        if (r.nextInt(8) == 0) {
            c.add(r.nextInt(3) == 0 ? "WITHSCORES" : "z1");
        }
        return c;
    }

    static <T> T pick(Random r, T[] from) {
        return from[r.nextInt(from.length)];
    }

    static <T> T pick(Random r, List<T> from) {
        return from.get(r.nextInt(from.size()));
    }

    static List<String> list(String... s) {
        return Arrays.asList(s);
    }
}

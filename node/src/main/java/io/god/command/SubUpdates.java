package io.god.command;

import io.god.node.GodNode;
import io.god.node.Store;
import io.god.persist.Record;
import io.god.setop.Encodings;
import io.god.tree.Item;
import io.god.tree.TreeState;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The read-modify-write commands on a key's sub tree ({@link Command#SUB_UPDATE}), run at the key's owner: hashes
 * (a plain sub tree) and sorted sets (a mirrored one, {@link ScoreCodec} values). Given the tree and the request,
 * the records to write and the answer, computed and applied while no other update of this node runs, so ZADD
 * NX/XX/GT/LT/CH/INCR, HSETNX and ZPOPMIN see the value they change. Also where the type of a key is decided for a
 * write: a top-level value is a string, a mirrored non-empty sub tree a zset, any other non-empty one a hash;
 * mixing them is WRONGTYPE. Plain SubPut/SubDel calls of the JSON contract do not take part in that exclusion.
 *
 * <p>The request's Value is {@link #encode}d: the operation's name and its arguments.
 */
public final class SubUpdates {

    /** Redis' message for a command on a key of another type. */
    public static final String WRONGTYPE = "WRONGTYPE Operation against a key holding the wrong kind of value";

    /** The types of a key. */
    public enum Kind { NONE, STRING, HASH, ZSET }

    /**
     * What an update wrote (to replicate) and answers: a number and, for some, values (null: a nil answer). Scores
     * travel as setop's float64 (IEEE-754 bytes) in arguments and in ZADD INCR's answer (a −0.0 answers -0 though it
     * is stored as 0, as in Redis); ZPOPMIN/MAX answer the stored {@link ScoreCodec} bytes.
     */
    public record Outcome(List<Record> records, long n, List<byte[]> values) {
    }

    /** ZADD's options, as {@link #encode}d flags. */
    public static final Set<String> ZADD_FLAGS = Set.of("NX", "XX", "GT", "LT", "CH", "INCR");

    private static final Map<String, String> ZSET_CONF = Map.of(TreeState.MIRRORED, "yes");

    private final GodNode node;
    private final Admission admission;

    public SubUpdates(GodNode node, Admission admission) {
        this.node = node;
        this.admission = admission;
    }

    /** The Value of a SubUpdate request: the operation and its arguments, each length-prefixed. */
    public static byte[] encode(String op, List<byte[]> args) {
        byte[] name = op.getBytes(StandardCharsets.US_ASCII);
        int size = 4 + 4 + name.length;
        for (byte[] a : args) {
            size += 4 + a.length;
        }
        ByteBuffer b = ByteBuffer.allocate(size).putInt(args.size() + 1).putInt(name.length).put(name);
        args.forEach(a -> b.putInt(a.length).put(a));
        return b.array();
    }

    static List<byte[]> decode(byte[] value) {
        try {
            ByteBuffer b = ByteBuffer.wrap(value == null ? new byte[0] : value);
            int n = b.getInt();
            if (n < 1 || n > b.remaining() / 4) {
                throw new IllegalArgumentException();
            }
            List<byte[]> out = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                byte[] a = new byte[b.getInt()];
                b.get(a);
                out.add(a);
            }
            if (b.hasRemaining()) {
                throw new IllegalArgumentException();
            }
            return out;
        } catch (RuntimeException e) {
            throw new CommandError(400, "SubUpdate: Value is not an encoded update (SubUpdates#encode)");
        }
    }

    /** The type of {@code key} in {@code s}. */
    public static Kind kind(TreeState s, byte[] key) {
        return kind(s.get(key).exists(), s.sub(key));
    }

    /** The type of a key that holds a top-level value ({@code string}) or not, and this sub tree. */
    private static Kind kind(boolean string, TreeState sub) {
        if (string) {
            return Kind.STRING;
        }
        if (sub.values().size() == 0) {
            return Kind.NONE;
        }
        return sub.isMirrored() ? Kind.ZSET : Kind.HASH;
    }

    /** Runs one update on {@code store} and applies its records; the caller replicates them. */
    public Outcome run(Store store, byte[] key, byte[] value) {
        List<byte[]> args = decode(value);
        String op = new String(args.get(0), StandardCharsets.US_ASCII);
        List<byte[]> rest = args.subList(1, args.size());
        synchronized (store) { // node-wide: read, decide and apply as one step against every other update
            Update u = new Update(store.state(), key);
            Outcome o = switch (op) {
                case "hset" -> u.hset(rest, false);
                case "hsetnx" -> u.hset(rest, true);
                case "hdel" -> u.remove(rest, Kind.HASH);
                case "hincrby" -> u.hincrby(rest);
                case "hincrbyfloat" -> u.hincrbyfloat(rest);
                case "zrem" -> u.remove(rest, Kind.ZSET);
                case "zadd" -> u.zadd(rest);
                case "zpop" -> u.zpop(rest);
                case "zstore" -> u.zstore(rest);
                case "del" -> u.del();
                default -> throw new CommandError(400, "SubUpdate: unknown update " + op);
            };
            if (!o.records().isEmpty()) {
                store.applyAll(o.records());
            }
            return o;
        }
    }

    /**
     * One update: the key's sub tree as its records so far leave it. A record of the sub tree changes only that, and
     * the tree follows the records only when one of another kind comes (before, each record copied the top-level path:
     * a ZADD of a new key did so twice before its records were applied to the store).
     */
    private final class Update {
        /** The tree as records[0, applied) leave it. */
        private TreeState s;
        private int applied;
        /** The key's sub tree as every record so far leaves it. */
        private TreeState sub;
        private final byte[] key;
        private final List<Record> records = new ArrayList<>();

        Update(TreeState s, byte[] key) {
            this.s = s;
            this.key = key;
            this.sub = s.sub(key);
        }

        private void write(Record r) {
            records.add(r);
            TreeState changed = Arrays.equals(r.key(), key) ? r.applyToSub(sub) : null;
            if (changed != null) {
                if (r.timestamp() > s.clearedAt()) { // as TreeState#withSub: no newer than the last clear, no change
                    sub = changed;
                }
                return;
            }
            for (int i = applied; i < records.size(); i++) {
                s = records.get(i).applyTo(s);
            }
            applied = records.size();
            sub = s.sub(key);
        }

        private Kind kind() {
            return SubUpdates.kind(s.get(key).exists(), sub);
        }

        private long ts() {
            return node.timestamps().next();
        }

        private TreeState sub() {
            return sub;
        }

        /** Refuses another type; an absent key becomes one of {@code kind} (its sub tree configured so). */
        private void become(Kind kind) {
            Kind k = kind();
            if (k != Kind.NONE && k != kind) {
                throw new CommandError(400, WRONGTYPE);
            }
            if (k == Kind.NONE && sub().isMirrored() != (kind == Kind.ZSET)) {
                write(Record.subSetConfiguration(key, kind == Kind.ZSET ? ZSET_CONF : Map.of(), ts()));
            }
        }

        private Outcome done(long n, List<byte[]> values) {
            return new Outcome(records, n, values);
        }

        Outcome hset(List<byte[]> pairs, boolean onlyNew) {
            for (int i = 0; i < pairs.size(); i += 2) {
                admission.checkKey(pairs.get(i), "SubKey");
                admission.checkValue(pairs.get(i + 1), "Value");
            }
            become(Kind.HASH);
            long added = 0;
            for (int i = 0; i + 1 < pairs.size(); i += 2) {
                boolean exists = sub().get(pairs.get(i)).exists();
                if (!exists || !onlyNew) {
                    write(Record.subPut(key, pairs.get(i), pairs.get(i + 1), ts()));
                }
                added += exists ? 0 : 1;
            }
            return done(added, List.of());
        }

        /** field, increment (a string2ll integer): HINCRBY, answering the new value. */
        Outcome hincrby(List<byte[]> args) {
            Long incr = RedisNumbers.integer(args.get(1));
            if (incr == null) {
                throw new CommandError(400, "value is not an integer or out of range");
            }
            Item old = fieldOf(args.get(0));
            long value = 0;
            if (old.exists()) {
                Long v = RedisNumbers.integer(old.value());
                if (v == null) {
                    throw new CommandError(400, "hash value is not an integer");
                }
                value = v;
            }
            if (incr < 0 && value < 0 && incr < Long.MIN_VALUE - value
                    || incr > 0 && value > 0 && incr > Long.MAX_VALUE - value) {
                throw new CommandError(400, "increment or decrement would overflow");
            }
            value += incr;
            write(Record.subPut(key, args.get(0), Long.toString(value).getBytes(StandardCharsets.US_ASCII), ts()));
            return done(value, List.of());
        }

        /** field, increment (a finite long double): HINCRBYFLOAT, answering the new value as stored. */
        Outcome hincrbyfloat(List<byte[]> args) {
            BigDecimal incr = RedisNumbers.longDouble(args.get(1));
            if (incr == null) {
                throw new CommandError(400, "value is not a valid float");
            }
            if (incr == RedisNumbers.INFINITE) {
                throw new CommandError(400, "value is NaN or Infinity");
            }
            Item old = fieldOf(args.get(0));
            BigDecimal value = BigDecimal.ZERO;
            if (old.exists()) {
                value = RedisNumbers.longDouble(old.value());
                if (value == null || value == RedisNumbers.INFINITE) { // Redis takes a stored inf, then refuses the sum
                    throw new CommandError(400, value == null ? "hash value is not a float"
                            : "increment would produce NaN or Infinity");
                }
            }
            value = RedisNumbers.add(value, incr);
            if (value == RedisNumbers.INFINITE) {
                throw new CommandError(400, "increment would produce NaN or Infinity");
            }
            byte[] stored = RedisNumbers.human(value).getBytes(StandardCharsets.US_ASCII);
            admission.checkValue(stored, "Value");
            write(Record.subPut(key, args.get(0), stored, ts()));
            return done(0, List.of(stored));
        }

        /** The field of a hash (the key becomes one: WRONGTYPE for another type). */
        private Item fieldOf(byte[] field) {
            admission.checkKey(field, "SubKey");
            become(Kind.HASH);
            return sub().get(field);
        }

        Outcome remove(List<byte[]> members, Kind kind) {
            Kind k = kind();
            if (k != Kind.NONE && k != kind) {
                throw new CommandError(400, WRONGTYPE);
            }
            long removed = 0;
            for (byte[] m : members) {
                if (sub().get(m).exists()) {
                    write(Record.subDelete(key, m, ts()));
                    removed++;
                }
            }
            return done(removed, List.of());
        }

        /** flags, then score (float64) and member pairs. */
        Outcome zadd(List<byte[]> args) {
            Set<String> flags = Set.of(new String(args.get(0), StandardCharsets.US_ASCII).split(","));
            List<byte[]> pairs = args.subList(1, args.size());
            check(pairs);
            become(Kind.ZSET);
            boolean incr = flags.contains("INCR");
            long added = 0;
            long changed = 0;
            Double answer = null; // INCR's: the score computed (a −0.0 answers -0 though it is stored as 0, as in Redis)
            for (int i = 0; i + 1 < pairs.size(); i += 2) {
                byte[] member = pairs.get(i + 1);
                double score = Encodings.decodeFloat64(pairs.get(i));
                Item old = sub().get(member);
                answer = null;
                if (old.exists() ? flags.contains("NX") : flags.contains("XX")) {
                    continue;
                }
                double now = score;
                if (old.exists()) {
                    double was = ScoreCodec.decode(old.value());
                    now = incr ? was + score : score;
                    if (Double.isNaN(now)) {
                        throw new CommandError(400, "resulting score is not a number (NaN)");
                    }
                    if (flags.contains("GT") && !(now > was) || flags.contains("LT") && !(now < was)) {
                        continue;
                    }
                }
                answer = now;
                byte[] stored = ScoreCodec.encode(now);
                if (!old.exists()) {
                    added++;
                } else if (Arrays.equals(stored, old.value())) {
                    continue;
                } else {
                    changed++;
                }
                write(Record.subPut(key, member, stored, ts()));
            }
            if (incr) {
                return done(0, answer == null ? null : List.of(Encodings.encodeFloat64(answer)));
            }
            return done(flags.contains("CH") ? added + changed : added, List.of());
        }

        /** "min" or "max", then the count: the members and scores taken, in order. */
        Outcome zpop(List<byte[]> args) {
            boolean max = "max".equals(new String(args.get(0), StandardCharsets.US_ASCII));
            long count = Long.parseLong(new String(args.get(1), StandardCharsets.US_ASCII));
            Kind k = kind();
            if (k != Kind.NONE && k != Kind.ZSET) {
                throw new CommandError(400, WRONGTYPE);
            }
            List<byte[]> out = new ArrayList<>();
            long size = sub().mirror().size();
            long take = Math.min(count, Math.min(size, node.settings().limits().resultRows()));
            if (take > 0) {
                for (Item i : sub().mirror().sliceIndex(0, take - 1, max)) {
                    out.add(i.value());
                    out.add(i.key());
                }
            }
            for (int i = 0; i < out.size(); i += 2) {
                write(Record.subDelete(key, out.get(i), ts()));
            }
            return done(out.size() / 2, out);
        }

        /** Replaces the key, whatever its type, with the sorted set of these score (float64) and member pairs. */
        Outcome zstore(List<byte[]> pairs) {
            check(pairs);
            del();
            if (!pairs.isEmpty()) {
                write(Record.subSetConfiguration(key, ZSET_CONF, ts()));
            }
            for (int i = 0; i + 1 < pairs.size(); i += 2) {
                write(Record.subPut(key, pairs.get(i + 1),
                        ScoreCodec.encode(Encodings.decodeFloat64(pairs.get(i))), ts()));
            }
            return done(pairs.size() / 2, List.of());
        }

        /** Score and member pairs: 8-byte non-NaN scores, members within god.limits.key-size. */
        private void check(List<byte[]> pairs) {
            if (pairs.size() % 2 != 0) {
                throw new CommandError(400, "SubUpdate: scores and members come in pairs");
            }
            for (int i = 0; i < pairs.size(); i += 2) {
                if (pairs.get(i).length != 8 || Double.isNaN(Encodings.decodeFloat64(pairs.get(i)))) {
                    throw new CommandError(400, "SubUpdate: a score is not an 8-byte float64 number");
                }
                admission.checkKey(pairs.get(i + 1), "SubKey");
            }
        }

        /** Deletes the key whatever its type: 1 when it existed. */
        Outcome del() {
            Kind k = kind();
            if (k == Kind.STRING) {
                write(Record.delete(key, ts()));
            }
            if (sub().values().size() > 0) {
                write(Record.subClear(key, ts()));
            }
            return done(k == Kind.NONE ? 0 : 1, List.of());
        }
    }
}

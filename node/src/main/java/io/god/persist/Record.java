package io.god.persist;

import io.god.tree.Entry;
import io.god.tree.Hash128;
import io.god.tree.TreeState;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One logged mutation with its timestamp. Every kind is a last-write-wins write, so a set of records
 * gives the same tree whatever order it is applied in (configuration is logged as the whole
 * resulting map, never as a single-key change, to keep that property).
 *
 * <p>Body encoding (inside a {@link Frames frame}): kind byte, timestamp (8 bytes, big-endian), then
 * the kind's fields; byte strings are a varint length + bytes, maps a varint count + UTF-8 strings.
 */
public final class Record {

    public enum Kind {
        PUT(1), DELETE(2), SUB_PUT(3), SUB_DELETE(4), SUB_CLEAR(5), SUB_CONFIGURATION(6), CONFIGURATION(7),
        CLEAR(8),
        /** Local only, never replicated: the key's entry is removed without a tombstone (cleaning). */
        DROP(9);

        final byte code;

        Kind(int code) {
            this.code = (byte) code;
        }

        static Kind of(byte code) {
            for (Kind k : values()) {
                if (k.code == code) {
                    return k;
                }
            }
            return null;
        }
    }

    private final Kind kind;
    private final long timestamp;
    private final byte[] key;
    private final byte[] subKey;
    private final byte[] value;
    private final Map<String, String> configuration;

    private Record(Kind kind, long timestamp, byte[] key, byte[] subKey, byte[] value, Map<String, String> conf) {
        this.kind = kind;
        this.timestamp = timestamp;
        this.key = key;
        this.subKey = subKey;
        this.value = value;
        this.configuration = conf;
    }

    public static Record put(byte[] key, byte[] value, long ts) {
        return new Record(Kind.PUT, ts, key.clone(), null, value.clone(), null);
    }

    public static Record delete(byte[] key, long ts) {
        return new Record(Kind.DELETE, ts, key.clone(), null, null, null);
    }

    public static Record subPut(byte[] key, byte[] subKey, byte[] value, long ts) {
        return new Record(Kind.SUB_PUT, ts, key.clone(), subKey.clone(), value.clone(), null);
    }

    public static Record subDelete(byte[] key, byte[] subKey, long ts) {
        return new Record(Kind.SUB_DELETE, ts, key.clone(), subKey.clone(), null, null);
    }

    public static Record subClear(byte[] key, long ts) {
        return new Record(Kind.SUB_CLEAR, ts, key.clone(), null, null, null);
    }

    public static Record subSetConfiguration(byte[] key, Map<String, String> conf, long ts) {
        return new Record(Kind.SUB_CONFIGURATION, ts, key.clone(), null, null,
                Collections.unmodifiableSortedMap(new TreeMap<>(conf)));
    }

    public static Record setConfiguration(Map<String, String> conf, long ts) {
        return new Record(Kind.CONFIGURATION, ts, null, null, null,
                Collections.unmodifiableSortedMap(new TreeMap<>(conf)));
    }

    /**
     * Removes key's whole entry (value, tombstone, sub tree) leaving no tombstone: cleaning, after
     * the key's owners confirmed they hold it. Not a last-write-wins write: logged locally, never sent.
     */
    public static Record drop(byte[] key, long ts) {
        return new Record(Kind.DROP, ts, key.clone(), null, null, null);
    }

    /**
     * A compare-and-drop: removes key's entry as {@link #drop} does, but only while it is still the
     * version {@code expected} (same hash and timestamp), so a write that arrives between the owners'
     * confirmation and the drop is never lost. The expected version travels in the value field.
     */
    public static Record dropIfUnchanged(byte[] key, Entry expected, long ts) {
        byte[] v = java.nio.ByteBuffer.allocate(24).putLong(expected.entryHash().h1()).putLong(expected.entryHash().h2())
                .putLong(expected.timestamp()).array();
        return new Record(Kind.DROP, ts, key.clone(), null, v, null);
    }

    public static Record clear(long ts) {
        return new Record(Kind.CLEAR, ts, null, null, null, null);
    }

    public Kind kind() {
        return kind;
    }

    public long timestamp() {
        return timestamp;
    }

    public byte[] key() {
        return key;
    }

    public byte[] subKey() {
        return subKey;
    }

    public byte[] value() {
        return value;
    }

    public Map<String, String> configuration() {
        return configuration;
    }

    /** The tree version after this write (the same version when the write loses). */
    public TreeState applyTo(TreeState s) {
        return switch (kind) {
            case PUT -> s.put(key, value, timestamp);
            case DELETE -> s.delete(key, timestamp);
            case SUB_PUT -> s.subPut(key, subKey, value, timestamp);
            case SUB_DELETE -> s.subDelete(key, subKey, timestamp);
            case SUB_CLEAR -> s.subClear(key, timestamp);
            case SUB_CONFIGURATION -> s.subSetConfiguration(key, configuration, timestamp);
            case CONFIGURATION -> s.setConfiguration(configuration, timestamp);
            case CLEAR -> s.clear(timestamp);
            case DROP -> value == null ? s.drop(key) : dropIfUnchanged(s);
        };
    }

    /**
     * What this record does to its key's sub tree, given that sub tree ({@code s.sub(key())}), or null for a record
     * that is no change of a sub tree: {@code applyTo(s).sub(key())} is {@code applyToSub(s.sub(key()))} for a tree
     * cleared before this record's timestamp. A read-modify-write of one sub tree (SubUpdates) follows its records on
     * the sub tree alone, without copying the top-level path for each.
     */
    public TreeState applyToSub(TreeState sub) {
        return switch (kind) {
            case SUB_PUT -> sub.put(subKey, value, timestamp);
            case SUB_DELETE -> sub.delete(subKey, timestamp);
            case SUB_CLEAR -> sub.clear(timestamp);
            case SUB_CONFIGURATION -> sub.setConfiguration(configuration, timestamp);
            default -> null;
        };
    }

    private TreeState dropIfUnchanged(TreeState s) {
        java.nio.ByteBuffer v = java.nio.ByteBuffer.wrap(value);
        return s.dropIf(key, new Hash128(v.getLong(), v.getLong()), v.getLong());
    }

    // ------------------------------------------------------------------ encoding

    /** This record's body (kind, timestamp, fields) as recovery reads it: the body of its {@link #frame}. */
    public byte[] encode() {
        byte[] frame = frame();
        return Arrays.copyOfRange(frame, Frames.HEADER, frame.length);
    }

    /** The body of a configuration record, whose map the stream writes. */
    private byte[] configurationBody() {
        ByteArrayOutputStream out = new ByteArrayOutputStream(64 + len(key));
        out.write(kind.code);
        writeLong(out, timestamp);
        if (kind == Kind.SUB_CONFIGURATION) {
            writeBytes(out, key);
        }
        writeMap(out, configuration);
        return out.toByteArray();
    }

    /**
     * This record as one log or snapshot frame ({@link Frames}): the one place its fields are laid out ({@link #encode}
     * is this frame's body). The kinds of a write's hot path are written straight into the frame's one array — a
     * stream (synchronized, a byte at a time), its copy and the frame's were a tenth of a durable RESP SET's
     * allocation (async-profiler).
     */
    byte[] frame() {
        byte[] a;
        byte[] b = null;
        byte[] c = null;
        switch (kind) {
            case PUT -> {
                a = Objects.requireNonNull(key);
                b = Objects.requireNonNull(value);
            }
            case DELETE, SUB_CLEAR -> a = Objects.requireNonNull(key);
            case DROP -> {
                a = Objects.requireNonNull(key);
                b = value; // the expected version, when there is one
            }
            case SUB_PUT -> {
                a = Objects.requireNonNull(key);
                b = Objects.requireNonNull(subKey);
                c = Objects.requireNonNull(value);
            }
            case SUB_DELETE -> {
                a = Objects.requireNonNull(key);
                b = Objects.requireNonNull(subKey);
            }
            case CLEAR -> a = null;
            case SUB_CONFIGURATION, CONFIGURATION -> {
                return Frames.frame(configurationBody());
            }
            default -> throw new IllegalStateException("record kind " + kind);
        }
        int size = 1 + 8 + sized(a) + sized(b) + sized(c);
        ByteBuffer out = ByteBuffer.allocate(Frames.HEADER + Frames.checkedBody(size));
        out.position(Frames.HEADER);
        out.put(kind.code).putLong(timestamp);
        put(out, a);
        put(out, b);
        put(out, c);
        Frames.seal(out.array(), size);
        return out.array();
    }

    /** A byte string's encoded size (varint length and bytes); 0 for none. */
    private static int sized(byte[] field) {
        if (field == null) {
            return 0;
        }
        int n = 1;
        for (int v = field.length; (v & ~0x7f) != 0; v >>>= 7) {
            n++;
        }
        return n + field.length;
    }

    /** Writes a byte string as {@link #writeBytes} does; nothing for none. */
    private static void put(ByteBuffer out, byte[] field) {
        if (field == null) {
            return;
        }
        int v = field.length;
        while ((v & ~0x7f) != 0) {
            out.put((byte) ((v & 0x7f) | 0x80));
            v >>>= 7;
        }
        out.put((byte) v);
        out.put(field);
    }

    /** Decodes a body; throws {@link CorruptDataException} when it is not a well-formed record. */
    public static Record decode(byte[] body) {
        try {
            ByteBuffer in = ByteBuffer.wrap(body);
            Kind kind = Kind.of(in.get());
            if (kind == null) {
                throw new CorruptDataException("unknown record kind " + body[0]);
            }
            long ts = in.getLong();
            if (ts <= 0) {
                throw new CorruptDataException("record timestamp " + ts + " is not positive");
            }
            Record r = switch (kind) {
                case PUT -> new Record(kind, ts, readBytes(in), null, readBytes(in), null);
                case DELETE, SUB_CLEAR -> new Record(kind, ts, readBytes(in), null, null, null);
                case DROP -> {
                    byte[] k = readBytes(in);
                    byte[] expected = in.hasRemaining() ? readBytes(in) : null;
                    if (expected != null && expected.length != 24) {
                        throw new CorruptDataException("drop expectation of " + expected.length + " bytes");
                    }
                    yield new Record(kind, ts, k, null, expected, null);
                }
                case SUB_PUT -> new Record(kind, ts, readBytes(in), readBytes(in), readBytes(in), null);
                case SUB_DELETE -> new Record(kind, ts, readBytes(in), readBytes(in), null, null);
                case SUB_CONFIGURATION -> new Record(kind, ts, readBytes(in), null, null, readMap(in));
                case CONFIGURATION -> new Record(kind, ts, null, null, null, readMap(in));
                case CLEAR -> new Record(kind, ts, null, null, null, null);
            };
            if (in.hasRemaining()) {
                throw new CorruptDataException(in.remaining() + " stray bytes after a " + kind + " record");
            }
            return r;
        } catch (java.nio.BufferUnderflowException | IllegalArgumentException e) {
            throw new CorruptDataException("malformed record: " + e);
        }
    }

    static void writeLong(ByteArrayOutputStream out, long v) {
        for (int i = 56; i >= 0; i -= 8) {
            out.write((int) (v >>> i));
        }
    }

    static void writeVarint(ByteArrayOutputStream out, int v) {
        while ((v & ~0x7f) != 0) {
            out.write((v & 0x7f) | 0x80);
            v >>>= 7;
        }
        out.write(v);
    }

    static void writeBytes(ByteArrayOutputStream out, byte[] b) {
        writeVarint(out, b.length);
        out.write(b, 0, b.length);
    }

    static void writeMap(ByteArrayOutputStream out, Map<String, String> m) {
        writeVarint(out, m.size());
        for (Map.Entry<String, String> e : m.entrySet()) {
            writeBytes(out, e.getKey().getBytes(StandardCharsets.UTF_8));
            writeBytes(out, e.getValue().getBytes(StandardCharsets.UTF_8));
        }
    }

    static int readVarint(ByteBuffer in) {
        int v = 0;
        for (int shift = 0; shift < 32; shift += 7) {
            byte b = in.get();
            v |= (b & 0x7f) << shift;
            if ((b & 0x80) == 0) {
                if (v < 0) {
                    throw new CorruptDataException("negative length");
                }
                return v;
            }
        }
        throw new CorruptDataException("varint too long");
    }

    static byte[] readBytes(ByteBuffer in) {
        int n = readVarint(in);
        if (n > in.remaining()) {
            throw new CorruptDataException("length " + n + " beyond the record");
        }
        byte[] b = new byte[n];
        in.get(b);
        return b;
    }

    static Map<String, String> readMap(ByteBuffer in) {
        int n = readVarint(in);
        TreeMap<String, String> m = new TreeMap<>();
        for (int i = 0; i < n; i++) {
            m.put(new String(readBytes(in), StandardCharsets.UTF_8), new String(readBytes(in), StandardCharsets.UTF_8));
        }
        return Collections.unmodifiableSortedMap(m);
    }

    private static int len(byte[] b) {
        return b == null ? 0 : b.length + 5;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Record r && kind == r.kind && timestamp == r.timestamp && Arrays.equals(key, r.key)
                && Arrays.equals(subKey, r.subKey) && Arrays.equals(value, r.value)
                && Objects.equals(configuration, r.configuration);
    }

    @Override
    public int hashCode() {
        return Objects.hash(kind, timestamp, Arrays.hashCode(key), Arrays.hashCode(subKey), Arrays.hashCode(value));
    }

    @Override
    public String toString() {
        return kind + "@" + timestamp + (key != null ? " key=" + hex(key) : "") + (subKey != null ? " sub=" + hex(subKey) : "")
                + (value != null ? " value=" + hex(value) : "") + (configuration != null ? " conf=" + configuration : "");
    }

    private static String hex(byte[] b) {
        StringBuilder sb = new StringBuilder();
        for (byte x : b) {
            sb.append(String.format("%02x", x));
        }
        return sb.toString();
    }
}

package io.god.backup;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code manifest.json} of a backup (format {@value #FORMAT}, version {@value #VERSION}; see
 * docs/operations.md). While a backup runs the same document is kept as {@code progress.json} with
 * {@code complete: false}; {@code --resume} continues from it. Keys and positions are hex. The document
 * carries the sha256 of its own content ({@link #sha256}): one edited by hand or damaged (a changed
 * {@code newestTimestamp} would mislead the resurrection guard) is refused when read.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public final class Manifest {

    public static final String FORMAT = "god-backup";
    /** 2: the manifest's own sha256 (version 1 had none). */
    public static final int VERSION = 2;
    static final String FILE = "manifest.json";
    static final String PROGRESS = "progress.json";
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    /** The form the checksum covers: compact, properties in alphabetical order, without {@link #sha256}. */
    private static final ObjectMapper CANONICAL = JsonMapper.builder()
            .enable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY).build();

    public String format = FORMAT;
    public int version = VERSION;
    public boolean complete;
    public String startedAt;
    public String finishedAt;
    /** The source ring's N (god.redundancy). */
    public int redundancy;
    /** The ring when the backup started, sorted by position. */
    public List<Member> ring = new ArrayList<>();
    public List<Range> ranges = new ArrayList<>();
    public long records;
    public long tombstones;
    public long bytes;
    /** Newest timestamp (ns) of any record: what the resurrection guard compares with collectedUpTo. */
    public long newestTimestamp;
    /** sha256 (hex) of the canonical form of every other field: set when written, checked when read. */
    public String sha256;

    @JsonIgnoreProperties(ignoreUnknown = true)
    public static final class Member {
        public String position;
        public String address;

        public Member() {
        }

        Member(String position, String address) {
            this.position = position;
            this.address = address;
        }
    }

    /** Keys in [from, to) (hex; "" = unbounded), owned by {@code owner} when the backup started. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public static final class Range {
        public int index;
        public String from;
        public String to;
        public String owner;
        public boolean complete;
        public List<Chunk> chunks = new ArrayList<>();
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public static final class Chunk {
        public String file;
        public String sha256;
        public long bytes;
        public long records;
        public long tombstones;
        public long newestTimestamp;
        /** The last top-level key in the chunk (hex): where a resumed backup goes on. */
        public String lastKey;
        /** The member the chunk was read from. */
        public String readFrom;
    }

    /** The document with its checksum (set here). */
    byte[] toJson() {
        sha256 = digest();
        try {
            return JSON.writeValueAsBytes(this);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The sha256 of the canonical form of every field but {@link #sha256}. */
    private String digest() {
        String stored = sha256;
        sha256 = null;
        try {
            return Chunks.sha256(CANONICAL.writeValueAsBytes(this));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } finally {
            sha256 = stored;
        }
    }

    static Manifest parse(byte[] json, String name) {
        Manifest m;
        try {
            m = JSON.readValue(json, Manifest.class);
        } catch (IOException e) {
            throw new BackupException(name + " is not a god backup manifest: " + e.getMessage());
        }
        if (!FORMAT.equals(m.format)) {
            throw new BackupException(name + ": format '" + m.format + "', expected '" + FORMAT + "'");
        }
        if (m.version != VERSION) {
            throw new BackupException(name + ": format version " + m.version + " is not supported (this tool reads "
                    + VERSION + ")");
        }
        if (m.sha256 == null) {
            throw new BackupException(name + " has no sha256 of its content: not written by god-backup, or edited");
        }
        String actual = m.digest();
        if (!actual.equals(m.sha256)) {
            throw new BackupException(name + " was edited or is damaged: its content has sha256 " + actual
                    + ", its sha256 field says " + m.sha256 + "; refused");
        }
        return m;
    }

    /** Totals from the chunks. */
    void total() {
        records = 0;
        tombstones = 0;
        bytes = 0;
        newestTimestamp = 0;
        for (Range r : ranges) {
            for (Chunk c : r.chunks) {
                records += c.records;
                tombstones += c.tombstones;
                bytes += c.bytes;
                newestTimestamp = Math.max(newestTimestamp, c.newestTimestamp);
            }
        }
    }
}

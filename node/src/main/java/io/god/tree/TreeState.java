package io.god.tree;

import com.google.common.hash.Hasher;
import com.google.common.hash.Hashing;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.LongConsumer;
import java.util.function.UnaryOperator;

/**
 * One immutable version of a tree: the top-level tree of a node or one sub tree. Reads are plain
 * methods; writes return a new version (or {@code this} when the write loses under last-write-wins),
 * sharing everything they did not touch. See {@link Tree} for the mutable handle.
 *
 * <p>Last write wins, with one rule everywhere: the higher timestamp wins; on equal timestamps a
 * tombstone beats a value, and otherwise the larger value bytes win. A write at or before the
 * tree's {@link #clearedAt()} loses to the clear.
 */
public final class TreeState implements MerkleSource {

    /** The configuration key that turns a mirror on (value "yes") or off (anything else). */
    public static final String MIRRORED = "mirrored";

    public static final TreeState EMPTY = new TreeState(null, null, new TreeMap<>(), 0, 0);

    private final Node root;
    /** The mirror trie when {@link #mirrored} (null is also an empty mirror). */
    private final Node mirror;
    private final boolean mirrored;
    private final SortedMap<String, String> configuration;
    private final long configurationTimestamp;
    private final long clearedAt;
    private final Hash128 hash;

    private TreeState(Node root, Node mirror, SortedMap<String, String> configuration,
                      long configurationTimestamp, long clearedAt) {
        this.root = root;
        this.mirror = mirror;
        this.configuration = configuration;
        this.configurationTimestamp = configurationTimestamp;
        this.clearedAt = clearedAt;
        this.mirrored = "yes".equals(configuration.get(MIRRORED));
        this.hash = combine(root, configuration);
    }

    // ------------------------------------------------------------------ reads

    /** The byte value of key; a tombstone reads as absent but carries its timestamp. */
    public Item get(byte[] key) {
        Entry e = Trie.get(root, key);
        if (e == null || e.timestamp() == 0) {
            return Item.absent(key);
        }
        return new Item(key, e.value(), e.timestamp(), e.hasValue(), -1);
    }

    /**
     * Reads the path to key and nothing else: a write calls it before it takes the tree's write lock, so that the
     * descent's cache misses (most of a write's time in a large tree) are taken outside the lock, overlapping other
     * writers, and the descent under the lock finds the path in the CPU cache.
     */
    public void warm(byte[] key) {
        if (key != null) { // records of the whole tree (clear, configuration) have none
            Trie.get(root, key);
        }
    }

    /**
     * {@link #warm} for a batch of keys ({@code keys[0..count)}) at once, their descents interleaved
     * ({@link Trie#touch}): what a pipelined read of commands is about to read and write is in the CPU cache before
     * the first of them runs. Returns a sum of what it read: the caller keeps it, so that the reads are not
     * optimised away.
     */
    public int warm(byte[][] keys, int count) {
        return count > 0 ? Trie.touch(root, keys, count) : 0;
    }

    /** The stored entry of key (value, tombstone and/or sub tree), or null. */
    public Entry entry(byte[] key) {
        return Trie.get(root, key);
    }

    /** The sub tree under key; {@link #EMPTY} when there is none. */
    public TreeState sub(byte[] key) {
        Entry e = Trie.get(root, key);
        return e == null || e.sub() == null ? EMPTY : e.sub();
    }

    /** The live byte values in key order. */
    public SortedView values() {
        return root == null ? SortedView.EMPTY : new SortedView(root, KeyCodec.PLAIN);
    }

    /** The live byte values ordered by value (then key); empty unless the tree is mirrored. */
    public SortedView mirror() {
        return mirror == null ? SortedView.EMPTY : new SortedView(mirror, KeyCodec.MIRROR);
    }

    public boolean isMirrored() {
        return mirrored;
    }

    /** Live byte values plus the live entries of all sub trees (the reference's Size). */
    public long size() {
        return root == null ? 0 : root.measure(Measure.TOTAL);
    }

    /** Every marker: values, tombstones and all sub-tree entries including their tombstones. */
    public long realSize() {
        return root == null ? 0 : root.real();
    }

    /** {@link #size()} restricted to keys in [from, to); null bounds are open. */
    public long sizeBetween(byte[] from, byte[] to) {
        return between(from, to, Measure.TOTAL);
    }

    /** Keys holding a live value or a non-empty sub tree in [from, to) (null bounds are open): Redis' DBSIZE. */
    public long keysBetween(byte[] from, byte[] to) {
        return between(from, to, Measure.KEYS);
    }

    /**
     * The first key after {@code after} (null: the first key) that holds a live value or a non-empty sub tree;
     * null at the end. Subtrees without such keys are skipped whole, tombstones never walked one by one.
     */
    public byte[] nextKey(byte[] after) {
        Cursor c = new Cursor(root, Measure.KEYS, false);
        if (after != null) {
            c.seek(after, false);
        }
        Entry e = c.next();
        return e == null ? null : e.key();
    }

    /** {@link #realSize()} restricted to keys in [from, to); null bounds are open. */
    public long realSizeBetween(byte[] from, byte[] to) {
        return between(from, to, Measure.REAL);
    }

    /**
     * The entry at position {@code index} in marker order (each entry weighs its {@link #realSize()}
     * share), as used to pick a new ring position when balancing load; null when out of range.
     */
    public Entry markerAt(long index) {
        return Trie.select(root, index, Measure.REAL);
    }

    /** Every entry (values, tombstones, sub-tree holders) in key order, from the first key >= from. */
    public Iterator<Entry> entries(byte[] from) {
        return entries(from, true, false);
    }

    /**
     * Every entry (values, tombstones, sub-tree holders) in key order, or descending when reverse,
     * starting at from (null = the first/last key; inclusive or strictly after/before it).
     */
    public Iterator<Entry> entries(byte[] from, boolean inclusive, boolean reverse) {
        Cursor c = new Cursor(root, Measure.ENTRIES, reverse);
        if (from != null) {
            c.seek(from, inclusive);
        }
        return new Iterator<>() {
            private Entry next = c.next();

            @Override
            public boolean hasNext() {
                return next != null;
            }

            @Override
            public Entry next() {
                if (next == null) {
                    throw new NoSuchElementException();
                }
                Entry e = next;
                next = c.next();
                return e;
            }
        };
    }

    /**
     * The content Merkle hash of the whole tree ({@link HashVersion#CONTENT}): content and configuration,
     * never timestamps or history. Snapshot trailers and DROP records keep using it (readable by every version).
     */
    public Hash128 hash() {
        return hash;
    }

    /** The Merkle hash under a version; {@link HashVersion#STAMPED} also covers every entry's stamp. */
    public Hash128 hash(HashVersion version) {
        return version == HashVersion.CONTENT ? hash : EntryHash.stamped(hash, stamps());
    }

    /** The sum of the stamp parts of every entry (sub trees included): O(1), kept by the branches. */
    long stamps() {
        return root == null ? 0 : root.stamps(root.hash());
    }

    public Map<String, String> configuration() {
        return Collections.unmodifiableSortedMap(configuration);
    }

    public long configurationTimestamp() {
        return configurationTimestamp;
    }

    /** When this tree was last cleared (0 = never); writes at or before it lose. */
    public long clearedAt() {
        return clearedAt;
    }

    /** Earliest moment something in this version may be collected; MAX_VALUE when nothing can. */
    long minDue() {
        long own = root == null ? Long.MAX_VALUE : root.minDue();
        return isDisposable() ? Math.min(own, clearedAt) : own;
    }

    /** An empty, unconfigured sub tree: once its clear is older than the window, it can go. */
    private boolean isDisposable() {
        return root == null && configuration.isEmpty();
    }

    /** The content-hash fingerprint ({@link HashVersion#CONTENT}). */
    @Override
    public Fingerprint fingerprint(byte[] prefix, int nibbles) {
        return fingerprint(prefix, nibbles, HashVersion.CONTENT);
    }

    /** As {@link #fingerprint(byte[], int)}, with the hashes of a version. */
    public Fingerprint fingerprint(byte[] prefix, int nibbles, HashVersion version) {
        Node n = root;
        while (n != null) {
            int nd = n.depth();
            int limit = Math.min(nd, nibbles);
            if (Bytes.mismatch(prefix, n.path(), limit) < limit) {
                return null;
            }
            if (nd >= nibbles) {
                return Fingerprint.of(n, version);
            }
            if (!(n instanceof Branch b)) {
                return null;
            }
            n = b.child(Bytes.nibble(prefix, nd));
        }
        return null;
    }

    // ------------------------------------------------------------------ writes

    /** Stores a byte value at key (last write wins). */
    public TreeState put(byte[] key, byte[] value, long timestamp) {
        requireTimestamp(timestamp);
        return writeValue(key, value, timestamp); // the entry copies the caller's arrays once
    }

    /** Records a tombstone at key (last write wins); created even when the key was never written. */
    public TreeState delete(byte[] key, long timestamp) {
        requireTimestamp(timestamp);
        return writeValue(key, null, timestamp);
    }

    public TreeState subPut(byte[] key, byte[] subKey, byte[] value, long timestamp) {
        requireTimestamp(timestamp);
        return withSub(key, timestamp, s -> s.put(subKey, value, timestamp));
    }

    /** Tombstones subKey; creates the sub tree if needed so a late, older put cannot resurrect it. */
    public TreeState subDelete(byte[] key, byte[] subKey, long timestamp) {
        requireTimestamp(timestamp);
        return withSub(key, timestamp, s -> s.delete(subKey, timestamp));
    }

    /** Clears the sub tree at key as of timestamp; entries written later survive. */
    public TreeState subClear(byte[] key, long timestamp) {
        requireTimestamp(timestamp);
        return withSub(key, timestamp, s -> s.clear(timestamp));
    }

    public TreeState subConfigure(byte[] key, String name, String value, long timestamp) {
        requireTimestamp(timestamp);
        return withSub(key, timestamp, s -> s.configure(name, value, timestamp));
    }

    /** Replaces a sub tree's whole configuration if timestamp is newer (anti-entropy, replay). */
    public TreeState subSetConfiguration(byte[] key, Map<String, String> conf, long timestamp) {
        requireTimestamp(timestamp);
        return withSub(key, timestamp, s -> s.setConfiguration(conf, timestamp));
    }

    /**
     * Removes everything written at or before timestamp (values, tombstones, sub-tree entries) and
     * remembers the clear, so older writes arriving later lose. Configuration is kept.
     */
    public TreeState clear(long timestamp) {
        requireTimestamp(timestamp);
        if (timestamp <= clearedAt) {
            return this;
        }
        Node survivors = null;
        for (Iterator<Entry> it = entries(null); it.hasNext(); ) {
            Entry e = it.next();
            boolean keepValue = e.timestamp() > timestamp;
            TreeState sub = e.sub() == null ? null : e.sub().clear(timestamp);
            if (keepValue || sub != null) {
                survivors = Trie.put(survivors, Entry.of(e.key(), keepValue ? e.value() : null,
                        keepValue ? e.timestamp() : 0, sub));
            }
        }
        return new TreeState(survivors, isMirrored() ? buildMirror(survivors) : null, configuration,
                configurationTimestamp, timestamp);
    }

    /**
     * Removes key's whole entry (value, tombstone and sub tree) without leaving a tombstone: for
     * cleaning data this node no longer replicates, once its owners confirmed they hold it.
     */
    public TreeState drop(byte[] key) {
        Entry old = Trie.get(root, key);
        if (old == null) {
            return this;
        }
        Node nextMirror = mirror;
        if (mirrored && old.hasValue()) {
            nextMirror = Trie.remove(nextMirror, MirrorKeys.encode(old.value(), key));
        }
        return new TreeState(Trie.remove(root, key), nextMirror, configuration, configurationTimestamp, clearedAt);
    }

    /**
     * {@link #drop} only while key's entry is still the given version (its hash, which covers the
     * value and the sub tree, and its timestamp): a compare-and-drop for cleaning.
     */
    public TreeState dropIf(byte[] key, Hash128 expectedHash, long expectedTimestamp) {
        Entry old = Trie.get(root, key);
        if (old == null || !old.hash().equals(expectedHash) || old.timestamp() != expectedTimestamp) {
            return this;
        }
        return drop(key);
    }

    /** Sets one configuration key; a value of "" removes it. Loses to a newer configuration. */
    public TreeState configure(String name, String value, long timestamp) {
        requireTimestamp(timestamp);
        if (timestamp <= configurationTimestamp) {
            return this;
        }
        TreeMap<String, String> next = new TreeMap<>(configuration);
        if (value.isEmpty()) {
            next.remove(name);
        } else {
            next.put(name, value);
        }
        return withConfiguration(next, timestamp);
    }

    /** Replaces the whole configuration if timestamp is newer. */
    public TreeState setConfiguration(Map<String, String> conf, long timestamp) {
        requireTimestamp(timestamp);
        if (timestamp <= configurationTimestamp) {
            return this;
        }
        return withConfiguration(new TreeMap<>(conf), timestamp);
    }

    /** Restores the clear marker of a version (snapshot recovery, anti-entropy). */
    public TreeState withClearedAt(long timestamp) {
        return timestamp <= clearedAt ? this : clear(timestamp);
    }

    /**
     * Sets the clear marker without removing anything, for rebuilding a saved version (snapshot
     * recovery): the caller guarantees every entry of this version was written after timestamp, as
     * in any version whose clear marker is timestamp. Unlike {@link #withClearedAt(long)} it keeps
     * sub trees exactly as they are.
     */
    public TreeState withClearMarker(long timestamp) {
        return timestamp <= clearedAt ? this : new TreeState(root, mirror, configuration, configurationTimestamp, timestamp);
    }

    /**
     * Collects up to {@code budget} expired things: tombstones older than cutoff, and empty,
     * unconfigured sub trees cleared before cutoff. Reports each collected timestamp.
     */
    TreeState collect(long cutoff, int budget, LongConsumer collected) {
        if (minDue() >= cutoff || budget <= 0) {
            return this;
        }
        List<Entry> due = new ArrayList<>();
        findDue(root, cutoff, budget, due);
        Node next = root;
        Node nextMirror = mirror;
        for (Entry e : due) {
            boolean dropTombstone = e.isTombstone() && e.timestamp() < cutoff;
            if (dropTombstone) {
                collected.accept(e.timestamp());
            }
            TreeState sub = e.sub();
            if (sub != null && sub.minDue() < cutoff) {
                sub = sub.collect(cutoff, budget, collected);
                if (sub.isDisposable() && sub.clearedAt < cutoff) {
                    if (sub.clearedAt > 0) {
                        collected.accept(sub.clearedAt);
                    }
                    sub = null;
                }
            }
            long ts = dropTombstone ? 0 : e.timestamp();
            next = ts == 0 && sub == null ? Trie.remove(next, e.key()) : Trie.put(next, Entry.of(e.key(), e.value(), ts, sub));
        }
        return next == root ? this : new TreeState(next, nextMirror, configuration, configurationTimestamp, clearedAt);
    }

    // ------------------------------------------------------------------ internals

    private TreeState writeValue(byte[] key, byte[] value, long timestamp) {
        if (timestamp <= clearedAt) {
            return this;
        }
        Trie.Slot slot = Trie.locate(root, key);
        Entry old = slot.found();
        if (old != null && old.timestamp() != 0 && !wins(timestamp, value, old)) {
            return this;
        }
        Node nextRoot = slot.put(Entry.copying(key, value, timestamp, old == null ? null : old.sub()));
        Node nextMirror = mirror;
        if (mirrored) {
            if (old != null && old.hasValue()) {
                nextMirror = Trie.remove(nextMirror, MirrorKeys.encode(old.value(), key));
            }
            if (value != null) {
                nextMirror = Trie.put(nextMirror, Entry.unhashed(MirrorKeys.encode(value, key), key, timestamp));
            }
        }
        return new TreeState(nextRoot, nextMirror, configuration, configurationTimestamp, clearedAt);
    }

    /** DESIGN §5 ({@link io.god.wire.LastWriteWins}, the rule the client's replica reads use too). */
    static boolean wins(long timestamp, byte[] value, Entry old) {
        if (timestamp != old.timestamp()) { // the rule's first step, without copying the old value out of its entry
            return timestamp > old.timestamp();
        }
        return io.god.wire.LastWriteWins.newer(timestamp, value, old.timestamp(), old.value());
    }

    private TreeState withSub(byte[] key, long timestamp, UnaryOperator<TreeState> change) {
        if (timestamp <= clearedAt) {
            return this;
        }
        Trie.Slot slot = Trie.locate(root, key);
        Entry old = slot.found();
        TreeState sub = old == null || old.sub() == null ? EMPTY : old.sub();
        TreeState changed = change.apply(sub);
        if (changed == sub) {
            return this;
        }
        Entry next = old == null ? Entry.copying(key, null, 0, changed)
                : Entry.of(old.key(), old.value(), old.timestamp(), changed);
        return new TreeState(slot.put(next), mirror, configuration, configurationTimestamp, clearedAt);
    }

    private TreeState withConfiguration(TreeMap<String, String> next, long timestamp) {
        boolean nextMirrored = "yes".equals(next.get(MIRRORED));
        Node nextMirror = nextMirrored ? (mirrored ? mirror : buildMirror(root)) : null;
        return new TreeState(root, nextMirror, next, timestamp, clearedAt);
    }

    private static Node buildMirror(Node root) {
        Node m = null;
        Cursor c = new Cursor(root, Measure.LIVE, false);
        for (Entry e = c.next(); e != null; e = c.next()) {
            m = Trie.put(m, Entry.unhashed(MirrorKeys.encode(e.value(), e.key()), e.key(), e.timestamp()));
        }
        return m;
    }

    /** Depth-first, guided by the minDue aggregates, so only paths to due entries are walked. */
    private static void findDue(Node root, long cutoff, int budget, List<Entry> out) {
        java.util.ArrayDeque<Node> stack = new java.util.ArrayDeque<>();
        if (root != null) {
            stack.push(root);
        }
        while (!stack.isEmpty() && out.size() < budget) {
            Node n = stack.pop();
            if (n.minDue() >= cutoff) {
                continue;
            }
            if (n instanceof Entry e) {
                out.add(e);
                continue;
            }
            Branch b = (Branch) n;
            Node[] children = b.children();
            for (int i = children.length - 1; i >= 0; i--) {
                stack.push(children[i]);
            }
            if (b.entry != null) {
                stack.push(b.entry);
            }
        }
    }

    private long between(byte[] from, byte[] to, Measure m) {
        if (root == null) {
            return 0;
        }
        long upTo = to == null ? root.measure(m) : Trie.rank(root, to, false, m);
        long below = from == null ? 0 : Trie.rank(root, from, false, m);
        return Math.max(0, upTo - below);
    }

    private static void requireTimestamp(long timestamp) {
        if (timestamp <= 0) {
            throw new IllegalArgumentException("timestamp must be positive, was " + timestamp);
        }
    }

    private static Hash128 combine(Node root, SortedMap<String, String> configuration) {
        if (configuration.isEmpty()) {
            return root == null ? Hash128.ZERO : root.hash();
        }
        Hasher h = Hashing.murmur3_128().newHasher();
        for (Map.Entry<String, String> c : configuration.entrySet()) {
            h.putInt(c.getKey().length()).putString(c.getKey(), StandardCharsets.UTF_8);
            h.putInt(c.getValue().length()).putString(c.getValue(), StandardCharsets.UTF_8);
        }
        ByteBuffer lanes = ByteBuffer.wrap(h.hash().asBytes()).order(ByteOrder.LITTLE_ENDIAN);
        long h1 = lanes.getLong(0);
        long h2 = lanes.getLong(8);
        Hash128 r = root == null ? Hash128.ZERO : root.hash();
        return new Hash128(r.h1() + h1, r.h2() + h2);
    }
}

package io.god.node;

import io.god.persist.MetadataStore;
import io.god.persist.Record;
import io.god.tree.TreeState;
import java.util.List;
import java.util.Optional;

/**
 * The node's tree behind one seam: in memory ({@link #inMemory}) or durable (a
 * {@link io.god.persist.DurableTree}). Every write is a {@link Record} (already stamped), so the same
 * code writes to both; {@link #applyAll} applies several writes as one version.
 */
public interface Store extends AutoCloseable {

    TreeState state();

    boolean apply(Record r);

    boolean applyAll(List<Record> records);

    /** Sets one key of the top-level configuration. */
    boolean configure(String name, String value, long timestamp);

    /** Sets one key of a sub tree's configuration (creating an empty sub tree if needed). */
    boolean subConfigure(byte[] key, String name, String value, long timestamp);

    boolean collectGarbage(int budget);

    /** Newest timestamp of any marker collected by garbage collection (0 = none). */
    long collectedUpTo();

    /** Markers older than this (ns) are expired ({@link io.god.tree.Tree#collectionCutoff()}). */
    long collectionCutoff();

    /** Bytes of logs and snapshots on disk (0 in memory). */
    long dataBytes();

    /** Named values beside the data (empty in memory). */
    Optional<MetadataStore> metadata();

    boolean durable();

    /**
     * Whether applying a write may wait for the disk: a durable log that fsyncs every write ({@code always}). Under
     * {@code everysec} and {@code no} a write's append is a write into the page cache, as Redis' AOF append is.
     */
    default boolean writesWaitForTheDisk() {
        return false;
    }

    /**
     * Stale-data quarantine: moves the data aside to {@code <data dir>/quarantine/<name>/} (keeping at
     * most {@code keep} such directories) and goes on empty. Empty (nothing done) in memory.
     */
    Optional<java.nio.file.Path> quarantine(String name, int keep);

    @Override
    void close();

    /** Expired markers (tombstones) collected since start (the metrics). */
    long collectedMarkers();

    /** Tells {@code o} about log appends, fsyncs and snapshots (nothing to tell in memory). */
    default void observe(io.god.persist.PersistenceObserver o) {
    }

    /** Background loops of the store (the log's fsync loop), for the node's supervisor. */
    default java.util.List<io.god.supervise.Heartbeat> heartbeats() {
        return java.util.List.of();
    }

    /** A store that keeps everything in memory only. */
    static Store inMemory(io.god.tree.Tree tree) {
        return new Store() {
            @Override
            public TreeState state() {
                return tree.state();
            }

            @Override
            public boolean apply(Record r) {
                tree.state().warm(r.key()); // the misses on the way down outside the write lock
                return tree.update(r::applyTo);
            }

            @Override
            public boolean applyAll(List<Record> records) {
                return tree.update(s -> {
                    for (Record r : records) {
                        s = r.applyTo(s);
                    }
                    return s;
                });
            }

            @Override
            public boolean configure(String name, String value, long timestamp) {
                return tree.configure(name, value, timestamp);
            }

            @Override
            public boolean subConfigure(byte[] key, String name, String value, long timestamp) {
                return tree.subConfigure(key, name, value, timestamp);
            }

            @Override
            public boolean collectGarbage(int budget) {
                return tree.collectGarbage(budget);
            }

            @Override
            public long collectedUpTo() {
                return tree.collectedUpTo();
            }

            @Override
            public long collectedMarkers() {
                return tree.collectedMarkers();
            }

            @Override
            public long collectionCutoff() {
                return tree.collectionCutoff();
            }

            @Override
            public long dataBytes() {
                return 0;
            }

            @Override
            public Optional<MetadataStore> metadata() {
                return Optional.empty();
            }

            @Override
            public boolean durable() {
                return false;
            }

            @Override
            public Optional<java.nio.file.Path> quarantine(String name, int keep) {
                return Optional.empty();
            }

            @Override
            public void close() {
            }
        };
    }

    /** A store that logs every write to the data directory of {@code durable}. */
    static Store durable(io.god.persist.DurableTree durable) {
        return new Store() {
            @Override
            public java.util.List<io.god.supervise.Heartbeat> heartbeats() {
                return durable.heartbeats();
            }

            @Override
            public TreeState state() {
                return durable.state();
            }

            @Override
            public boolean apply(Record r) {
                return durable.apply(r);
            }

            @Override
            public boolean applyAll(List<Record> records) {
                return durable.applyAll(records);
            }

            @Override
            public boolean configure(String name, String value, long timestamp) {
                return durable.configure(name, value, timestamp);
            }

            @Override
            public boolean subConfigure(byte[] key, String name, String value, long timestamp) {
                return durable.subConfigure(key, name, value, timestamp);
            }

            @Override
            public boolean collectGarbage(int budget) {
                return durable.collectGarbage(budget);
            }

            @Override
            public long collectedUpTo() {
                return durable.tree().collectedUpTo();
            }

            @Override
            public long collectedMarkers() {
                return durable.tree().collectedMarkers();
            }

            @Override
            public void observe(io.god.persist.PersistenceObserver o) {
                durable.observe(o);
            }

            @Override
            public long collectionCutoff() {
                return durable.tree().collectionCutoff();
            }

            @Override
            public long dataBytes() {
                return durable.diskBytes();
            }

            @Override
            public Optional<MetadataStore> metadata() {
                return Optional.of(durable.metadata());
            }

            @Override
            public boolean durable() {
                return true;
            }

            @Override
            public boolean writesWaitForTheDisk() {
                return durable.fsyncsEveryWrite();
            }

            @Override
            public Optional<java.nio.file.Path> quarantine(String name, int keep) {
                return Optional.of(durable.quarantine(name, keep));
            }

            @Override
            public void close() {
                durable.close();
            }
        };
    }
}

package io.god.persist;

import java.nio.ByteBuffer;
import java.util.Optional;

/**
 * What recovery must find, kept beside the data as metadata ({@code data-manifest.meta}): the number
 * of the log the data started in from an empty tree ({@code origin}: 1, or the first log after a
 * quarantine) and the newest log ever created. Without it, deleting every snapshot, the newest logs or
 * all data files (keeping the metadata) would look like a younger, smaller directory. It is written
 * after the log it names is durable, so a crash leaves it at most one log behind, never ahead.
 */
record DataManifest(long origin, long newest) {

    static final String NAME = "data-manifest";

    static Optional<DataManifest> read(MetadataStore meta) {
        return meta.get(NAME).filter(b -> b.length == 16).map(b -> {
            ByteBuffer bb = ByteBuffer.wrap(b);
            return new DataManifest(bb.getLong(), bb.getLong());
        });
    }

    void write(MetadataStore meta) {
        meta.put(NAME, ByteBuffer.allocate(16).putLong(origin).putLong(newest).array());
    }
}

package io.god.persist;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Small named values beside the data (ring position, lastAliveAt, ...), each in its own file
 * {@code <name>.meta}, replaced atomically: written to {@code <name>.meta.tmp}, fsynced, renamed,
 * directory fsynced. A reader sees the old or the new value, never a mix; a file failing its checksum
 * reads as absent (with a warning).
 */
public final class MetadataStore {

    private static final byte[] MAGIC = "GODMETA1".getBytes(StandardCharsets.US_ASCII);
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]{1,64}");
    private static final System.Logger LOG = System.getLogger(MetadataStore.class.getName());

    private final Disk disk;
    private final Path dir;

    public MetadataStore(Disk disk, Path dir) {
        this.disk = disk;
        this.dir = dir;
    }

    private Path file(String name) {
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("metadata name must match " + NAME + ", was '" + name + "'");
        }
        return dir.resolve(name + ".meta");
    }

    public synchronized void put(String name, byte[] value) {
        Path target = file(name);
        Path tmp = dir.resolve(name + ".meta.tmp");
        try {
            try (Disk.AppendFile f = disk.create(tmp)) {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                out.write(MAGIC);
                out.write(Frames.frame(value.length == 0 ? new byte[] {0} : prefixed(value)));
                f.write(ByteBuffer.wrap(out.toByteArray()));
                f.sync();
            }
            disk.rename(tmp, target);
            disk.syncDirectory(dir);
        } catch (IOException e) {
            throw new PersistenceException("could not write metadata " + target + ": " + DataDirectory.describe(e), e);
        }
    }

    /** Frames need a non-empty body: a marker byte 1 precedes the value (0 alone = empty value). */
    private static byte[] prefixed(byte[] value) {
        byte[] b = new byte[value.length + 1];
        b[0] = 1;
        System.arraycopy(value, 0, b, 1, value.length);
        return b;
    }

    public synchronized Optional<byte[]> get(String name) {
        Path target = file(name);
        if (!disk.exists(target)) {
            return Optional.empty();
        }
        try (InputStream in = disk.read(target)) {
            Frames.Reader.readMagic(in, MAGIC, "metadata " + target);
            byte[] body = new Frames.Reader(in, MAGIC.length).next();
            if (body == null) {
                throw new CorruptDataException("metadata " + target + " is empty");
            }
            byte[] value = new byte[body.length - 1];
            System.arraycopy(body, 1, value, 0, value.length);
            return Optional.of(value);
        } catch (CorruptDataException e) {
            LOG.log(System.Logger.Level.WARNING, "ignoring corrupt metadata " + target + ": " + e.getMessage());
            return Optional.empty();
        } catch (IOException e) {
            throw new PersistenceException("could not read metadata " + target + ": " + DataDirectory.describe(e), e);
        }
    }

    public void putLong(String name, long value) {
        put(name, ByteBuffer.allocate(8).putLong(value).array());
    }

    public Optional<Long> getLong(String name) {
        return get(name).filter(b -> b.length == 8).map(b -> ByteBuffer.wrap(b).getLong());
    }

    public synchronized void delete(String name) {
        try {
            disk.delete(file(name));
            disk.syncDirectory(dir);
        } catch (IOException e) {
            throw new PersistenceException("could not delete metadata " + file(name) + ": " + DataDirectory.describe(e), e);
        }
    }
}

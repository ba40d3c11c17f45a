package io.god.backup;

import io.god.client.GodClient;
import io.god.wire.Ops;
import io.god.wire.WireReader;
import io.god.wire.WireWriter;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** The binary calls backup and restore make ({@link Ops#BACKUP}, {@link Ops#REPLICATE}), with the client's token. */
final class NodeCalls {

    private static final int PAGE = 1;
    private static final int INFO = 2;
    private static final int PRESENT = 3;

    private final GodClient client;
    private final Duration timeout;

    NodeCalls(GodClient client, Duration timeout) {
        this.client = client;
        this.timeout = timeout;
    }

    record Info(int redundancy, long collectedUpTo) {
    }

    record Page(long session, boolean done, List<byte[]> records) {
    }

    Info info(String address) {
        WireReader r = new WireReader(client.call(address, Ops.BACKUP, new WireWriter().u8(INFO).toBytes(), timeout));
        int n = (int) r.varint();
        long collected = ByteBuffer.wrap(r.raw(8)).getLong();
        return new Info(n, collected);
    }

    /** One page of range [from, to) after {@code after} (null: from the start), in session (0: a new one). */
    Page page(String address, long session, byte[] from, byte[] to, byte[] after, int maxBytes) {
        WireWriter w = new WireWriter().u8(PAGE).varint(session).bool(true).bytes(from).bytes(to);
        w.bool(after != null);
        if (after != null) {
            w.bytes(after);
        }
        w.varint(maxBytes);
        WireReader r = new WireReader(client.call(address, Ops.BACKUP, w.toBytes(), timeout));
        long id = r.varint();
        boolean done = r.bool();
        int n = r.count(Integer.MAX_VALUE);
        List<byte[]> records = new ArrayList<>(Math.min(n, 4096));
        for (int i = 0; i < n; i++) {
            records.add(r.bytes());
        }
        r.end();
        return new Page(id, done, records);
    }

    /** For each key, whether the node holds any entry for it. */
    boolean[] present(String address, List<byte[]> keys) {
        WireWriter w = new WireWriter().u8(PRESENT).varint(keys.size());
        for (byte[] k : keys) {
            w.bytes(k);
        }
        WireReader r = new WireReader(client.call(address, Ops.BACKUP, w.toBytes(), timeout));
        int n = r.count(keys.size());
        if (n != keys.size()) {
            throw new BackupException(address + " answered " + n + " of " + keys.size() + " presence questions");
        }
        boolean[] out = new boolean[n];
        for (int i = 0; i < n; i++) {
            out[i] = r.bool();
        }
        r.end();
        return out;
    }

    /** Applies records on one replica by last-write-wins, as a peer's replication does. */
    void replicate(String address, List<byte[]> records) {
        WireWriter w = new WireWriter().varint(records.size());
        for (byte[] b : records) {
            w.bytes(b);
        }
        client.call(address, Ops.REPLICATE, w.toBytes(), timeout);
    }
}

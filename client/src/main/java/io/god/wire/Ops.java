package io.god.wire;

/**
 * Operation codes of the binary protocol. Ring maintenance and replication are peer operations;
 * {@link #CALL} carries one god JSON-contract call (method, body, token) with routing information, so
 * every data operation is reachable over the binary protocol with the JSON contract's semantics.
 */
public final class Ops {
    private Ops() {
    }

    /** Hello: payload = auth token (UTF-8, empty when none). */
    public static final int HELLO = 0;
    /** Joining node asks a member for the ring: → {@code JoinReply}. */
    public static final int JOIN = 1;
    /** Liveness + ring-hash check; members lists are exchanged when the hashes differ. */
    public static final int PING = 2;
    /** Pushes a members list (sent after a ping whose hashes still differ). */
    public static final int GOSSIP = 3;
    /** One god JSON call: {@link Call} → {@link Call.Reply}. */
    public static final int CALL = 10;
    /** Stamped writes from the executing node to a replica: records → empty. */
    public static final int REPLICATE = 11;
    /** Anti-entropy: short-hash Merkle probes of many prefixes of the receiver's tree (or one sub tree). */
    public static final int SYNC_FINGERPRINTS = 12;
    /**
     * Anti-entropy: version summaries of differing regions → the receiver's newer records and the
     * requester's records it wants; or those wanted records pushed (applied by last-write-wins).
     */
    public static final int SYNC_EXCHANGE = 13;
    /** Anti-entropy: tree-level configuration and clear marker both ways. */
    public static final int SYNC_META = 14;
    /** Time network: empty → the receiver's network time (8 bytes, big-endian ns). */
    public static final int TIME = 15;
    /** Migration: empty → how many markers the receiver owns (varint). */
    public static final int OWNED = 16;
    /** Leave: a draining node tells a member it has left the ring (its member entry → empty). */
    public static final int LEAVE = 17;
    /**
     * Stale-data check: empty → the receiver's collectedUpTo (8 bytes, big-endian ns); refused unless
     * the receiver is a ring member. Symmetric form (newer nodes): the caller's lastAliveAt,
     * collectedUpTo and whether it holds data (3 × 8 bytes) → the receiver's three, so either side
     * can find itself stale.
     */
    public static final int COLLECTED = 18;

    /**
     * A hot data operation in binary form: {@link DataCall} → {@link DataCall.Reply} (Get, Put, Del,
     * SubGet, SubPut, SubDel without JSON; everything else goes through {@link #CALL}).
     */
    public static final int DATA = 19;

    /**
     * Member states (catching up or not) by push-pull: the caller's entries → the callee's
     * ({@code io.god.ring.MemberStates}). Older nodes refuse it as an unknown operation.
     */
    public static final int STATES = 20;

    /**
     * Where the callee serves HTTP (the dashboard, {@code /ws}, the JSON API): empty → its
     * {@code http://host:port} as UTF-8, or nothing when it serves no HTTP. Older nodes refuse it as
     * an unknown operation.
     */
    public static final int INFO = 21;

    /**
     * The callee's dashboard events after a cursor, for a node that relays them to a browser
     * ({@code /ws/peer}): request varint cursor (0: a new relay) and varint max; reply varint next cursor,
     * varint count and that many UTF-8 strings, each a {@code /ws} JSON frame (a new relay first gets a
     * {@code RingChange}). Older nodes refuse it as an unknown operation.
     */
    public static final int EVENTS = 22;

    /**
     * Backup (peer credential: the binary port's {@code god.auth.token}). Mode 1, a page of raw records of
     * one key range from one pinned tree version: request u8 1, varint session (0: open a new one, pinning
     * the current tree), optional range (bool, then lo and hi as byte strings, each empty = unbounded),
     * optional cursor (bool, then the last key already read), varint max bytes → varint session, bool
     * done, varint count and that many record bodies (byte strings, {@code io.god.persist.Record}'s
     * encoding, tombstones and timestamps included; the first page also carries the tree-level
     * configuration and clear marker). Mode 2, info: u8 2 → varint redundancy (N) and the node's
     * collectedUpTo (8 bytes, big-endian ns). Mode 3, presence: u8 3, varint count and that many keys →
     * varint count and a bool per key, whether the callee holds any entry for it (a value, a tombstone or
     * a sub tree). Older nodes refuse it as an unknown operation.
     */
    public static final int BACKUP = 23;

    /**
     * Any command of the god contract in binary form, typed both ways: request = command id
     * ({@code io.god.request.Command#id}, stable across versions), flags, hops, authorization, stamp, then the
     * command's arguments; reply = status, then a tagged result (values, indexes, entries, counts, configuration,
     * set-operation results) or a message ({@code io.god.request.BinaryRequests} and {@code BinaryResults}). Node to
     * node it carries forwarded commands; a node falls back to {@link #CALL} for a peer that refused it. Older nodes
     * refuse it as an unknown operation.
     */
    public static final int COMMAND = 24;

    public static String name(int op) {
        return switch (op) {
            case HELLO -> "Hello";
            case JOIN -> "Discord.Join";
            case PING -> "Discord.Ping";
            case GOSSIP -> "Discord.Gossip";
            case CALL -> "DHash.Call";
            case REPLICATE -> "DHash.Replicate";
            case SYNC_FINGERPRINTS -> "DHash.SyncFingerprints";
            case SYNC_EXCHANGE -> "DHash.SyncExchange";
            case SYNC_META -> "DHash.SyncMeta";
            case TIME -> "Timenet.ActualTime";
            case OWNED -> "DHash.Owned";
            case LEAVE -> "Discord.Leave";
            case COLLECTED -> "DHash.CollectedUpTo";
            case DATA -> "DHash.Data";
            case STATES -> "Discord.States";
            case INFO -> "Node.Info";
            case EVENTS -> "Node.Events";
            case BACKUP -> "DHash.Backup";
            case COMMAND -> "DHash.Command";
            default -> "op" + op;
        };
    }
}

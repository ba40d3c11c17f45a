package io.god.command;

import io.god.cluster.Cluster;
import io.god.node.GodNode;
import io.god.request.Result;
import io.god.tree.Entry;
import io.god.tree.TreeState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/** The node's own views: its part of Size/Owned, its ring view (Nodes), Describe and the DescribeTree dump. */
public final class NodeViews {

    /** Lines of DescribeTree output at most (it is a debug dump). */
    static final int DESCRIBE_TREE_LINES = 10_000;

    private final GodNode node;

    NodeViews(GodNode node) {
        this.node = node;
    }

    /** This node's part of Size/Owned on a ring: its owned range [predecessor, self). */
    long owned(TreeState s, boolean real) {
        return owned(s, real ? TreeState::realSizeBetween : TreeState::sizeBetween);
    }

    /** Keys holding a value or a non-empty sub tree in this node's owned range (RESP's DBSIZE, summed). */
    long ownedKeys(TreeState s) {
        return owned(s, TreeState::keysBetween);
    }

    private interface Between {
        long count(TreeState s, byte[] from, byte[] to);
    }

    private long owned(TreeState s, Between between) {
        Cluster cluster = node.cluster();
        byte[][] range = cluster == null ? null : cluster.ownedRange();
        if (range == null) {
            return between.count(s, null, null);
        }
        byte[] from = range[0];
        byte[] to = range[1];
        int c = java.util.Arrays.compareUnsigned(from, to);
        if (c < 0) {
            return between.count(s, from, to);
        }
        if (c == 0) {
            return between.count(s, null, null);
        }
        return between.count(s, from, null) + between.count(s, null, to);
    }

    /**
     * The ring view (Admission refuses it while this node is stale or joining: RING_VIEW); with {@code expected}, the
     * expected members absent from it follow, marked {@link Result.Remote#ABSENT}.
     */
    List<Result.Remote> nodes(boolean expected) {
        Cluster cluster = node.cluster();
        if (cluster == null || cluster.ring().isEmpty()) {
            return List.of(self());
        }
        List<Result.Remote> out = new ArrayList<>();
        Set<String> catchingUp = node.memberStates() == null ? Set.of() : node.memberStates().catchingUp();
        for (io.god.ring.Member m : cluster.ring().members()) {
            out.add(new Result.Remote(m.position(), m.address(),
                    catchingUp.contains(m.address()) ? GodNode.State.CATCHING_UP.name() : null));
        }
        if (expected && node.membership() != null) {
            for (io.god.ring.Member m : node.membership().absent()) {
                out.add(new Result.Remote(m.position(), m.address(), Result.Remote.ABSENT));
            }
        }
        return out;
    }

    private Result.Remote self() {
        return new Result.Remote(node.position(), node.address());
    }

    Result.Description describe(TreeState s) {
        // LastSync: the last anti-entropy round with successors; LastMigrate: the last move; the epoch = never
        long synced = node.antiEntropy() == null ? 0 : node.antiEntropy().lastSyncAt();
        return new Result.Description(node.address(), node.position(), rfc3339(node.startedAt()), rfc3339(synced),
                rfc3339(node.lastMigrateAt()), rfc3339(node.clock().nanos()), owned(s, true), s.realSize(), 0.0,
                nodes(false));
    }

    /** Go's RFC3339Nano: fraction without trailing zeros, none when zero. */
    public static String rfc3339(long nanos) {
        Instant i = Instant.ofEpochSecond(Math.floorDiv(nanos, 1_000_000_000L), Math.floorMod(nanos, 1_000_000_000L));
        String base = i.truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString();
        base = base.substring(0, base.length() - 1);
        if (i.getNano() == 0) {
            return base + "Z";
        }
        String frac = String.format("%09d", i.getNano()).replaceAll("0+$", "");
        return base + "." + frac + "Z";
    }

    static String describeTree(TreeState s) {
        HexFormat hex = HexFormat.of();
        StringBuilder sb = new StringBuilder();
        sb.append("<Tree size:").append(s.size()).append(" realSize:").append(s.realSize()).append(" hash:")
                .append(s.hash()).append(" configuration:").append(s.configuration()).append(">\n");
        int lines = 1;
        for (Iterator<Entry> it = s.entries(null); it.hasNext(); ) {
            Entry e = it.next();
            if (lines++ >= DESCRIBE_TREE_LINES) {
                sb.append("...\n");
                break;
            }
            sb.append("  ").append(hex.formatHex(e.key())).append(" ");
            if (e.hasValue()) {
                sb.append("=> ").append(hex.formatHex(e.value()));
            } else if (e.isTombstone()) {
                sb.append("(tombstone)");
            }
            sb.append(" @").append(e.timestamp());
            if (e.sub() != null) {
                sb.append(" sub{size:").append(e.sub().size()).append(", mirrored:").append(e.sub().isMirrored())
                        .append("}");
            }
            sb.append('\n');
        }
        return sb.toString();
    }
}

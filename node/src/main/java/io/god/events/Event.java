package io.god.events;

import java.util.List;

/**
 * What a node reports as it works (reference §2.4): ring changes, node-to-node communication,
 * replica synchronisation, cleaning and migration. Streamed to dashboards on {@code /ws}.
 */
public sealed interface Event {

    /** The wire name of the event type: {@code RingChange}, {@code Comm}, {@code Sync}, ... */
    String type();

    /** A ring member: 16-byte position and the address peers use. */
    record NodeRef(byte[] position, String address) {
    }

    /** This node's view of the ring changed (or is repeated for new listeners). */
    record RingChange(NodeRef self, List<NodeRef> ring) implements Event {
        @Override
        public String type() {
            return "RingChange";
        }
    }

    /** One call to another node, e.g. {@code DHash.SlavePut}; key and sub key may be null. */
    record Comm(NodeRef source, NodeRef destination, byte[] key, byte[] subKey, String operation) implements Event {
        @Override
        public String type() {
            return "Comm";
        }
    }

    /** A synchronisation round with a replica moved entries (only sent when something moved). */
    record Sync(NodeRef source, NodeRef destination, long pulled, long pushed) implements Event {
        @Override
        public String type() {
            return "Sync";
        }
    }

    /** Misplaced data was handed to its owner (only sent when something moved). */
    record Clean(NodeRef source, NodeRef destination, long cleaned, long pushed) implements Event {
        @Override
        public String type() {
            return "Clean";
        }
    }

    /** The node moved its ring position to balance load. */
    record Migrate(NodeRef node, byte[] from, byte[] to) implements Event {
        @Override
        public String type() {
            return "Migrate";
        }
    }
}

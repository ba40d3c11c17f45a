package io.god.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

/** The client's pick among replica answers follows the store's last-write-wins rule. */
class NewestTest {

    static final ObjectMapper M = new ObjectMapper();

    static ObjectNode a(long ts, boolean exists, byte[] value) {
        ObjectNode n = M.createObjectNode().put("Timestamp", ts).put("Exists", exists);
        return exists ? n.put("Value", value) : n.putNull("Value");
    }

    @Test
    void lastWriteWins() {
        assertThat(ReplicaReads.newer(a(2, true, new byte[] {1}), a(1, false, null))).isTrue();
        assertThat(ReplicaReads.newer(a(1, true, new byte[] {1}), a(2, false, null))).isFalse();
        // equal timestamps: the tombstone wins, then the larger value bytes
        assertThat(ReplicaReads.newer(a(5, false, null), a(5, true, new byte[] {9}))).isTrue();
        assertThat(ReplicaReads.newer(a(5, true, new byte[] {9}), a(5, false, null))).isFalse();
        assertThat(ReplicaReads.newer(a(5, true, new byte[] {(byte) 0x80}), a(5, true, new byte[] {0x7f}))).isTrue();
        assertThat(ReplicaReads.newer(a(5, true, new byte[] {1}), a(5, true, new byte[] {1}))).isFalse();
        // a never-written key (timestamp 0) loses to anything written
        assertThat(ReplicaReads.newer(a(0, false, null), a(1, true, new byte[0]))).isFalse();
    }
}

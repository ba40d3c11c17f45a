package io.god.wire;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The one last-write-wins rule the node's trees and the client's replica reads share (null value = tombstone). */
class LastWriteWinsTest {

    static final byte[] TOMBSTONE = null;

    @Test
    void higherTimestampThenTombstoneThenLargerUnsignedBytes() {
        assertThat(LastWriteWins.newer(2, TOMBSTONE, 1, new byte[] {9})).isTrue();
        assertThat(LastWriteWins.newer(1, new byte[] {9}, 2, TOMBSTONE)).isFalse();
        assertThat(LastWriteWins.newer(5, TOMBSTONE, 5, new byte[0])).as("a tombstone beats an empty value").isTrue();
        assertThat(LastWriteWins.newer(5, new byte[0], 5, TOMBSTONE)).isFalse();
        assertThat(LastWriteWins.newer(5, new byte[] {(byte) 0x80}, 5, new byte[] {0x7f})).as("unsigned").isTrue();
        assertThat(LastWriteWins.newer(5, new byte[] {1, 0}, 5, new byte[] {1})).as("a prefix sorts first").isTrue();
    }

    @Test
    void equalWritesDoNotBeatEachOther() {
        assertThat(LastWriteWins.newer(5, new byte[] {1}, 5, new byte[] {1})).isFalse();
        assertThat(LastWriteWins.newer(5, TOMBSTONE, 5, TOMBSTONE)).isFalse();
    }
}

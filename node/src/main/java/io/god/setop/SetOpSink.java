package io.god.setop;

/** Receives stored set-expression results (in god: puts into the destination sub tree). */
@FunctionalInterface
public interface SetOpSink {
    void put(byte[] key, byte[] value);
}

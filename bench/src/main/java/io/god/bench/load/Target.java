package io.god.bench.load;

/**
 * What the generator drives: one worker's view of a god deployment. Every method is one blocking
 * request (closed loop, like one {@code redis-benchmark} client); failures throw.
 */
public interface Target extends AutoCloseable {

    void put(byte[] key, byte[] value);

    /** @return whether the key existed */
    boolean get(byte[] key);

    void subPut(byte[] tree, byte[] subKey, byte[] value);

    /** The first {@code len} entries of a sub tree; @return how many came back. */
    int slice(byte[] tree, int len);

    /** A set expression cut at {@code len} results; @return how many rows came back. */
    int setExpression(String code, int len);

    @Override
    void close();

    /** Opens one target per worker. */
    interface Factory extends AutoCloseable {
        Target open(int worker);

        String describe();

        @Override
        void close();
    }
}

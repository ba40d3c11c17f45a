package io.god.tree;

/**
 * Something whose Merkle structure can be asked about prefix by prefix: a local tree version, or
 * (later) a replica on another node answering over the network. {@link MerkleDiff} walks two of them.
 */
public interface MerkleSource {

    /**
     * The node covering every key that starts with the first {@code nibbles} nibbles of prefix, or
     * null when no key has that prefix.
     */
    Fingerprint fingerprint(byte[] prefix, int nibbles);
}

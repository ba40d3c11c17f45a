package io.god.persist;

/**
 * One piece of damage recovery found in a data directory.
 *
 * @param file the file (or, for a gap, the first missing file)
 * @param offset where the damage starts in the file (0 for a missing file)
 * @param bytes how many bytes are unreadable (-1: the file is missing, its size unknown)
 * @param records records lost, if known (-1: at least one, the exact count is unknown)
 * @param tornTail true for a torn tail (no valid frame after it, in the newest log: what a power loss
 *                 leaves; cut under every policy), false for corruption or a gap
 * @param what a sentence saying what is wrong
 */
public record Damage(String file, long offset, long bytes, long records, boolean tornTail, String what) {

    @Override
    public String toString() {
        return file + (bytes < 0 ? "" : " at offset " + offset + " (" + bytes + " bytes, "
                + (records < 0 ? "at least 1 record" : records + " record(s)") + ")") + ": " + what;
    }
}

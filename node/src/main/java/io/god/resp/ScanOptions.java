package io.god.resp;

import java.util.List;
import java.util.Locale;

/**
 * The options of SCAN and HSCAN: {@code [MATCH pattern] [COUNT n]}, and for SCAN {@code [TYPE type]}; Redis' "syntax
 * error" for anything else, a missing value or a COUNT below 1.
 *
 * @param glob null: every key
 * @param count keys examined at most (before {@link RespCommands#SCAN_MAX})
 * @param type null: any type
 */
record ScanOptions(Glob glob, long count, String type) {

    /** Parses the options from argument {@code from} on; {@code withType}: TYPE is one of them. */
    static ScanOptions parse(List<byte[]> a, int from, boolean withType) {
        Glob glob = null;
        long count = 10;
        String type = null;
        for (int i = from; i < a.size(); i += 2) {
            if (i + 1 >= a.size()) {
                throw new IllegalArgumentException("syntax error");
            }
            String option = RespCommands.text(a.get(i)).toUpperCase(Locale.ROOT);
            if (option.equals("MATCH")) {
                glob = new Glob(a.get(i + 1));
            } else if (option.equals("COUNT")) {
                count = RespCommands.number(a.get(i + 1));
                if (count < 1) {
                    throw new IllegalArgumentException("syntax error");
                }
            } else if (option.equals("TYPE") && withType) {
                type = RespCommands.text(a.get(i + 1)).toLowerCase(Locale.ROOT);
            } else {
                throw new IllegalArgumentException("syntax error");
            }
        }
        return new ScanOptions(glob, count, type);
    }

    /** Whether a key (or field) matches MATCH. */
    boolean matches(byte[] key) {
        return glob == null || glob.all() || glob.matches(key);
    }
}

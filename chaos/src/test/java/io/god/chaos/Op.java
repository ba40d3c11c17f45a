package io.god.chaos;

/**
 * One client operation as the workload saw it: times in ms since the campaign started (invoke: before the
 * call, complete: after it returned or failed), the outcome and, for reads, what was found. {@code node}
 * is the key's owner in the client's ring view when the call was made.
 */
record Op(long id, int thread, Kind kind, String key, String value, long invoke, long complete, Outcome outcome,
          boolean found, String node, String error) {

    enum Kind { PUT, DEL, GET }

    /** OK: acknowledged; FAIL: refused (not applied); UNKNOWN: no answer in time, may or may not be applied. */
    enum Outcome { OK, FAIL, UNKNOWN }

    boolean ok() {
        return outcome == Outcome.OK;
    }

    @Override
    public String toString() {
        return String.format("#%d t%d %s %s%s [%d..%d ms] %s%s via %s%s", id, thread, kind, key,
                value == null ? "" : "=" + value, invoke, complete, outcome,
                kind == Kind.GET && outcome == Outcome.OK ? (found ? " found" : " not found") : "",
                node, error == null ? "" : " (" + error + ")");
    }
}

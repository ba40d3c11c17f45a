package io.god.setop;

/** The simulation's access to the set operations' test-only bug switches (never used outside tests). */
public final class SetOpSwitches {

    private SetOpSwitches() {
    }

    /** Reference §4.2/§10.4: Difference drops the sources after the one that rejected a key. */
    public static void differenceDropsSources(boolean on) {
        OperatorSource.dropSourcesAfterRejection = on;
    }
}

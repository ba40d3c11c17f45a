package io.god.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.god.persist.PersistenceException;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/**
 * A write the node could not log is answered with its cause and counted; the chaos campaign's disk-full
 * nemesis (issue 27) showed an ERROR and a stack trace per refused write before.
 */
class UnloggedWritesTest {

    @Test
    void theAnswerNamesTheCauseAndEveryRefusalIsCounted() {
        UnloggedWrites w = new UnloggedWrites(() -> 0L);
        PersistenceException full = new PersistenceException("could not append to /data/1.log (write not acknowledged):"
                + " No space left on device", new IOException("No space left on device"));
        for (int i = 0; i < 50; i++) {
            assertThat(w.refuse("DHash.Put (binary)", full)).isEqualTo("DHash.Put (binary) refused: could not append to"
                    + " /data/1.log (write not acknowledged): No space left on device");
        }
        assertThat(w.refusals()).isEqualTo(50);
    }
}

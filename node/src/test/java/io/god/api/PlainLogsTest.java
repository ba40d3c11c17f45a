package io.god.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

/** By default ({@code quarkus.log.console.json=false}) the console writes plain text lines. */
@QuarkusTest
class PlainLogsTest {

    @Test
    void consoleLinesArePlainTextByDefault() {
        String line = JsonLogsTest.consoleLine("god node says hello");
        assertThat(line).contains("INFO").contains("god node says hello").doesNotStartWith("{");
    }
}

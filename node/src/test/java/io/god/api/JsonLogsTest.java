package io.god.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.util.Arrays;
import java.util.Map;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.jboss.logmanager.LogContext;
import org.junit.jupiter.api.Test;

/**
 * {@code QUARKUS_LOG_CONSOLE_JSON=true} (here as a config override of that name) makes the console
 * write one JSON object per line; the default ({@link PlainLogsTest}) stays plain text.
 */
@QuarkusTest
@TestProfile(JsonLogsTest.Json.class)
class JsonLogsTest {

    /** The node as started with QUARKUS_LOG_CONSOLE_JSON=true. */
    public static class Json implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("QUARKUS_LOG_CONSOLE_JSON", "true");
        }
    }

    /** What the console handler writes for a record (the root logger's console handler's formatter). */
    static String consoleLine(String message) {
        Handler console = consoleHandler();
        LogRecord r = new org.jboss.logmanager.ExtLogRecord(Level.INFO, message, JsonLogsTest.class.getName());
        r.setLoggerName("io.god.test");
        return console.getFormatter().format(r);
    }

    static Handler consoleHandler() {
        Handler[] handlers = LogContext.getLogContext().getLogger("").getHandlers();
        return Arrays.stream(handlers).flatMap(JsonLogsTest::unwrap)
                .filter(h -> h instanceof org.jboss.logmanager.handlers.ConsoleHandler).findFirst()
                .orElseThrow(() -> new AssertionError("no console handler in " + Arrays.toString(handlers)));
    }

    private static java.util.stream.Stream<Handler> unwrap(Handler h) {
        if (h instanceof org.jboss.logmanager.ExtHandler e && e.getHandlers().length > 0) {
            return java.util.stream.Stream.concat(java.util.stream.Stream.of(h),
                    Arrays.stream(e.getHandlers()).flatMap(JsonLogsTest::unwrap));
        }
        return java.util.stream.Stream.of(h);
    }

    @Test
    void consoleLinesAreJsonObjects() throws Exception {
        String line = consoleLine("god node says hello");
        assertThat(line.strip()).doesNotContain("\n");
        JsonNode n = new ObjectMapper().readTree(line);
        assertThat(n.get("message").asText()).isEqualTo("god node says hello");
        assertThat(n.get("level").asText()).isEqualTo("INFO");
        assertThat(n.get("loggerName").asText()).isEqualTo("io.god.test");
        assertThat(n.has("timestamp")).isTrue();
    }
}

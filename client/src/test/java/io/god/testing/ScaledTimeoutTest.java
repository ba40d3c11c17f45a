package io.god.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/** Runs small fixture classes through the JUnit launcher and checks what {@link ScaledTimeout} made of them. */
class ScaledTimeoutTest {

    /** Set by the test that started the fixtures; the spinning fixture ignores interrupts until it is released. */
    static volatile boolean release;

    @ScaledTimeout(value = 100, unit = TimeUnit.MILLISECONDS)
    static class Spinner {
        @Test
        void ignoresInterruptsForever() {
            while (!release) {
                Thread.onSpinWait();
            }
        }

        @Test
        @ScaledTimeout(60)
        void methodValueOverridesTheClassValue() throws Exception {
            Thread.sleep(TimeScale.millis(100).toMillis() + 200);
        }

        @Test
        void failuresPassThroughUnchanged() {
            throw new IllegalStateException("the test's own failure");
        }
    }

    static TestExecutionSummary run(Class<?> fixture) {
        Launcher launcher = LauncherFactory.create();
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        launcher.execute(LauncherDiscoveryRequestBuilder.request().selectors(selectClass(fixture)).build(), listener);
        return listener.getSummary();
    }

    @Test
    void aTestThatIgnoresInterruptsFailsAtTheScaledDeadlineAndTheRestKeepTheirOutcome() {
        release = false;
        long t0 = System.nanoTime();
        TestExecutionSummary summary;
        try {
            summary = run(Spinner.class);
        } finally {
            release = true;
        }
        Duration took = Duration.ofNanos(System.nanoTime() - t0);

        assertThat(summary.getTestsSucceededCount()).isEqualTo(1);
        assertThat(summary.getTestsFailedCount()).isEqualTo(2);
        List<Throwable> failures = summary.getFailures().stream().map(TestExecutionSummary.Failure::getException)
                .toList();
        assertThat(failures).anySatisfy(e -> assertThat(e).isInstanceOf(TimeoutException.class)
                .hasMessageContaining("Spinner.ignoresInterruptsForever timed out after "
                        + TimeScale.millis(100).toMillis() + " ms")
                .hasMessageContaining("× time-scale"));
        assertThat(failures).anySatisfy(e -> assertThat(e).isInstanceOf(IllegalStateException.class)
                .hasMessage("the test's own failure"));
        // generous: the spinner would run forever without the extension
        assertThat(took).isLessThan(TimeScale.seconds(30));
    }
}

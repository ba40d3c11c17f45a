package io.god.operator;

import static org.assertj.core.api.Assertions.assertThat;

import io.javaoperatorsdk.operator.processing.retry.GenericRetry;
import io.javaoperatorsdk.operator.processing.retry.RetryExecution;
import io.quarkiverse.operatorsdk.runtime.ExternalGradualRetryConfiguration;
import io.quarkiverse.operatorsdk.runtime.RunTimeControllerConfiguration;
import io.quarkiverse.operatorsdk.runtime.RunTimeOperatorConfiguration;
import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The reconcile retries of the packaged operator (prod profile of application.properties), without booting it: the
 * Quarkus Operator SDK's own config mapping reads the file, the retry is made from it as the SDK makes it (a JOSDK
 * {@link GenericRetry}), and its delays are walked. Reconcile errors (API server down) must be retried without end,
 * backing off to at most 5 minutes; GodClusterOperationsTest checks that the running test app has the same retry and
 * that a long API server outage is survived.
 */
class RetryConfigurationTest {

    static final long FIVE_MINUTES = Duration.ofMinutes(5).toMillis();

    static RunTimeControllerConfiguration godcluster(String profile) throws IOException {
        SmallRyeConfig config = new SmallRyeConfigBuilder().withProfile(profile).addDefaultInterceptors()
                .withSources(new PropertiesConfigSource(
                        RetryConfigurationTest.class.getClassLoader().getResource("application.properties")))
                .withConverter(Duration.class, 200, new DurationConverter()) // Quarkus' "10m", "2M"
                .withMapping(RunTimeOperatorConfiguration.class).withValidateUnknown(false).build();
        RunTimeControllerConfiguration controller = config.getConfigMapping(RunTimeOperatorConfiguration.class)
                .controllers().get("godcluster");
        assertThat(controller).as("quarkus.operator-sdk.controllers.godcluster.* in application.properties").isNotNull();
        return controller;
    }

    /** What the SDK does with the retry settings (QuarkusBuildTimeControllerConfiguration.updateRetryConfiguration). */
    static GenericRetry retry(ExternalGradualRetryConfiguration settings) {
        GenericRetry retry = new GenericRetry();
        settings.maxAttempts().ifPresent(retry::setMaxAttempts);
        settings.interval().initial().ifPresent(retry::setInitialInterval);
        settings.interval().max().ifPresent(retry::setMaxInterval);
        settings.interval().multiplier().ifPresent(retry::setIntervalMultiplier);
        return retry;
    }

    static List<Long> delays(GenericRetry retry, int attempts) {
        RetryExecution execution = retry.initExecution();
        List<Long> delays = new ArrayList<>();
        for (int i = 0; i < attempts; i++) {
            Optional<Long> next = execution.nextDelay();
            if (next.isEmpty()) {
                break;
            }
            delays.add(next.get());
        }
        return delays;
    }

    @Test
    void theOperatorRetriesWithoutEndBackingOffToFiveMinutes() throws IOException {
        RunTimeControllerConfiguration prod = godcluster("prod");
        GenericRetry retry = retry(prod.retry());
        assertThat(retry.getMaxAttempts()).as("unlimited").isEqualTo(-1);
        List<Long> delays = delays(retry, 1_000);
        assertThat(delays).as("still retrying after 1 000 failed passes (JOSDK's default stops after 5)").hasSize(1_000);
        assertThat(delays.get(0)).isEqualTo(2_000);
        assertThat(delays).allMatch(d -> d <= FIVE_MINUTES).contains(FIVE_MINUTES);
        assertThat(delays.indexOf(FIVE_MINUTES)).as("the cap is reached within minutes of failing").isLessThan(10);
        assertThat(prod.maxReconciliationInterval()).as("periodic resync").contains(Duration.ofMinutes(10));
    }

    /** The test profile only shortens the back-off; the retries stay unlimited, so the tests exercise that. */
    @Test
    void theTestProfileKeepsTheRetriesUnlimited() throws IOException {
        GenericRetry retry = retry(godcluster("test").retry());
        assertThat(retry.getMaxAttempts()).isEqualTo(-1);
        assertThat(delays(retry, 100)).hasSize(100).allMatch(d -> d <= 1_000);
    }

    /** The walk above can fail: JOSDK's default retry gives up. */
    @Test
    void theDefaultRetryWouldGiveUp() {
        assertThat(delays(new GenericRetry(), 1_000)).hasSizeLessThan(10);
    }
}

package io.god.operator.ha;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LeaderElectionTest {

    @Test
    void takesTheLeaseSettingsAndTheDownwardApiIdentity() {
        LeaderElectionConfiguration c = LeaderElection.of("god-operator", Optional.of("god-system"),
                Optional.of("god-operator-7d9f-abcde"), Duration.ofSeconds(15), Duration.ofSeconds(10), Duration.ofSeconds(2),
                true);
        assertThat(c.getLeaseName()).isEqualTo("god-operator");
        assertThat(c.getLeaseNamespace()).hasValue("god-system");
        assertThat(c.getIdentity()).hasValue("god-operator-7d9f-abcde");
        assertThat(c.getLeaseDuration()).isEqualTo(Duration.ofSeconds(15));
        assertThat(c.getRenewDeadline()).isEqualTo(Duration.ofSeconds(10));
        assertThat(c.getRetryPeriod()).isEqualTo(Duration.ofSeconds(2));
        assertThat(c.isExitOnStopLeading()).isTrue();
    }

    @Test
    void blankNamespaceAndIdentityAreLeftToTheSdk() {
        // ${POD_NAMESPACE:} outside a pod: the client's namespace and a random identity
        LeaderElectionConfiguration c = LeaderElection.of("god-operator", Optional.of(""), Optional.of(" "),
                Duration.ofSeconds(15), Duration.ofSeconds(10), Duration.ofSeconds(2), false);
        assertThat(c.getLeaseNamespace()).isEmpty();
        assertThat(c.getIdentity()).isEmpty();
        assertThat(c.isExitOnStopLeading()).isFalse();
    }

    @Test
    void durationsThatCannotWorkAreAClearError() {
        assertThatThrownBy(() -> LeaderElection.of("god-operator", Optional.empty(), Optional.empty(), Duration.ofSeconds(10),
                Duration.ofSeconds(10), Duration.ofSeconds(2), true))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("god.operator.lease").hasMessageContaining("renew-deadline < duration");
        assertThatThrownBy(() -> LeaderElection.of("god-operator", Optional.empty(), Optional.empty(), Duration.ofSeconds(15),
                Duration.ofSeconds(10), Duration.ofSeconds(10), true))
                .hasMessageContaining("retry-period < renew-deadline");
        assertThatThrownBy(() -> LeaderElection.of("god-operator", Optional.empty(), Optional.empty(), Duration.ofSeconds(15),
                Duration.ofSeconds(10), Duration.ZERO, true))
                .hasMessageContaining("0 < retry-period");
    }
}

package io.god.operator.ha;

import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfigurationBuilder;
import io.quarkus.arc.Unremovable;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import java.time.Duration;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Leader election among the operator's replicas: one Lease ({@code god.operator.lease.name}) in the operator's namespace
 * (the downward API's {@code POD_NAMESPACE}), held by the pod ({@code POD_NAME}); only the holder reconciles, the
 * others keep their caches warm and take the Lease once it is not renewed for {@code lease.duration}. A leader that
 * cannot renew within {@code lease.renew-deadline} stops leading and exits ({@code lease.exit-on-stop-leading}), so its
 * pod restarts as a standby instead of writing beside the new leader. Active only in the profiles of
 * {@code quarkus.operator-sdk.activate-leader-election-for-profiles} (build time, prod).
 */
@ApplicationScoped
public class LeaderElection {

    @Produces
    @ApplicationScoped
    @Unremovable
    LeaderElectionConfiguration configuration(
            @ConfigProperty(name = "god.operator.lease.name", defaultValue = "god-operator") String name,
            @ConfigProperty(name = "god.operator.lease.namespace") Optional<String> namespace,
            @ConfigProperty(name = "god.operator.lease.identity") Optional<String> identity,
            @ConfigProperty(name = "god.operator.lease.duration", defaultValue = "15s") Duration duration,
            @ConfigProperty(name = "god.operator.lease.renew-deadline", defaultValue = "10s") Duration renewDeadline,
            @ConfigProperty(name = "god.operator.lease.retry-period", defaultValue = "2s") Duration retryPeriod,
            @ConfigProperty(name = "god.operator.lease.exit-on-stop-leading", defaultValue = "true") boolean exit) {
        return of(name, namespace, identity, duration, renewDeadline, retryPeriod, exit);
    }

    /** The configuration, or a clear error when the three durations cannot work together. */
    public static LeaderElectionConfiguration of(String name, Optional<String> namespace, Optional<String> identity,
            Duration duration, Duration renewDeadline, Duration retryPeriod, boolean exitOnStopLeading) {
        if (retryPeriod.isNegative() || retryPeriod.isZero() || retryPeriod.compareTo(renewDeadline) >= 0
                || renewDeadline.compareTo(duration) >= 0) {
            throw new IllegalArgumentException("god.operator.lease: need 0 < retry-period < renew-deadline < duration, got "
                    + "retry-period=" + retryPeriod + " renew-deadline=" + renewDeadline + " duration=" + duration);
        }
        LeaderElectionConfigurationBuilder b = LeaderElectionConfigurationBuilder.aLeaderElectionConfiguration(name)
                .withLeaseDuration(duration).withRenewDeadline(renewDeadline).withRetryPeriod(retryPeriod)
                .withExitOnStopLeading(exitOnStopLeading);
        namespace.filter(s -> !s.isBlank()).ifPresent(b::withLeaseNamespace);
        identity.filter(s -> !s.isBlank()).ifPresent(b::withIdentity);
        return b.build();
    }
}

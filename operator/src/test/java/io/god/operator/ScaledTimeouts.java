package io.god.operator;

import static org.awaitility.Awaitility.await;

import io.god.testing.TimeScale;
import java.time.Duration;
import org.awaitility.core.ConditionFactory;

/**
 * The operator tests' waits, all scaled by {@link TimeScale} (-Dgod.test.time-scale): a positive wait returns as soon
 * as its condition holds, so a larger factor only lengthens the failure case; a "nothing happens" check watches
 * for a scaled quiet period, so a slow operator on a busy machine still gets several passes to misbehave in.
 */
final class ScaledTimeouts {

    /** Upper bound of one scenario step (the operator polls every 200 ms in tests). */
    static final Duration TIMEOUT = TimeScale.seconds(20);

    private ScaledTimeouts() {
    }

    /** Waits until a condition holds, at most {@link #TIMEOUT}. */
    static ConditionFactory eventually() {
        return await().atMost(TIMEOUT);
    }

    /** A condition that must keep holding for {@code quiet} × factor (e.g. a paused cluster left alone). */
    static ConditionFactory stillAfter(Duration quiet) {
        Duration during = TimeScale.of(quiet);
        return await().during(during).atMost(during.plus(TIMEOUT));
    }
}

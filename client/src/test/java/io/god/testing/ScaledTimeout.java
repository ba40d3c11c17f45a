package io.god.testing;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * JUnit's {@code @Timeout}, multiplied by {@link TimeScale#factor()}: {@code @ScaledTimeout(60)} fails a test that
 * runs longer than 60 s × factor. On a class it bounds each test method ({@code @Test}, {@code @TestTemplate},
 * {@code @TestFactory}, also in nested classes); on a method it overrides the class value. Like JUnit's
 * {@code SEPARATE_THREAD} mode the test body runs on a worker thread, so even a test stuck in a non-interruptible call
 * fails at the deadline (with the worker's stack trace) instead of hanging the build.
 */
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
@ExtendWith(ScaledTimeoutExtension.class)
public @interface ScaledTimeout {

    /** The bound at factor 1. */
    long value();

    TimeUnit unit() default TimeUnit.SECONDS;
}

package io.god.testing;

import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;
import org.junit.platform.commons.support.AnnotationSupport;

/** Enforces {@link ScaledTimeout}: the test body on a worker thread, the caller waits at most bound × factor. */
public final class ScaledTimeoutExtension implements InvocationInterceptor {

    @Override
    public void interceptTestMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> call,
            ExtensionContext context) throws Throwable {
        bounded(invocation, call, context);
    }

    @Override
    public void interceptTestTemplateMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> call,
            ExtensionContext context) throws Throwable {
        bounded(invocation, call, context);
    }

    @Override
    public <T> T interceptTestFactoryMethod(Invocation<T> invocation, ReflectiveInvocationContext<Method> call,
            ExtensionContext context) throws Throwable {
        return bounded(invocation, call, context);
    }

    private static <T> T bounded(Invocation<T> invocation, ReflectiveInvocationContext<Method> call,
            ExtensionContext context) throws Throwable {
        Optional<ScaledTimeout> declared = find(call.getExecutable(), context);
        if (declared.isEmpty()) {
            return invocation.proceed();
        }
        ScaledTimeout t = declared.get();
        Duration bound = TimeScale.of(Duration.ofNanos(t.unit().toNanos(t.value())));
        String name = call.getTargetClass().getSimpleName() + "." + call.getExecutable().getName();
        return run(invocation, bound, name, t.value() + " " + t.unit().name().toLowerCase(java.util.Locale.ROOT));
    }

    /** The method's own annotation, else the nearest enclosing class's (nested classes inherit the outer bound). */
    static Optional<ScaledTimeout> find(Method method, ExtensionContext context) {
        Optional<ScaledTimeout> own = AnnotationSupport.findAnnotation(method, ScaledTimeout.class);
        if (own.isPresent()) {
            return own;
        }
        for (Optional<ExtensionContext> c = Optional.of(context); c.isPresent(); c = c.get().getParent()) {
            Optional<AnnotatedElement> element = c.get().getElement();
            if (element.isPresent() && element.get() instanceof Class<?> type) {
                Optional<ScaledTimeout> onClass = AnnotationSupport.findAnnotation(type, ScaledTimeout.class);
                if (onClass.isPresent()) {
                    return onClass;
                }
            }
        }
        return Optional.empty();
    }

    static <T> T run(Invocation<T> invocation, Duration bound, String name, String declared) throws Throwable {
        FutureTask<T> task = new FutureTask<>(() -> {
            try {
                return invocation.proceed();
            } catch (Exception | Error e) {
                throw e;
            } catch (Throwable t) {
                throw new Carrier(t); // a Throwable that is neither: unwrapped below
            }
        });
        Thread worker = new Thread(task, "scaled-timeout-" + name);
        worker.setDaemon(true);
        // Quarkus and other frameworks find their classes through the context class loader
        worker.setContextClassLoader(Thread.currentThread().getContextClassLoader());
        worker.start();
        try {
            return task.get(bound.toNanos(), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            throw cause instanceof Carrier carried ? carried.getCause() : cause;
        } catch (TimeoutException e) {
            TimeoutException timedOut = new TimeoutException(name + " timed out after " + bound.toMillis() + " ms ("
                    + declared + " × time-scale " + TimeScale.format(TimeScale.factor()) + "; raise it with -D"
                    + TimeScale.PROPERTY + "=N)");
            Throwable where = new Throwable("stack of the test thread at the deadline");
            where.setStackTrace(worker.getStackTrace());
            timedOut.addSuppressed(where);
            worker.interrupt();
            throw timedOut;
        } catch (InterruptedException e) {
            worker.interrupt();
            throw e;
        }
    }

    /** Carries a checked Throwable (not an Exception) out of the Callable. */
    private static final class Carrier extends Exception {
        Carrier(Throwable t) {
            super(t);
        }
    }
}

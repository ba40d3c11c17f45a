package io.god.setop;

/**
 * A cooperative evaluation deadline: the skippers call {@link #check()} in their loops (a set
 * operator may skip through millions of entries before it produces one result), and the
 * implementation throws when the call's time is up. Pure: the clock lives in the implementation.
 */
@FunctionalInterface
public interface Deadline {

    /** No deadline. */
    Deadline NONE = () -> { };

    /** Throws (an unchecked exception naming the limit) when the evaluation must stop. */
    void check();
}

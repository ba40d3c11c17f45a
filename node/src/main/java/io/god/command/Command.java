package io.god.command;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The command table: every operation of the god JSON contract in one row with the flags that decide how the node
 * treats it (after Redis' {@code commands.def}). The JSON contract, {@code /v1} and the binary data calls look a
 * command up here instead of keeping their own lists of names.
 */
public enum Command {
    PUT("Put", Flag.MUTATING, Flag.STAMPED),
    DEL("Del", Flag.MUTATING, Flag.STAMPED),
    SUB_PUT("SubPut", Flag.MUTATING, Flag.STAMPED),
    SUB_DEL("SubDel", Flag.MUTATING, Flag.STAMPED),
    SUB_CLEAR("SubClear", Flag.MUTATING, Flag.STAMPED),
    // a read-modify-write of a key's sub tree at its owner (hashes and sorted sets over RESP): SubUpdates
    SUB_UPDATE("SubUpdate", Flag.MUTATING),
    // stamped once by the entry node and sent along: a member it reaches late (after the call's deadline, e.g. a
    // paused process) clears only what was written before it, not the writes acknowledged since (Timestamps#forWrite)
    CLEAR("Clear", Flag.MUTATING, Flag.STAMPED, Flag.BROADCAST),
    ADD_CONFIGURATION("AddConfiguration", Shape.CONFIGURATION, Flag.MUTATING, Flag.BROADCAST),
    SUB_ADD_CONFIGURATION("SubAddConfiguration", Shape.CONFIGURATION, Flag.MUTATING),
    GET("Get", Flag.POINT_READ),
    SUB_GET("SubGet", Flag.POINT_READ),
    NEXT("Next", Flag.BROADCAST),
    PREV("Prev", Flag.BROADCAST),
    SUB_NEXT("SubNext"),
    SUB_PREV("SubPrev"),
    SUB_MIRROR_NEXT("SubMirrorNext"),
    SUB_MIRROR_PREV("SubMirrorPrev"),
    FIRST("First"),
    LAST("Last"),
    MIRROR_FIRST("MirrorFirst"),
    MIRROR_LAST("MirrorLast"),
    NEXT_INDEX("NextIndex"),
    PREV_INDEX("PrevIndex"),
    MIRROR_NEXT_INDEX("MirrorNextIndex"),
    MIRROR_PREV_INDEX("MirrorPrevIndex"),
    INDEX_OF("IndexOf"),
    REVERSE_INDEX_OF("ReverseIndexOf"),
    MIRROR_INDEX_OF("MirrorIndexOf"),
    MIRROR_REVERSE_INDEX_OF("MirrorReverseIndexOf"),
    COUNT("Count"),
    MIRROR_COUNT("MirrorCount"),
    SLICE("Slice", Flag.EXPENSIVE),
    REVERSE_SLICE("ReverseSlice", Flag.EXPENSIVE),
    MIRROR_SLICE("MirrorSlice", Flag.EXPENSIVE),
    MIRROR_REVERSE_SLICE("MirrorReverseSlice", Flag.EXPENSIVE),
    SLICE_INDEX("SliceIndex", Flag.EXPENSIVE),
    REVERSE_SLICE_INDEX("ReverseSliceIndex", Flag.EXPENSIVE),
    MIRROR_SLICE_INDEX("MirrorSliceIndex", Flag.EXPENSIVE),
    MIRROR_REVERSE_SLICE_INDEX("MirrorReverseSliceIndex", Flag.EXPENSIVE),
    // bounded by Len, and how a set expression pages a source from its owner: never waits for a bulkhead slot
    SLICE_LEN("SliceLen"),
    REVERSE_SLICE_LEN("ReverseSliceLen"),
    MIRROR_SLICE_LEN("MirrorSliceLen"),
    MIRROR_REVERSE_SLICE_LEN("MirrorReverseSliceLen"),
    SIZE("Size", Flag.BROADCAST),
    // Redis' key space over RESP: keys holding a value or a non-empty sub tree (a hash or sorted set too)
    KEY_NEXT("KeyNext", Flag.BROADCAST),
    KEY_COUNT("KeyCount", Flag.BROADCAST),
    SUB_SIZE("SubSize"),
    OWNED("Owned", Flag.LOCAL),
    // mutating only with Dest: its writes are authorised where they happen (Admission#authorizeWrite)
    SET_EXPRESSION("SetExpression", Shape.SET_EXPRESSION, Flag.EXPENSIVE),
    CONFIGURATION("Configuration", Flag.LOCAL),
    SUB_CONFIGURATION("SubConfiguration"),
    DESCRIBE("Describe", Flag.LOCAL, Flag.RING_VIEW),
    DESCRIBE_TREE("DescribeTree", Flag.LOCAL, Flag.EXPENSIVE),
    NODES("Nodes", Flag.LOCAL, Flag.RING_VIEW);

    /** How a command is treated. */
    public enum Flag {
        /** Changes data: needs the client credential when auth is on. */
        MUTATING,
        /** Writes one record stamped by the first node that executes or forwards it (the stamp travels along). */
        STAMPED,
        /** Runs on every member; the answers are combined. */
        BROADCAST,
        /** Answered by the receiving node itself, also while it joins or is stale (its own view, its own data). */
        LOCAL,
        /** A point read: may be answered on the network event loop by a node alone in its ring. */
        POINT_READ,
        /** Its cost grows with the data it reads: it runs in the bulkhead. */
        EXPENSIVE,
        /**
         * Answers with the node's view of its ring: refused while the node is stale or still joining, when "just
         * me" would make a client route to a ring of one.
         */
        RING_VIEW
    }

    /** The arguments a command takes. */
    public enum Shape {
        /** Key, SubKey, Value, ranges and indexes. */
        KEYED,
        /** A configuration change (TreeKey, Key, Value). */
        CONFIGURATION,
        /** A set expression. */
        SET_EXPRESSION
    }

    /** The route prefix of every method name of the JSON contract (and of forwarded calls). */
    public static final String SERVICE = "DHash.";

    private static final Map<String, Command> BY_NAME = Arrays.stream(values())
            .collect(Collectors.toUnmodifiableMap(Command::method, Function.identity()));

    private final String method;
    private final Shape shape;
    private final Set<Flag> flags;

    Command(String method, Flag... flags) {
        this(method, Shape.KEYED, flags);
    }

    Command(String method, Shape shape, Flag... flags) {
        this.method = method;
        this.shape = shape;
        this.flags = flags.length == 0 ? EnumSet.noneOf(Flag.class) : EnumSet.of(flags[0], flags);
    }

    /** The method name without {@code DHash.}, e.g. "SubPut". */
    public String method() {
        return method;
    }

    public Shape shape() {
        return shape;
    }

    /** The record type of its requests ({@link Request#type}); the JSON contract's shape is {@link JsonRequests#wireType}. */
    public Class<? extends Request> requestType() {
        return Request.type(this);
    }

    public boolean is(Flag flag) {
        return flags.contains(flag);
    }

    /** The command of a method name (without {@code DHash.}), or null for an unknown one. */
    public static Command named(String method) {
        return method == null ? null : BY_NAME.get(method);
    }

    /** Every method name, sorted. */
    public static Set<String> methods() {
        return new TreeSet<>(BY_NAME.keySet());
    }
}

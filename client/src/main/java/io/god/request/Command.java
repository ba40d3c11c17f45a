package io.god.request;

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
 * command up here instead of keeping their own lists of names; the client ({@code GodClient}) names its binary
 * commands by the same rows, so the table lives in the client module, which the node depends on.
 */
public enum Command {
    PUT(1, "Put", Flag.MUTATING, Flag.STAMPED),
    DEL(2, "Del", Flag.MUTATING, Flag.STAMPED),
    SUB_PUT(3, "SubPut", Flag.MUTATING, Flag.STAMPED),
    SUB_DEL(4, "SubDel", Flag.MUTATING, Flag.STAMPED),
    SUB_CLEAR(5, "SubClear", Flag.MUTATING, Flag.STAMPED),
    // a read-modify-write of a key's sub tree at its owner (hashes and sorted sets over RESP): SubUpdates
    SUB_UPDATE(6, "SubUpdate", Flag.MUTATING),
    // stamped once by the entry node and sent along: a member it reaches late (after the call's deadline, e.g. a
    // paused process) clears only what was written before it, not the writes acknowledged since (Timestamps#forWrite)
    CLEAR(7, "Clear", Flag.MUTATING, Flag.STAMPED, Flag.BROADCAST),
    ADD_CONFIGURATION(8, "AddConfiguration", Shape.CONFIGURATION, Flag.MUTATING, Flag.BROADCAST),
    SUB_ADD_CONFIGURATION(9, "SubAddConfiguration", Shape.CONFIGURATION, Flag.MUTATING),
    GET(10, "Get", Flag.POINT_READ),
    SUB_GET(11, "SubGet", Flag.POINT_READ),
    NEXT(12, "Next", Flag.BROADCAST),
    PREV(13, "Prev", Flag.BROADCAST),
    SUB_NEXT(14, "SubNext"),
    SUB_PREV(15, "SubPrev"),
    SUB_MIRROR_NEXT(16, "SubMirrorNext"),
    SUB_MIRROR_PREV(17, "SubMirrorPrev"),
    FIRST(18, "First"),
    LAST(19, "Last"),
    MIRROR_FIRST(20, "MirrorFirst"),
    MIRROR_LAST(21, "MirrorLast"),
    NEXT_INDEX(22, "NextIndex"),
    PREV_INDEX(23, "PrevIndex"),
    MIRROR_NEXT_INDEX(24, "MirrorNextIndex"),
    MIRROR_PREV_INDEX(25, "MirrorPrevIndex"),
    INDEX_OF(26, "IndexOf"),
    REVERSE_INDEX_OF(27, "ReverseIndexOf"),
    MIRROR_INDEX_OF(28, "MirrorIndexOf"),
    MIRROR_REVERSE_INDEX_OF(29, "MirrorReverseIndexOf"),
    COUNT(30, "Count"),
    MIRROR_COUNT(31, "MirrorCount"),
    SLICE(32, "Slice", Flag.EXPENSIVE),
    REVERSE_SLICE(33, "ReverseSlice", Flag.EXPENSIVE),
    MIRROR_SLICE(34, "MirrorSlice", Flag.EXPENSIVE),
    MIRROR_REVERSE_SLICE(35, "MirrorReverseSlice", Flag.EXPENSIVE),
    SLICE_INDEX(36, "SliceIndex", Flag.EXPENSIVE),
    REVERSE_SLICE_INDEX(37, "ReverseSliceIndex", Flag.EXPENSIVE),
    MIRROR_SLICE_INDEX(38, "MirrorSliceIndex", Flag.EXPENSIVE),
    MIRROR_REVERSE_SLICE_INDEX(39, "MirrorReverseSliceIndex", Flag.EXPENSIVE),
    // bounded by Len, and how a set expression pages a source from its owner: never waits for a bulkhead slot
    SLICE_LEN(40, "SliceLen"),
    REVERSE_SLICE_LEN(41, "ReverseSliceLen"),
    MIRROR_SLICE_LEN(42, "MirrorSliceLen"),
    MIRROR_REVERSE_SLICE_LEN(43, "MirrorReverseSliceLen"),
    SIZE(44, "Size", Flag.BROADCAST),
    // Redis' key space over RESP: keys holding a value or a non-empty sub tree (a hash or sorted set too)
    KEY_NEXT(45, "KeyNext", Flag.BROADCAST),
    KEY_COUNT(46, "KeyCount", Flag.BROADCAST),
    SUB_SIZE(47, "SubSize"),
    OWNED(48, "Owned", Flag.LOCAL),
    // mutating only with Dest: its writes are authorised where they happen (Admission#authorizeWrite)
    SET_EXPRESSION(49, "SetExpression", Shape.SET_EXPRESSION, Flag.EXPENSIVE),
    CONFIGURATION(50, "Configuration", Flag.LOCAL),
    SUB_CONFIGURATION(51, "SubConfiguration"),
    DESCRIBE(52, "Describe", Flag.LOCAL, Flag.RING_VIEW),
    DESCRIBE_TREE(53, "DescribeTree", Flag.LOCAL, Flag.EXPENSIVE),
    NODES(54, "Nodes", Flag.LOCAL, Flag.RING_VIEW);

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

    /**
     * The binary protocol's command ids ({@code BinaryRequests}): the first column of the table, fixed once given
     * (never the enum's ordinal, which a new row would shift). Each id once: a duplicate fails the class's loading.
     */
    private static final Map<Integer, Command> BY_ID = Arrays.stream(values())
            .collect(Collectors.toUnmodifiableMap(Command::id, Function.identity()));

    private static final Map<String, Command> BY_NAME = Arrays.stream(values())
            .collect(Collectors.toUnmodifiableMap(Command::method, Function.identity()));

    private final int id;
    private final String method;
    private final Shape shape;
    private final Set<Flag> flags;

    Command(int id, String method, Flag... flags) {
        this(id, method, Shape.KEYED, flags);
    }

    Command(int id, String method, Shape shape, Flag... flags) {
        this.id = id;
        this.method = method;
        this.shape = shape;
        this.flags = flags.length == 0 ? EnumSet.noneOf(Flag.class) : EnumSet.of(flags[0], flags);
    }

    /** The command's id in the binary protocol ({@link io.god.wire.Ops#COMMAND}); stable across versions. */
    public int id() {
        return id;
    }

    /** The command of a binary id, or null for an id this version does not know. */
    public static Command byId(int id) {
        return BY_ID.get(id);
    }

    /** The method name without {@code DHash.}, e.g. "SubPut". */
    public String method() {
        return method;
    }

    public Shape shape() {
        return shape;
    }

    /** The record type of its requests ({@link Request#type}); the JSON contract's shape is the node's {@code JsonRequests#wireType}. */
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

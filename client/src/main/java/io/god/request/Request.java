package io.god.request;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * One command with its arguments: a record per operation of the {@link Command} table, the only form in which the
 * executor (the node's {@code Executor}, {@code Operations}, {@code Forwarding}, {@code TreeReads}) sees a command.
 * Every front end builds these — the JSON contract through {@code JsonRequests}, {@code /v1}, RESP, the binary slice call and
 * the dashboard directly, and the client ({@code GodClient}) sends them as binary commands ({@link BinaryRequests}).
 *
 * <p>Each command has exactly one record type ({@link #type}); operations that differ only in direction or in
 * reading the mirror share one and carry their {@link Command}, which the record's constructor checks belongs to it.
 * Fields are what the JSON contract gives: a null key stays null (the contract's answers echo it as {@code null},
 * and a null key names the empty key, Go's nil), so the records refuse nothing the contract takes; the size limits
 * are node settings, checked where they were (the node's Admission, after the credential and the node's state). Byte arrays are
 * not copied (this is the hot path): no one changes an array after handing it over.
 */
public sealed interface Request {

    /** The row of the command table this request runs. */
    Command command();

    /** Whether the answer carries each entry's Timestamp, tombstones included (a god extension of some reads). */
    default boolean stamped() {
        return false;
    }

    /** A command addressed by its Key: routed to the key's owner unless it is LOCAL or BROADCAST. */
    sealed interface Keyed extends Request {
        byte[] key();
    }

    /** The record type of each command: exactly one, total over the table (the compiler checks the switch). */
    static Class<? extends Request> type(Command c) {
        return switch (c) {
            case PUT -> Put.class;
            case DEL -> Del.class;
            case SUB_PUT -> SubPut.class;
            case SUB_DEL -> SubDel.class;
            case SUB_CLEAR -> SubClear.class;
            case SUB_UPDATE -> SubUpdate.class;
            case CLEAR -> Clear.class;
            case ADD_CONFIGURATION -> AddConfiguration.class;
            case SUB_ADD_CONFIGURATION -> SubAddConfiguration.class;
            case GET -> Get.class;
            case SUB_GET -> SubGet.class;
            case NEXT, PREV -> Next.class;
            case KEY_NEXT -> KeyNext.class;
            case SUB_NEXT, SUB_PREV, SUB_MIRROR_NEXT, SUB_MIRROR_PREV -> SubNext.class;
            case FIRST, LAST, MIRROR_FIRST, MIRROR_LAST -> First.class;
            case NEXT_INDEX, PREV_INDEX, MIRROR_NEXT_INDEX, MIRROR_PREV_INDEX -> NextIndex.class;
            case INDEX_OF, REVERSE_INDEX_OF, MIRROR_INDEX_OF, MIRROR_REVERSE_INDEX_OF -> IndexOf.class;
            case COUNT, MIRROR_COUNT -> Count.class;
            case SLICE, REVERSE_SLICE, MIRROR_SLICE, MIRROR_REVERSE_SLICE -> Slice.class;
            case SLICE_INDEX, REVERSE_SLICE_INDEX, MIRROR_SLICE_INDEX, MIRROR_REVERSE_SLICE_INDEX -> SliceIndex.class;
            case SLICE_LEN, REVERSE_SLICE_LEN, MIRROR_SLICE_LEN, MIRROR_REVERSE_SLICE_LEN -> SliceLen.class;
            case SIZE -> Size.class;
            case KEY_COUNT -> KeyCount.class;
            case SUB_SIZE -> SubSize.class;
            case OWNED -> Owned.class;
            case SET_EXPRESSION -> SetExpression.class;
            case CONFIGURATION -> Configuration.class;
            case SUB_CONFIGURATION -> SubConfiguration.class;
            case DESCRIBE -> Describe.class;
            case DESCRIBE_TREE -> DescribeTree.class;
            case NODES -> Nodes.class;
        };
    }

    /** A shared record type refuses a command of another one: a programming error, not a client's. */
    private static Command of(Command c, Class<? extends Request> type) {
        if (c == null || type(c) != type) {
            throw new IllegalArgumentException(c + " is no " + type.getSimpleName() + " command");
        }
        return c;
    }

    // ------------------------------------------------------------------ writes

    record Put(byte[] key, byte[] value, boolean sync) implements Keyed {
        public Command command() { return Command.PUT; }
    }

    record Del(byte[] key, boolean sync) implements Keyed {
        public Command command() { return Command.DEL; }
    }

    record SubPut(byte[] key, byte[] subKey, byte[] value, boolean sync) implements Keyed {
        public Command command() { return Command.SUB_PUT; }
    }

    record SubDel(byte[] key, byte[] subKey, boolean sync) implements Keyed {
        public Command command() { return Command.SUB_DEL; }
    }

    record SubClear(byte[] key, boolean sync) implements Keyed {
        public Command command() { return Command.SUB_CLEAR; }
    }

    /** A read-modify-write of the key's sub tree; {@code update} is the node's {@code SubUpdates#encode}d (the contract's Value). */
    record SubUpdate(byte[] key, byte[] update, boolean sync) implements Keyed {
        public Command command() { return Command.SUB_UPDATE; }
    }

    record Clear() implements Request {
        public Command command() { return Command.CLEAR; }
    }

    /** The node's configuration: {@code value} "" removes {@code key}. */
    record AddConfiguration(String key, String value) implements Request {
        public Command command() { return Command.ADD_CONFIGURATION; }
    }

    record SubAddConfiguration(byte[] treeKey, String key, String value) implements Request {
        public Command command() { return Command.SUB_ADD_CONFIGURATION; }
    }

    // ------------------------------------------------------------------ point reads and neighbours

    record Get(byte[] key, boolean stamped) implements Keyed {
        public Command command() { return Command.GET; }
    }

    record SubGet(byte[] key, byte[] subKey, boolean stamped) implements Keyed {
        public Command command() { return Command.SUB_GET; }
    }

    /** Next or Prev: the nearest top-level value after or before key (any member's). */
    record Next(Command command, byte[] key) implements Keyed {
        public Next { of(command, Next.class); }
    }

    /** The nearest key holding a value or a non-empty sub tree after key (RESP's key space). */
    record KeyNext(byte[] key) implements Keyed {
        public Command command() { return Command.KEY_NEXT; }
    }

    /** SubNext, SubPrev and their mirror forms: the neighbour of subKey in key's sub tree. */
    record SubNext(Command command, byte[] key, byte[] subKey) implements Keyed {
        public SubNext { of(command, SubNext.class); }
    }

    /** First, Last and their mirror forms. */
    record First(Command command, byte[] key) implements Keyed {
        public First { of(command, First.class); }
    }

    /** NextIndex, PrevIndex and their mirror forms: the entry after or before position index. */
    record NextIndex(Command command, byte[] key, long index) implements Keyed {
        public NextIndex { of(command, NextIndex.class); }
    }

    /** IndexOf, ReverseIndexOf and their mirror forms: the position of subKey. */
    record IndexOf(Command command, byte[] key, byte[] subKey) implements Keyed {
        public IndexOf { of(command, IndexOf.class); }
    }

    record SubSize(byte[] key) implements Keyed {
        public Command command() { return Command.SUB_SIZE; }
    }

    record SubConfiguration(byte[] key) implements Keyed {
        public Command command() { return Command.SUB_CONFIGURATION; }
    }

    // ------------------------------------------------------------------ ranges

    /** Count and MirrorCount: entries between min and max (null: unbounded). */
    record Count(Command command, byte[] key, byte[] min, byte[] max, boolean minInc, boolean maxInc)
            implements Keyed {
        public Count { of(command, Count.class); }
    }

    /** Slice and its reverse and mirror forms, by key (or value) range; {@code stamped} only for the plain two. */
    record Slice(Command command, byte[] key, byte[] min, byte[] max, boolean minInc, boolean maxInc,
                 boolean stamped) implements Keyed {
        public Slice { of(command, Slice.class); }
    }

    /** SliceIndex and its reverse and mirror forms, by position (null: from the start, to the end). */
    record SliceIndex(Command command, byte[] key, Long minIndex, Long maxIndex) implements Keyed {
        public SliceIndex { of(command, SliceIndex.class); }
    }

    /** SliceLen and its reverse and mirror forms: len entries from {@code from}; {@code stamped} for the plain two. */
    record SliceLen(Command command, byte[] key, byte[] from, boolean fromInc, long len, boolean stamped)
            implements Keyed {
        public SliceLen { of(command, SliceLen.class); }
    }

    // ------------------------------------------------------------------ the ring and the node

    record Size() implements Request {
        public Command command() { return Command.SIZE; }
    }

    record KeyCount() implements Request {
        public Command command() { return Command.KEY_COUNT; }
    }

    record Owned() implements Request {
        public Command command() { return Command.OWNED; }
    }

    record Configuration() implements Request {
        public Command command() { return Command.CONFIGURATION; }
    }

    record Describe() implements Request {
        public Command command() { return Command.DESCRIBE; }
    }

    record DescribeTree() implements Request {
        public Command command() { return Command.DESCRIBE_TREE; }
    }

    /** {@code expected}: the answer also lists expected members absent from this node's view. */
    record Nodes(boolean expected) implements Request {
        public Command command() { return Command.NODES; }
    }

    // ------------------------------------------------------------------ set expressions

    /**
     * A set expression as {@code code} (an s-expression) or {@code op} (its tree; checked against the set-expression
     * limits when it runs); results between min and max, at most len (0: no limit), stored into the sub tree dest
     * when it is set. {@code exactNumbers}: a numeric merge refuses a value that is not 8 bytes.
     */
    record SetExpression(Op op, String code, byte[] min, byte[] max, boolean minInc, boolean maxInc, long len,
                         byte[] dest, boolean exactNumbers) implements Request {
        public Command command() { return Command.SET_EXPRESSION; }

        /** An expression by its code alone, as /v1 and RESP send it. */
        public static SetExpression code(String code, long len, byte[] dest) {
            return new SetExpression(null, code, null, null, false, false, len, dest, false);
        }

        /**
         * setop.SetOp: its sources (null or empty: refused when it runs, as are null sources), type and merge
         * codes. The list is a copy that keeps nulls.
         */
        public record Op(List<Source> sources, int type, int merge) {
            public Op {
                sources = sources == null ? null : Collections.unmodifiableList(new ArrayList<>(sources));
            }
        }

        /** setop.SetOpSource: a sub tree's key, or a nested operation, and an optional weight. */
        public record Source(byte[] key, Op op, Double weight) {
        }
    }
}

package io.god.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.god.request.BinaryRequests;
import io.god.request.Command;
import io.god.request.Request;
import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The records of the command core: every command of the table has exactly one record type, every record type serves
 * at least one command, a shared type refuses a command of another one, and the JSON contract's codec loses nothing —
 * a record, encoded as forwarding sends it and decoded as a node receives it, is the same record (seeded random
 * arguments of every command, nulls and empty keys included).
 */
class RequestRecordsTest {

    static final ObjectMapper JSON = Wire.mapper();

    @Test
    void everyCommandHasExactlyOneRecordTypeAndEveryRecordTypeACommand() {
        Set<Class<?>> records = new HashSet<>();
        collectRecords(Request.class, records);
        Set<Class<?>> used = new HashSet<>();
        for (Command c : Command.values()) {
            Class<? extends Request> type = Request.type(c);
            assertThat(type.isRecord()).as(c.method()).isTrue();
            assertThat(records).as(c.method()).contains(type);
            assertThat(c.requestType()).isEqualTo(type);
            used.add(type);
            Request r = random(c, new Random(c.ordinal()));
            assertThat(r).isInstanceOf(type);
            assertThat(r.command()).as(c.method()).isEqualTo(c);
        }
        assertThat(used).as("record types without a command").containsExactlyInAnyOrderElementsOf(records);
    }

    @Test
    void aSharedRecordTypeRefusesACommandOfAnotherType() {
        assertThatThrownBy(() -> new Request.Slice(Command.SLICE_LEN, null, null, null, false, false, false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("SLICE_LEN is no Slice command");
        assertThatThrownBy(() -> new Request.Next(Command.KEY_NEXT, null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Request.Count(null, null, null, null, false, false))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> JsonRequests.of(Command.PUT, new Wire.ConfReq()))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("Put takes a Req");
    }

    @Test
    void aRecordSurvivesTheJsonContractBothWaysForEveryCommand() throws Exception {
        Random random = new Random(28);
        for (Command c : Command.values()) {
            for (int i = 0; i < 200; i++) {
                Request r = random(c, random);
                byte[] body = JSON.writeValueAsBytes(io.god.request.JsonBodies.of(r));
                Request back = JsonRequests.of(c, JSON.readValue(body, JsonRequests.wireType(c)));
                assertThat(same(r, back)).as(c.method() + ": " + new String(body, java.nio.charset.StandardCharsets.UTF_8))
                        .isTrue();
            }
        }
    }

    @Test
    void aRecordSurvivesTheBinaryCodecBothWaysForEveryCommand() {
        Random random = new Random(29);
        io.god.limits.Limits limits = io.god.limits.Limits.defaultLimits();
        for (Command c : Command.values()) {
            assertThat(Command.byId(c.id())).as(c.method()).isSameAs(c);
            for (int i = 0; i < 200; i++) {
                Request r = random(c, random);
                int hops = random.nextInt(256);
                int mode = random.nextInt(2);
                long stamp = random.nextBoolean() ? 0 : random.nextLong() & Long.MAX_VALUE;
                String auth = random.nextBoolean() ? null : "Bearer t" + random.nextInt(1000);
                byte[] wire = new BinaryRequests.Envelope(r, auth, hops, mode, stamp).encode();
                BinaryRequests.Envelope back = BinaryRequests.decode(wire, limits);
                assertThat(same(r, back.request())).as(c.method() + ": " + r).isTrue();
                assertThat(back).extracting(BinaryRequests.Envelope::authorization, BinaryRequests.Envelope::hops,
                        BinaryRequests.Envelope::mode, BinaryRequests.Envelope::stamp)
                        .containsExactly(auth, hops, mode, stamp);
                BinaryRequests.Envelope head = BinaryRequests.peek(wire);
                assertThat(head.request()).isNull();
                assertThat(head.hops()).isEqualTo(hops);
                // every cut of the frame is refused as malformed, never read as another command
                int cut = random.nextInt(wire.length);
                assertThatThrownBy(() -> BinaryRequests.decode(Arrays.copyOf(wire, cut), limits))
                        .as(c.method() + " cut at " + cut).isInstanceOf(io.god.wire.WireException.class);
            }
        }
    }

    @Test
    void theBinaryCodecRefusesUnknownIdsFlagsHugeLengthsAndDeepExpressions() {
        io.god.limits.Limits limits = io.god.limits.Limits.defaultLimits();
        byte[] unknown = new io.god.wire.WireWriter().varint(4000).u8(0).varint(0).string(null).signed(0).toBytes();
        assertThatThrownBy(() -> BinaryRequests.decode(unknown, limits)).isInstanceOf(io.god.wire.WireException.class)
                .hasMessageContaining("unknown command id 4000");
        byte[] syncRead = new io.god.wire.WireWriter().varint(Command.GET.id()).u8(1).varint(0).string(null).signed(0)
                .bytes(new byte[0]).toBytes();
        assertThatThrownBy(() -> BinaryRequests.decode(syncRead, limits)).hasMessageContaining("Sync on Get");
        // a key declared 2^40 bytes long in a frame of a few: refused before anything is allocated for it
        byte[] huge = new io.god.wire.WireWriter().varint(Command.GET.id()).u8(0).varint(0).string(null).signed(0)
                .varint(1L << 40).toBytes();
        assertThatThrownBy(() -> BinaryRequests.decode(huge, limits)).isInstanceOf(io.god.wire.WireException.class)
                .hasMessageContaining("runs past the payload end");
        Request.SetExpression.Op op = new Request.SetExpression.Op(List.of(new Request.SetExpression.Source(
                new byte[] {1}, null, null)), 0, 0);
        for (int i = 0; i < limits.setDepth(); i++) {
            op = new Request.SetExpression.Op(List.of(new Request.SetExpression.Source(null, op, null)), 0, 0);
        }
        byte[] deep = new BinaryRequests.Envelope(new Request.SetExpression(op, null, null, null, false, false, 0, null,
                false), null, 0, 0, 0).encode();
        assertThatThrownBy(() -> BinaryRequests.decode(deep, limits))
                .isInstanceOf(io.god.limits.LimitExceededException.class).hasMessageContaining("depth");
    }

    private static void collectRecords(Class<?> sealed, Set<Class<?>> into) {
        for (Class<?> c : sealed.getPermittedSubclasses()) {
            if (c.isRecord()) {
                into.add(c);
            } else {
                collectRecords(c, into);
            }
        }
    }

    /** A record of command {@code c} with random arguments: each component by its type, nulls included. */
    static Request random(Command c, Random random) {
        Class<? extends Request> type = Request.type(c);
        RecordComponent[] components = type.getRecordComponents();
        Object[] args = new Object[components.length];
        Class<?>[] types = new Class<?>[components.length];
        for (int i = 0; i < components.length; i++) {
            types[i] = components[i].getType();
            args[i] = types[i] == Command.class ? c : value(types[i], random, 0);
        }
        try {
            Constructor<? extends Request> ctor = type.getDeclaredConstructor(types);
            return ctor.newInstance(args);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(type + ": " + e, e);
        }
    }

    private static Object value(Class<?> type, Random random, int depth) {
        if (type == boolean.class) {
            return random.nextBoolean();
        }
        if (type == long.class) {
            return random.nextBoolean() ? (long) random.nextInt(100) - 50 : random.nextLong();
        }
        if (type == int.class) {
            return random.nextInt(10);
        }
        if (random.nextInt(5) == 0) {
            return null; // absent in the JSON contract
        }
        if (type == byte[].class) {
            byte[] b = new byte[random.nextInt(12)];
            random.nextBytes(b);
            return b;
        }
        if (type == Long.class) {
            return random.nextBoolean() ? (long) random.nextInt(2000) - 1000 : random.nextLong();
        }
        if (type == Double.class) {
            return random.nextGaussian() * 100;
        }
        if (type == String.class) {
            return random.ints(random.nextInt(8), 0x20, 0x3000).collect(StringBuilder::new,
                    StringBuilder::appendCodePoint, StringBuilder::append).toString();
        }
        if (type == Request.SetExpression.Op.class) {
            List<Request.SetExpression.Source> sources = new ArrayList<>();
            for (int i = random.nextInt(4); i > 0; i--) {
                sources.add(random.nextInt(8) == 0 ? null : new Request.SetExpression.Source(
                        (byte[]) value(byte[].class, random, depth),
                        depth < 2 && random.nextBoolean() ? (Request.SetExpression.Op) value(type, random, depth + 1) : null,
                        (Double) value(Double.class, random, depth)));
            }
            return new Request.SetExpression.Op(sources, random.nextInt(4), random.nextInt(12));
        }
        throw new AssertionError("no random " + type);
    }

    /** Equality of records by value: arrays by content, nested records and lists component by component. */
    static boolean same(Object a, Object b) {
        if (a == null || b == null) {
            return a == b;
        }
        if (a instanceof byte[] x && b instanceof byte[] y) {
            return Arrays.equals(x, y);
        }
        if (a instanceof List<?> x && b instanceof List<?> y) {
            if (x.size() != y.size()) {
                return false;
            }
            for (int i = 0; i < x.size(); i++) {
                if (!same(x.get(i), y.get(i))) {
                    return false;
                }
            }
            return true;
        }
        if (a.getClass().isRecord() && a.getClass() == b.getClass()) {
            try {
                for (RecordComponent rc : a.getClass().getRecordComponents()) {
                    if (!same(rc.getAccessor().invoke(a), rc.getAccessor().invoke(b))) {
                        return false;
                    }
                }
                return true;
            } catch (ReflectiveOperationException e) {
                throw new AssertionError(e);
            }
        }
        return Objects.equals(a, b);
    }
}

package io.god.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
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
                byte[] body = JSON.writeValueAsBytes(JsonRequests.toWire(r));
                Request back = JsonRequests.of(c, JSON.readValue(body, JsonRequests.wireType(c)));
                assertThat(same(r, back)).as(c.method() + ": " + new String(body, java.nio.charset.StandardCharsets.UTF_8))
                        .isTrue();
            }
        }
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

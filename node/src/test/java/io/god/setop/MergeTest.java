package io.god.setop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Every merge value of reference §4.3 (forms: old=[a] new=[b,c,d] w=1; old=nil; weight 2). */
class MergeTest {

    static List<byte[]> big(long... v) {
        return Arrays.stream(v).mapToObj(x -> Encodings.encodeBigInt(BigInteger.valueOf(x))).collect(Collectors.toList());
    }

    static List<byte[]> ints(long... v) {
        return Arrays.stream(v).mapToObj(Encodings::encodeInt64).collect(Collectors.toList());
    }

    static List<byte[]> floats(double... v) {
        return Arrays.stream(v).mapToObj(Encodings::encodeFloat64).collect(Collectors.toList());
    }

    static List<byte[]> str(String... v) {
        return Arrays.stream(v).map(s -> s.getBytes(StandardCharsets.UTF_8)).collect(Collectors.toList());
    }

    static long bigResult(List<byte[]> r) {
        assertThat(r).hasSize(1);
        return Encodings.decodeBigInt(r.get(0)).longValueExact();
    }

    static long intResult(List<byte[]> r) {
        assertThat(r).hasSize(1);
        return Encodings.decodeInt64(r.get(0));
    }

    static double floatResult(List<byte[]> r) {
        assertThat(r).hasSize(1);
        return Encodings.decodeFloat64(r.get(0));
    }

    static List<String> strings(List<byte[]> r) {
        return r.stream().map(b -> new String(b, StandardCharsets.UTF_8)).collect(Collectors.toList());
    }

    /** Checks the three forms of the reference for a big-int merge. */
    static void bigForms(Merge m, long[] abcd, long first, long second, long[] weighted, long third) {
        assertThat(bigResult(m.apply(big(abcd[0]), big(Arrays.copyOfRange(abcd, 1, 4)), 1))).isEqualTo(first);
        assertThat(bigResult(m.apply(null, big(abcd), 1))).isEqualTo(second);
        assertThat(bigResult(m.apply(big(weighted[0]), big(weighted[1]), 2))).isEqualTo(third);
    }

    @Test
    void numericOrderIsTheJsonContract() {
        String[] names = {"Append", "ConCat", "IntegerSum", "IntegerDiv", "IntegerMul", "FloatSum", "FloatDiv",
                "FloatMul", "BigIntAnd", "BigIntAdd", "BigIntAndNot", "BigIntDiv", "BigIntMod", "BigIntMul", "BigIntOr",
                "BigIntRem", "BigIntXor", "First", "Last"};
        assertThat(Merge.values()).hasSize(19);
        for (int i = 0; i < names.length; i++) {
            assertThat(Merge.fromCode(i).label()).isEqualTo(names[i]);
            assertThat(Merge.fromLabel(names[i]).code()).isEqualTo(i);
        }
        assertThat(Merge.fromLabel("append")).isNull();
        assertThatThrownBy(() -> Merge.fromCode(19)).isInstanceOf(SetOpException.class);
        assertThatThrownBy(() -> Merge.fromCode(-1)).isInstanceOf(SetOpException.class);
    }

    @Test
    void bigIntXor() {
        bigForms(Merge.BIG_INT_XOR, new long[] {15, 1, 2, 4}, 8, 8, new long[] {15, 3}, 9);
    }

    @Test
    void bigIntRem() {
        bigForms(Merge.BIG_INT_REM, new long[] {50, 30, 11, 7}, 2, 2, new long[] {50, 7}, 8);
    }

    @Test
    void bigIntMul() {
        bigForms(Merge.BIG_INT_MUL, new long[] {1, 2, 3, 4}, 24, 24, new long[] {1, 2}, 4);
    }

    @Test
    void bigIntOr() {
        bigForms(Merge.BIG_INT_OR, new long[] {1, 2, 3, 4}, 7, 7, new long[] {1, 2}, 5);
    }

    @Test
    void bigIntMod() {
        bigForms(Merge.BIG_INT_MOD, new long[] {50, 30, 7, 4}, 2, 2, new long[] {50, 15}, 20);
    }

    @Test
    void bigIntDiv() {
        bigForms(Merge.BIG_INT_DIV, new long[] {48, 2, 3, 4}, 2, 2, new long[] {48, 2}, 12);
    }

    @Test
    void bigIntAndNot() {
        bigForms(Merge.BIG_INT_AND_NOT, new long[] {15, 1, 2, 4}, 8, 8, new long[] {15, 2}, 11);
    }

    @Test
    void bigIntAdd() {
        bigForms(Merge.BIG_INT_ADD, new long[] {1, 2, 3, 4}, 10, 10, new long[] {1, 2}, 5);
    }

    @Test
    void bigIntAnd() {
        bigForms(Merge.BIG_INT_AND, new long[] {1, 2, 3, 4}, 0, 0, new long[] {15, 3}, 6);
        // only old[0] is used
        assertThat(bigResult(Merge.BIG_INT_AND.apply(big(1, 3), big(3, 5), 1))).isEqualTo(1);
        assertThat(bigResult(Merge.BIG_INT_AND.apply(null, big(1, 3, 3, 5), 1))).isEqualTo(1);
    }

    @Test
    void bigIntKeepsSignsAndUsesEuclideanDivMod() {
        assertThat(bigResult(Merge.BIG_INT_ADD.apply(big(5), big(-8), 1))).isEqualTo(-3);
        assertThat(Merge.BIG_INT_ADD.apply(big(5), big(-8), 1).get(0)).containsExactly(0x00, 0x03);
        assertThat(bigResult(Merge.BIG_INT_DIV.apply(big(-7), big(2), 1))).isEqualTo(-4);
        assertThat(bigResult(Merge.BIG_INT_DIV.apply(big(-7), big(-2), 1))).isEqualTo(4);
        assertThat(bigResult(Merge.BIG_INT_MOD.apply(big(-7), big(2), 1))).isEqualTo(1);
        assertThat(bigResult(Merge.BIG_INT_MOD.apply(big(-7), big(-2), 1))).isEqualTo(1);
        assertThat(bigResult(Merge.BIG_INT_REM.apply(big(-7), big(2), 1))).isEqualTo(-1);
        assertThat(bigResult(Merge.BIG_INT_MUL.apply(null, big(3, 4), -1))).isEqualTo(12);
        // the original's magnitude-only values are read unchanged
        assertThat(bigResult(Merge.BIG_INT_ADD.apply(List.of(new byte[] {1, 2}), List.of(new byte[] {5}), 1)))
                .isEqualTo(263);
    }

    @Test
    void floatMerges() {
        assertThat(floatResult(Merge.FLOAT_MUL.apply(floats(1), floats(2, 3, 4), 1))).isEqualTo(24.0);
        assertThat(floatResult(Merge.FLOAT_MUL.apply(null, floats(1, 2, 3, 4), 1))).isEqualTo(24.0);
        assertThat(floatResult(Merge.FLOAT_MUL.apply(floats(2), floats(2), 2))).isEqualTo(8.0);
        assertThat(floatResult(Merge.FLOAT_DIV.apply(floats(48), floats(2, 3, 4), 1))).isEqualTo(2.0);
        assertThat(floatResult(Merge.FLOAT_DIV.apply(null, floats(48, 2, 3, 4), 1))).isEqualTo(2.0);
        assertThat(floatResult(Merge.FLOAT_DIV.apply(floats(48), floats(2), 2))).isEqualTo(12.0);
        assertThat(floatResult(Merge.FLOAT_SUM.apply(floats(1), floats(2, 3, 4), 1))).isEqualTo(10.0);
        assertThat(floatResult(Merge.FLOAT_SUM.apply(null, floats(1, 2, 3, 4), 1))).isEqualTo(10.0);
        assertThat(floatResult(Merge.FLOAT_SUM.apply(floats(1), floats(2), 2))).isEqualTo(5.0);
        // weights are not truncated for floats; x/0 follows IEEE-754
        assertThat(floatResult(Merge.FLOAT_SUM.apply(floats(1), floats(2), 0.5))).isEqualTo(2.0);
        assertThat(floatResult(Merge.FLOAT_DIV.apply(floats(1), floats(0), 1))).isEqualTo(Double.POSITIVE_INFINITY);
    }

    @Test
    void integerMerges() {
        assertThat(intResult(Merge.INTEGER_MUL.apply(ints(1), ints(2, 3, 4), 1))).isEqualTo(24);
        assertThat(intResult(Merge.INTEGER_MUL.apply(null, ints(1, 2, 3, 4), 1))).isEqualTo(24);
        assertThat(intResult(Merge.INTEGER_MUL.apply(ints(2), ints(2), 2))).isEqualTo(8);
        assertThat(intResult(Merge.INTEGER_DIV.apply(ints(48), ints(2, 3, 4), 1))).isEqualTo(2);
        assertThat(intResult(Merge.INTEGER_DIV.apply(null, ints(48, 2, 3, 4), 1))).isEqualTo(2);
        assertThat(intResult(Merge.INTEGER_DIV.apply(ints(48), ints(2), 2))).isEqualTo(12);
        assertThat(intResult(Merge.INTEGER_SUM.apply(ints(1), ints(2, 3, 4), 1))).isEqualTo(10);
        assertThat(intResult(Merge.INTEGER_SUM.apply(null, ints(1, 2, 3, 4), 1))).isEqualTo(10);
        assertThat(intResult(Merge.INTEGER_SUM.apply(ints(1), ints(2), 2))).isEqualTo(5);
        assertThat(intResult(Merge.INTEGER_SUM.apply(ints(-3), ints(2), 1))).isEqualTo(-1);
        // weight truncated: 2.9 -> 2; undecodable (short) values skipped, longer ones use 8 bytes
        assertThat(intResult(Merge.INTEGER_SUM.apply(ints(1), ints(2), 2.9))).isEqualTo(5);
        byte[] longer = Arrays.copyOf(Encodings.encodeInt64(7), 12);
        assertThat(intResult(Merge.INTEGER_SUM.apply(List.of(new byte[] {1, 2}), List.of(longer), 1))).isEqualTo(7);
    }

    @Test
    void divisionByZeroIsAClearError() {
        assertThatThrownBy(() -> Merge.INTEGER_DIV.apply(ints(5), ints(0), 1))
                .isInstanceOf(SetOpArithmeticException.class).hasMessageContaining("IntegerDiv: division by zero");
        // a weight that truncates to 0 divides by zero too
        assertThatThrownBy(() -> Merge.INTEGER_DIV.apply(ints(5), ints(3), 0.5))
                .isInstanceOf(SetOpArithmeticException.class);
        assertThatThrownBy(() -> Merge.INTEGER_DIV.apply(null, ints(5, 0), 1))
                .isInstanceOf(SetOpArithmeticException.class);
        for (Merge m : List.of(Merge.BIG_INT_DIV, Merge.BIG_INT_MOD, Merge.BIG_INT_REM)) {
            assertThatThrownBy(() -> m.apply(big(5), big(0), 1))
                    .isInstanceOf(SetOpArithmeticException.class).hasMessageContaining(m.label() + ": division by zero");
        }
    }

    @Test
    void concat() {
        assertThat(strings(Merge.CONCAT.apply(str("1"), str("2", "3", "4"), 1))).containsExactly("1234");
        assertThat(strings(Merge.CONCAT.apply(null, str("1", "2", "3", "4"), 1))).containsExactly("1234");
        assertThat(strings(Merge.CONCAT.apply(str("1"), str("2"), 2))).containsExactly("122");
    }

    @Test
    void append() {
        assertThat(strings(Merge.APPEND.apply(str("1"), str("2", "3", "4"), 1))).containsExactly("1", "2", "3", "4");
        assertThat(strings(Merge.APPEND.apply(null, str("1", "2", "3", "4"), 1))).containsExactly("1", "2", "3", "4");
        assertThat(strings(Merge.APPEND.apply(str("1"), str("2"), 2))).containsExactly("1", "2", "2");
        assertThat(Merge.APPEND.apply(str("1"), str("2"), 0.5)).hasSize(1);
        assertThat(Merge.APPEND.apply(null, str("2"), -3)).isEmpty();
        assertThatThrownBy(() -> Merge.APPEND.apply(null, str("2"), 1e12)).isInstanceOf(SetOpException.class);
    }

    @Test
    void firstAndLast() {
        assertThat(strings(Merge.FIRST.apply(str("1"), str("2", "3"), 1))).containsExactly("1");
        assertThat(strings(Merge.FIRST.apply(null, str("2", "3"), 1))).containsExactly("2");
        assertThat(strings(Merge.LAST.apply(str("1"), str("2", "3"), 1))).containsExactly("3");
        assertThat(strings(Merge.LAST.apply(null, str("2"), 1))).containsExactly("2");
    }

    @Test
    void emptyValueListsNeverCrash() {
        for (Merge m : Merge.values()) {
            assertThat(m.apply(null, List.of(), 1)).isNotNull();
            assertThat(m.apply(List.of(), List.of(), 1)).isNotNull();
        }
    }
}

package io.god.setop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class SetOpParserTest {

    static SetOpSource k(String name) {
        return SetOpSource.key(name);
    }

    static SetOp op(SetOpType t, Merge m, SetOpSource... s) {
        return new SetOp(t, m, List.of(s));
    }

    /** TestSetOpParser of the reference. */
    @Test
    void referenceExpression() {
        String code = "(U (I ccc aa (D ffff*2 gg)*3) (I:ConCat c23 b_ff) (X dbla e&44))";
        SetOp expected = op(SetOpType.UNION, Merge.APPEND,
                SetOpSource.op(op(SetOpType.INTERSECTION, Merge.APPEND, k("ccc"), k("aa"),
                        SetOpSource.op(op(SetOpType.DIFFERENCE, Merge.APPEND, k("ffff").withWeight(2.0), k("gg"))).withWeight(3.0))),
                SetOpSource.op(op(SetOpType.INTERSECTION, Merge.CONCAT, k("c23"), k("b_ff"))),
                SetOpSource.op(op(SetOpType.XOR, Merge.APPEND, k("dbla"), k("e&44"))));
        SetOp parsed = SetOpParser.parse(code);
        assertThat(parsed).isEqualTo(expected);
        assertThat(parsed.toString()).isEqualTo(code);
        assertThat(parsed.depth()).isEqualTo(3);
    }

    @Test
    void spacingWeightsAndNames() {
        assertThat(SetOpParser.parse("  (U  a   b )").toString()).isEqualTo("(U a b)");
        assertThat(SetOpParser.parse("(U a*0.5 b*-1 c*1e3 d*+2.50 e*.5 f*1)").toString())
                .isEqualTo("(U a*0.5 b*-1 c*1000 d*2.5 e*0.5 f*1)");
        SetOp p = SetOpParser.parse("(U:BigIntXor x:y\tz äλ)");
        assertThat(p.merge()).isEqualTo(Merge.BIG_INT_XOR);
        assertThat(p.sources().get(0).key()).isEqualTo("x:y\tz".getBytes(StandardCharsets.UTF_8));
        assertThat(p.sources().get(1).key()).isEqualTo("äλ".getBytes(StandardCharsets.UTF_8));
        assertThat(SetOpParser.parse("(X (U a b)*2 c)").sources().get(0).weight()).isEqualTo(2.0);
        for (Merge m : Merge.values()) {
            assertThat(SetOpParser.parse("(I:" + m.label() + " a b)").merge()).isEqualTo(m);
        }
    }

    static SetOpParseException error(String code) {
        return catchThrowableOfType(SetOpParseException.class, () -> SetOpParser.parse(code));
    }

    static void fails(String code, String reason, int position) {
        SetOpParseException e = error(code);
        assertThat(e).as(code).isNotNull();
        assertThat(e.reason()).as(code).startsWith(reason);
        assertThat(e.position()).as(code).isEqualTo(position);
        assertThat(e.getMessage()).as(code).contains(" at " + position + " in " + code + ".");
    }

    @Test
    void errorsCarryPositionAndReason() {
        assertThat(error("(U tree").getMessage()).isEqualTo("Unexpected EOF at 7 in (U tree.");
        fails("(U tree", "Unexpected EOF", 7);
        fails("", "Unexpected EOF", 0);
        fails("   ", "Unexpected EOF", 3);
        fails("(", "Unexpected EOF", 1);
        fails("(U a*2", "Unexpected EOF", 6);
        fails("U a b", "Expected (", 0);
        fails("(U a*2*3)", "Unexpected *", 6);
        fails("(U *2)", "Unexpected *", 3);
        fails("(U a *2)", "Unexpected *", 5);
        fails("(U a(I b c))", "Unexpected (", 4);
        fails("(U (I b c)d)", "Expected space or )", 10);
        fails("(U)", "Empty operation not allowed", 2);
        fails("()", "Empty operation not allowed", 1);
        fails("( U a b)", "Empty operation not allowed", 1);
        fails("(U )", "Operation without parameters not allowed", 3);
        fails("(Q a)", "Unknown operation type Q", 1);
        fails("(UU a)", "Unknown operation type UU", 1);
        fails("(U a*x)", "Unparseable float64", 5);
        fails("(U a*)", "Unparseable float64", 5);
        fails("(U a*1e400)", "Unparseable float64", 5);
        fails("(U a*NaN)", "Unparseable float64", 5);
        fails("(U a b) ", "Unexpected characters", 7);
        fails("(U a b))", "Unexpected characters", 7);
        fails("(U:Foo a)", "Unknown SetOpType Foo", 3);
        assertThat(error("(U:Foo a)").getMessage()).endsWith("Legal values: Append, ConCat, IntegerSum, IntegerDiv, "
                + "IntegerMul, FloatSum, FloatDiv, FloatMul, BigIntAdd, BigIntAnd, BigIntAndNot, BigIntDiv, BigIntMod, "
                + "BigIntMul, BigIntOr, BigIntRem, BigIntXor, First, Last.");
        assertThat(error("(Q a)").getMessage()).isEqualTo("Unknown operation type Q at 1 in (Q a). Legal values: U,I,X,D.");
        assertThatThrownBy(() -> SetOpParser.parse(null)).isInstanceOf(SetOpParseException.class);
    }

    @Test
    void nestingIsBounded() {
        String ok = "(U ".repeat(SetOp.MAX_DEPTH) + "a" + ")".repeat(SetOp.MAX_DEPTH);
        assertThat(SetOpParser.parse(ok).depth()).isEqualTo(SetOp.MAX_DEPTH);
        String deep = "(U ".repeat(100_000) + "a" + ")".repeat(100_000);
        fails(deep, "Nesting deeper than", 3 * SetOp.MAX_DEPTH);
    }

    @Test
    void jsonOpForm() {
        SetOp inner = SetOp.of(1, 1, List.of(SetOpSource.of(new byte[] {'c'}, null, null),
                SetOpSource.of(new byte[] {'d'}, null, 0.5)));
        SetOp outer = SetOp.of(0, 0, List.of(SetOpSource.of(new byte[] {'a'}, null, null),
                SetOpSource.of(null, inner, 2.0)));
        assertThat(outer.toString()).isEqualTo("(U a (I:ConCat c d*0.5)*2)");
        assertThat(SetOpParser.parse(outer.toString())).isEqualTo(outer);
        assertThat(SetOp.of(3, 18, List.of(SetOpSource.of(new byte[] {'x'}, null, null))).type()).isEqualTo(SetOpType.XOR);
        List<SetOpSource> one = List.of(SetOpSource.key("a"));
        assertThatThrownBy(() -> SetOp.of(4, 0, one)).isInstanceOf(SetOpException.class).hasMessageContaining("Type 4");
        assertThatThrownBy(() -> SetOp.of(-1, 0, one)).isInstanceOf(SetOpException.class);
        assertThatThrownBy(() -> SetOp.of(0, 19, one)).isInstanceOf(SetOpException.class).hasMessageContaining("Merge 19");
        assertThatThrownBy(() -> SetOp.of(0, 0, List.of())).isInstanceOf(SetOpException.class);
        assertThatThrownBy(() -> SetOp.of(0, 0, null)).isInstanceOf(SetOpException.class);
        assertThatThrownBy(() -> SetOpSource.of(null, null, null)).isInstanceOf(SetOpException.class);
        assertThatThrownBy(() -> SetOpSource.of(new byte[] {'a'}, inner, null)).isInstanceOf(SetOpException.class);
        assertThatThrownBy(() -> SetOpSource.of(new byte[] {'a'}, null, Double.NaN)).isInstanceOf(SetOpException.class);
        SetOp deep = SetOp.of(0, 0, one);
        for (int i = 1; i < SetOp.MAX_DEPTH; i++) {
            deep = SetOp.of(0, 0, List.of(SetOpSource.op(deep)));
        }
        SetOp deepest = deep;
        assertThatThrownBy(() -> SetOp.of(0, 0, List.of(SetOpSource.op(deepest)))).isInstanceOf(SetOpException.class);
    }

    @Test
    void expressionNeedsCodeOrOp() {
        assertThatThrownBy(() -> SetExpression.of(null, null, null, null, false, false, 0, null))
                .isInstanceOf(SetOpException.class).hasMessageContaining("Code or Op");
        assertThat(SetExpression.of("(U a)", null, null, null, false, false, 0, null).op().toString()).isEqualTo("(U a)");
        SetOp op = SetOpParser.parse("(I a b)");
        assertThat(SetExpression.of("(U a", op, null, null, false, false, 0, null).op()).isEqualTo(op);
        assertThatThrownBy(() -> SetExpression.of("(U *2)", null, null, null, false, false, 0, null))
                .isInstanceOf(SetOpParseException.class);
    }
}

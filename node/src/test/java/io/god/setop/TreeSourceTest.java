package io.god.setop;

import static org.assertj.core.api.Assertions.assertThat;

import io.god.tree.Tree;
import io.god.tree.TreeState;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/** Set expressions over the engine's sub trees, and results stored into a destination sub tree. */
class TreeSourceTest {
    final AtomicLong now = new AtomicLong(1_000_000_000_000L);

    Tree tree() {
        return new Tree(now::incrementAndGet, Duration.ofHours(24));
    }

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static String s(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    void fill(Tree t, String sub, String... keys) {
        for (String k : keys) {
            t.subPut(b(sub), b(k), b(k), now.incrementAndGet());
        }
    }

    Tree reference() {
        Tree t = tree();
        fill(t, "a", "a", "b", "c");
        fill(t, "b", "a", "c", "d");
        fill(t, "c", "a", "b", "c");
        fill(t, "d", "c");
        fill(t, "e", "c", "d");
        return t;
    }

    static List<String> run(String code, TreeState state) {
        return SetOps.evaluate(SetExpression.builder().code(code).build(), TreeSource.subTrees(state)).stream()
                .map(e -> s(e.key()) + ":" + e.values().stream().map(TreeSourceTest::s).collect(Collectors.toList()))
                .collect(Collectors.toList());
    }

    @Test
    void referenceCasesOverSubTrees() {
        TreeState st = reference().state();
        assertThat(run("(U a b)", st)).containsExactly("a:[a, a]", "b:[b]", "c:[c, c]", "d:[d]");
        assertThat(run("(I a b)", st)).containsExactly("a:[a, a]", "c:[c, c]");
        assertThat(run("(I c d e)", st)).containsExactly("c:[c, c, c]");
        assertThat(run("(D a b)", st)).containsExactly("b:[b]");
        assertThat(run("(X a b)", st)).containsExactly("b:[b]", "d:[d]");
        assertThat(run("(U a missing)", st)).containsExactly("a:[a]", "b:[b]", "c:[c]");
    }

    @Test
    void deletedEntriesAreNotSeen() {
        Tree t = reference();
        t.subDelete(b("a"), b("b"), now.incrementAndGet());
        assertThat(run("(U a)", t.state())).containsExactly("a:[a]", "c:[c]");
    }

    @Test
    void storeIntoADestinationSubTree() {
        Tree t = reference();
        SetExpression e = SetExpression.builder().code("(U:ConCat a b)").dest(b("out")).build();
        int n = SetOps.store(e, TreeSource.subTrees(t.state()), TreeSource.subTreeSink(t, e.dest(), now::incrementAndGet));
        assertThat(n).isEqualTo(4);
        assertThat(run("(U out)", t.state())).containsExactly("a:[aa]", "b:[b]", "c:[cc]", "d:[d]");
        // storing into one of the sources reads the version the expression started on
        SetExpression self = SetExpression.builder().code("(U:First a e)").dest(b("a")).build();
        SetOps.store(self, TreeSource.subTrees(t.state()), TreeSource.subTreeSink(t, self.dest(), now::incrementAndGet));
        assertThat(run("(U a)", t.state())).containsExactly("a:[a]", "b:[b]", "c:[c]", "d:[d]");
    }

    /** The tree source agrees with the list source on random sets and bounds. */
    @Property(seed = "777", tries = 200)
    void agreesWithListSource(@ForAll @Size(max = 40) List<@Size(max = 3) byte[]> x,
            @ForAll @Size(max = 40) List<@Size(max = 3) byte[]> y, @ForAll byte[] min, @ForAll boolean inc) {
        Tree t = tree();
        for (byte[] k : x) {
            t.subPut(b("x"), k, k, now.incrementAndGet());
        }
        for (byte[] k : y) {
            t.subPut(b("y"), k, k, now.incrementAndGet());
        }
        for (String code : List.of("(U x y)", "(I x y)", "(D x y)", "(X x y)")) {
            SetExpression e = SetExpression.builder().code(code).min(min.length == 0 ? null : min, inc).build();
            List<SetEntry> fromTree = SetOps.evaluate(e, TreeSource.subTrees(t.state()));
            List<SetEntry> fromList = SetOps.evaluate(e, name -> ListSource.of(sorted(name[0] == 'x' ? x : y)));
            assertThat(fromTree).as(code).isEqualTo(fromList);
        }
    }

    static List<SetEntry> sorted(List<byte[]> keys) {
        List<byte[]> ks = new ArrayList<>(keys);
        ks.sort(Keys::compare);
        List<SetEntry> out = new ArrayList<>();
        for (byte[] k : ks) {
            if (out.isEmpty() || Keys.compare(out.get(out.size() - 1).key(), k) != 0) {
                out.add(SetEntry.of(k, k));
            }
        }
        return out;
    }
}

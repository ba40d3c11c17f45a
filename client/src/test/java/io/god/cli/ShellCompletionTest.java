package io.god.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jline.reader.Candidate;
import org.jline.reader.impl.DefaultParser;
import org.junit.jupiter.api.Test;

/** Tab completion of the shell: commands first, then the chosen command's options; after help, commands. */
class ShellCompletionTest {

    private final Shell shell = new Shell(new GodCli(), Path.of("unused-history"));

    private List<String> complete(String line) {
        List<Candidate> out = new ArrayList<>();
        shell.complete(null, new DefaultParser().parse(line, line.length(), org.jline.reader.Parser.ParseContext.COMPLETE), out);
        return out.stream().map(Candidate::value).toList();
    }

    @Test
    void commandsThenOptions() {
        assertThat(complete("")).contains("put", "subPut", "mirrorReverseSlice", "setOp", "help", "exit", "quit",
                "--json", "--enc");
        assertThat(complete("sub")).as("the reader filters by prefix; every command is offered")
                .contains("subGet", "subPut", "subClear");
        assertThat(complete("put k ")).contains("--sync").doesNotContain("get");
        assertThat(complete("help ")).contains("get", "slice").doesNotContain("--sync");
        assertThat(complete("nosuchcommand ")).isEmpty();
    }
}

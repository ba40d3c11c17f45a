package io.god.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.jline.reader.Candidate;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.ParsedLine;
import org.jline.reader.UserInterruptException;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import picocli.CommandLine;

/**
 * {@code god-cli shell}: reads one command per line with JLine (history in a file, Tab completion of
 * commands and their options, quoting as in a POSIX shell) and runs each through the same picocli
 * commands as a god-cli invocation, on one connection. A failing line prints its error and the shell
 * goes on; Ctrl-C drops the line; {@code exit}, {@code quit} or Ctrl-D ends it.
 *
 * <p>On the process's own standard input it uses the system terminal (a dumb one when that is not a
 * terminal, e.g. piped input); given another input (tests), a dumb terminal on that input and output.
 */
final class Shell {

    private static final Set<String> EXIT = Set.of("exit", "quit");
    static final String PROMPT = "god> ";

    private final GodCli launch;
    private final Path history;
    /** The commands, for completion only (never executed). */
    private final CommandLine commands;

    Shell(GodCli launch, Path history) {
        this.launch = launch;
        this.history = history;
        this.commands = new CommandLine(new GodCli());
    }

    int run() {
        try (Terminal terminal = terminal()) {
            LineReader reader = LineReaderBuilder.builder().terminal(terminal).appName("god-cli")
                    .completer(this::complete).variable(LineReader.HISTORY_FILE, history).build();
            while (true) {
                String line;
                try {
                    line = reader.readLine(PROMPT);
                } catch (UserInterruptException e) {
                    continue; // Ctrl-C: drop the line
                } catch (EndOfFileException e) {
                    break; // Ctrl-D or the end of piped input
                }
                List<String> words = new ArrayList<>();
                for (String w : reader.getParsedLine().words()) {
                    if (!w.isEmpty()) {
                        words.add(w);
                    }
                }
                if (line.isBlank() || words.isEmpty()) {
                    continue;
                }
                if (EXIT.contains(words.get(0))) {
                    break;
                }
                if (words.get(0).equals("shell")) {
                    launch.err.println("god-cli: already in the shell");
                    continue;
                }
                execute(words);
            }
            reader.getHistory().save();
            return 0;
        } catch (IOException e) {
            throw new UncheckedIOException("god-cli shell: " + e.getMessage(), e);
        }
    }

    /** Runs one line as a god-cli command line; its errors are printed, never thrown. */
    private void execute(List<String> words) {
        CommandLine cl = GodCli.commandLine(launch.forLine());
        cl.setDefaultValueProvider(launch::launchValue);
        cl.execute(words.toArray(String[]::new));
        launch.out.flush();
    }

    private Terminal terminal() throws IOException {
        if (launch.in == System.in) {
            return TerminalBuilder.builder().system(true).dumb(true).build();
        }
        return TerminalBuilder.builder().system(false).type(Terminal.TYPE_DUMB).streams(launch.in, launch.out).build();
    }

    /** Commands (and the top-level options) first; after a command its options; after {@code help} a command. */
    void complete(LineReader reader, ParsedLine line, List<Candidate> candidates) {
        List<String> words = line.words();
        CommandLine sub = words.isEmpty() ? null : commands.getSubcommands().get(words.get(0));
        if (line.wordIndex() == 0) {
            for (String name : commands.getSubcommands().keySet()) {
                candidates.add(new Candidate(name));
            }
            EXIT.forEach(w -> candidates.add(new Candidate(w)));
            commands.getCommandSpec().options().forEach(o -> candidates.add(new Candidate(o.longestName())));
        } else if (words.get(0).equals("help")) {
            commands.getSubcommands().keySet().forEach(name -> candidates.add(new Candidate(name)));
        } else if (sub != null) {
            sub.getCommandSpec().options().forEach(o -> candidates.add(new Candidate(o.longestName())));
        }
    }
}

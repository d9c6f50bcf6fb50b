package dev.clawgate.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exit codes as the README says (SPEC OP-4): 0 ok, 2 usage or config error with one line on stderr (or, for doctor, its
 * report), 1 a failure at run time. Every command is tried. Before the fix doctor exited 1 for a config that does not
 * load.
 */
class ExitCodesTest {
    private static final List<List<String>> COMMANDS = List.of(
            List.of("run"),
            List.of("chat"),
            List.of("sessions"),
            List.of("outbox"),
            List.of("outbox", "list"),
            List.of("inbox"),
            List.of("doctor"),
            List.of("pairing", "list"),
            List.of("memory", "list"),
            List.of("cron", "list"));

    @TempDir
    Path dir;

    private CliRunner.Result run(List<String> command, String... more) {
        List<String> args = new java.util.ArrayList<>(command);
        args.addAll(List.of(more));
        return CliRunner.run(args.toArray(String[]::new));
    }

    @Test
    void aConfigThatDoesNotLoadIsExitTwoFromEveryCommand() throws Exception {
        // SPEC OP-4: config error = 2, said in one line, no stack trace
        Path file = Files.writeString(dir.resolve("clawgate.toml"), "[agent]\nmax_tool_iterations = \"many\"\n");
        for (List<String> command : COMMANDS) {
            CliRunner.Result r = run(command, "--config", file.toString());
            assertThat(r.exit()).as("%s", command).isEqualTo(Main.USAGE);
            assertThat(r.out() + r.err())
                    .as("%s", command)
                    .contains("agent.max_tool_iterations")
                    .doesNotContain("\tat ");
        }
    }

    @Test
    void aMissingNamedConfigFileAndAnUnknownOptionAreExitTwo() {
        // SPEC OP-4: usage errors
        for (List<String> command : COMMANDS) {
            assertThat(run(command, "--config", dir.resolve("nope.toml").toString())
                            .exit())
                    .as("%s", command)
                    .isEqualTo(Main.USAGE);
            assertThat(run(command, "--no-such-option").exit())
                    .as("%s", command)
                    .isEqualTo(Main.USAGE);
        }
        assertThat(CliRunner.run().exit()).isEqualTo(Main.USAGE);
        assertThat(CliRunner.run("no-such-command").exit()).isEqualTo(Main.USAGE);
    }

    @Test
    void aStoreThatCannotOpenIsARunTimeFailureExitOne() throws Exception {
        // SPEC OP-4: the config is fine; the data dir is a file, so the store fails at run time
        Files.writeString(dir.resolve("state"), "not a folder");
        Path file = Files.writeString(dir.resolve("clawgate.toml"), "[gateway]\ndata_dir = \"state\"\n");
        List<List<String>> readers =
                List.of(List.of("sessions"), List.of("outbox"), List.of("inbox"), List.of("pairing", "list"));
        for (List<String> command : readers) {
            CliRunner.Result r = run(command, "--config", file.toString());
            assertThat(r.exit()).as("%s", command).isEqualTo(Main.FAILURE);
            assertThat(r.err().strip().lines()).as("%s", command).hasSize(1);
        }
    }

    @Test
    void helpAndVersionAreExitZero() {
        // SPEC OP-4
        assertThat(CliRunner.run("--help").exit()).isZero();
        assertThat(CliRunner.run("--version").exit()).isZero();
    }
}

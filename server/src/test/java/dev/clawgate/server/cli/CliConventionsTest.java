package dev.clawgate.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * picocli's conventions (issue 14, SPEC OP-4): --help everywhere, global --config anywhere, `help COMMAND`, a current
 * list.
 */
class CliConventionsTest {
    @TempDir
    Path dir;

    @Test
    void everyCommandAndSubcommandTakesHelp() {
        for (List<String> command : List.of(
                List.of("run"),
                List.of("chat"),
                List.of("doctor"),
                List.of("init"),
                List.of("sessions"),
                List.of("inbox"),
                List.of("outbox"),
                List.of("pairing"),
                List.of("pairing", "list"),
                List.of("memory", "search"),
                List.of("cron", "remove"))) {
            List<String> args = new java.util.ArrayList<>(command);
            args.add("--help");
            CliRunner.Result r = CliRunner.run(args.toArray(String[]::new));
            assertThat(r.exit()).as("%s", command).isZero();
            assertThat(r.out()).as("%s", command).contains("Usage: clawgate " + String.join(" ", command));
        }
    }

    @Test
    void helpCommandPrintsTheNamedCommandsHelp() {
        CliRunner.Result r = CliRunner.run("help", "doctor");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("Usage: clawgate doctor");
        assertThat(CliRunner.run("help").out()).contains("Usage: clawgate");
    }

    @Test
    void theConfigOptionWorksBeforeOrAfterTheCommand() throws Exception {
        Files.writeString(dir.resolve("clawgate.toml"), "[gateway]\ndata_dir = \"data\"\n");
        String file = dir.resolve("clawgate.toml").toString();
        for (String[] args : List.of(
                new String[] {"--config", file, "sessions"},
                new String[] {"sessions", "--config", file},
                new String[] {"--config", file, "pairing", "list"},
                new String[] {"pairing", "list", "--config", file})) {
            CliRunner.Result r = CliRunner.run(args);
            assertThat(r.exit()).as(String.join(" ", args)).isZero();
        }
        // the store was opened under the named file's data_dir, not ./
        assertThat(dir.resolve("data")).isDirectory();
        CliRunner.Result missing =
                CliRunner.run("--config", dir.resolve("nope.toml").toString(), "sessions");
        assertThat(missing.exit()).isEqualTo(Main.USAGE);
    }

    @Test
    void noCommandListsEveryVisibleCommandFromTheCommandTable() {
        CliRunner.Result r = CliRunner.run();
        assertThat(r.exit()).isEqualTo(Main.USAGE);
        assertThat(r.err())
                .contains(
                        "run",
                        "chat",
                        "init",
                        "sessions",
                        "pairing",
                        "outbox",
                        "inbox",
                        "doctor",
                        "memory",
                        "cron",
                        "help")
                .doesNotContain("aot-train");
    }
}

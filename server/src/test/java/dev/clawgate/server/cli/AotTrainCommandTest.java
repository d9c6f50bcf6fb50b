package dev.clawgate.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The launcher's start-up cache training run: a whole gateway started, asked once, stopped, its folder gone. */
class AotTrainCommandTest {
    @Test
    void startsAGatewayGetsAReplyFromItsApiAndLeavesNothingBehind() throws Exception {
        // SPEC OP-4: the launcher's training run of `clawgate run`; exit 0 only when the gateway answered /readyz and
        // its API
        List<Path> before = trainingFolders();

        CliRunner.Result r = CliRunner.run("aot-train");

        assertThat(r.exit()).as(r.err()).isEqualTo(Main.OK);
        assertThat(trainingFolders()).containsExactlyInAnyOrderElementsOf(before);
    }

    @Test
    void loadsEveryChannelModulesClassesSoTheCacheHoldsThem() throws Exception {
        // SPEC OP-4 (issue 27): the training gateway runs no channel, so the channels' classes are loaded by name; a
        // channel's first poll then maps them from the cache instead of reading them from the jar
        List<String> loaded = AotTrainCommand.loadChannelClasses();

        assertThat(loaded)
                .contains(
                        "dev.clawgate.channel.telegram.TelegramChannel",
                        "dev.clawgate.channel.telegram.PollingLoop",
                        "dev.clawgate.channel.slack.SlackChannel")
                .doesNotHaveDuplicates();
    }

    @Test
    void isNotListedInTheHelp() {
        // SPEC OP-4: the CLI's help lists the operator's commands, not the launcher's internal one
        assertThat(CliRunner.run("--help").out()).contains("doctor").doesNotContain("aot-train");
    }

    private static List<Path> trainingFolders() throws IOException {
        try (Stream<Path> s = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return s.filter(p -> p.getFileName().toString().startsWith("clawgate-aot-"))
                    .toList();
        }
    }
}

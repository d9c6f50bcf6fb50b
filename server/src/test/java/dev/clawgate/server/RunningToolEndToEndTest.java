package dev.clawgate.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.clawgate.core.config.ChannelOutput;
import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.config.ToolSettings;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.testkit.openai.Reply;
import dev.clawgate.testkit.telegram.SentMessage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A tool call that never ends on its own (a {@code tail --follow}) over the fake Bot API, with a scripted model (SPEC
 * RP-5, RT-1, DI-5): the chat keeps showing typing, {@code /status} names the tool and how long it has run, answered at
 * once beside the busy run, and {@code /stop} kills it at once, long before the shell timeout. Before the fix
 * {@code /status} was steered into the busy run as text for the model.
 */
class RunningToolEndToEndTest extends TelegramGatewayFixture {
    /** Far longer than the test: only /stop can end the tool in time. */
    private static final int SHELL_TIMEOUT_SECS = 600;

    private ClawgateConfig withShellTimeout(ClawgateConfig c) {
        ToolSettings d = ToolSettings.defaults();
        ToolSettings tools =
                new ToolSettings(d.maxResultChars(), d.shellAllowlist(), SHELL_TIMEOUT_SECS, d.shellOutputCap());
        return new ClawgateConfig(
                c.gateway(),
                c.agent(),
                c.providers(),
                c.routes(),
                c.history(),
                tools,
                c.dispatch(),
                c.session(),
                c.inbound(),
                c.queue(),
                c.channels());
    }

    private static List<ProcessHandle> tails(String file) {
        return ProcessHandle.allProcesses()
                .filter(ProcessHandle::isAlive)
                .filter(p -> p.info()
                        .arguments()
                        .map(a -> String.join(" ", a).contains(file))
                        .orElse(false))
                .toList();
    }

    @Test
    void aToolThatNeverEndsShowsTypingIsNamedByStatusAndIsKilledByStop() throws Exception {
        // SPEC RP-5 (typing while the run works), RT-1 (/status at once, naming the tool), DI-5 (/stop at once)
        String file = "follow-" + UUID.randomUUID() + ".log";
        Path workspace = Files.createDirectories(dir.resolve("workspace"));
        Files.writeString(workspace.resolve(file), "first line\n");
        model.enqueue(
                Reply.toolCalls(Reply.call("shell", "{\"command\": \"tail -f " + file + "\"}")),
                Reply.text("this second answer must never be asked for"));
        start(withShellTimeout(config(Map.of())).withChannel(telegram(Map.of(), ChannelOutput.defaults())));

        tg.sendText(dm, alice, "watch the log");
        await().atMost(Duration.ofSeconds(15)).until(() -> !tails(file).isEmpty());
        // typing goes on while the tool runs: a refresh after the first (every 4 s)
        int typingBefore = typing();
        await().atMost(Duration.ofSeconds(15)).until(() -> typing() >= typingBefore + 1);

        tg.sendText(dm, alice, "/status");
        SentMessage status = awaitSent(dm, 1).getFirst();
        assertThat(status.text())
                .contains("Running: for")
                .containsPattern("Tool running: shell \\(for \\d+ s; /stop ends it\\)");
        assertThat(tails(file))
                .as("the tool still runs: /status did not wait for it")
                .isNotEmpty();

        tg.sendText(dm, alice, "/stop");
        await().atMost(Duration.ofSeconds(10)).until(() -> tails(file).isEmpty());
        await().atMost(Duration.ofSeconds(10))
                .until(() -> tg.sentTo(dm).stream().anyMatch(m -> m.text().contains("Stopped")));
        await().atMost(Duration.ofSeconds(10)).until(() -> gateway.dispatcher().activeRuns() == 0);
        assertThat(model.chatRequests()).hasSize(1);
        assertThat(gateway.store().inbox().counts().get(InboxState.CANCELLED)).isEqualTo(1L);
        assertThat(tg.sentTo(dm)).extracting(SentMessage::text).noneMatch(t -> t.contains("never be asked"));
    }

    private int typing() {
        return (int) tg.chatActions().stream()
                .filter(a -> a.equals(dm.id() + ":typing"))
                .count();
    }
}

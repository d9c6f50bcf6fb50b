package dev.clawgate.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.server.channel.TerminalChannel;
import dev.clawgate.testkit.openai.FakeOpenAiServer;
import dev.clawgate.testkit.openai.Reply;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TerminalChatTest {
    @TempDir
    Path dir;

    @Test
    void pipedInputIsOneMessagePerLineAndEveryReplyPrintsBeforeExit() throws Exception {
        // SPEC CH-1, HI-1 (terminal sender = OS user, target local), DI-2 (request/response channels queue as followup)
        try (FakeOpenAiServer model = FakeOpenAiServer.start()) {
            model.enqueue(Reply.text("first answer").delayBefore(Duration.ofMillis(200)), Reply.text("second answer"));
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            TerminalChannel terminal = new TerminalChannel(
                    new ByteArrayInputStream("hello\n\nsecond question\n".getBytes(StandardCharsets.UTF_8)),
                    new PrintStream(out, true, StandardCharsets.UTF_8),
                    false,
                    "tester");
            try (Gateway g =
                    Gateway.start(GatewayHarness.config(dir, model.baseUrl(), null), GatewayOptions.with(terminal))) {
                terminal.awaitFinished();
                assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("first answer\nsecond answer\n");
                assertThat(g.store()
                                .transcripts()
                                .load(new SessionKey("terminal", null, ChatType.DIRECT, "local", null, "tester"), 10))
                        .hasSize(4);
                assertThat(g.store().inbox().counts()).containsEntry(InboxState.DONE, 2L);
            }
            assertThat(model.chatRequests()).hasSize(2);
            assertThat(model.chatRequests().get(1).lastUserText()).isEqualTo("second question");
        }
    }

    @Test
    void theNoProviderWarningComesBeforeTheFirstPrompt() throws Exception {
        // issue 14, SPEC CH-1: the warning is said when the terminal starts, not after its "> " prompt
        try (CapturedAppLogs logs = new CapturedAppLogs()) {
            List<List<String>> warningsAtFirstWrite = new java.util.ArrayList<>();
            java.io.OutputStream watching = new java.io.OutputStream() {
                @Override
                public void write(int b) {
                    if (warningsAtFirstWrite.isEmpty())
                        warningsAtFirstWrite.add(logs.atLeast(ch.qos.logback.classic.Level.WARN));
                }
            };
            TerminalChannel terminal = new TerminalChannel(
                    new ByteArrayInputStream("hi\n".getBytes(StandardCharsets.UTF_8)),
                    new PrintStream(watching, true, StandardCharsets.UTF_8),
                    true,
                    "tester");
            try (Gateway g = Gateway.start(GatewayHarness.config(dir, null, null), GatewayOptions.with(terminal))) {
                terminal.awaitFinished();
            }
            assertThat(warningsAtFirstWrite).hasSize(1);
            assertThat(warningsAtFirstWrite.get(0)).anyMatch(line -> line.contains("No model provider is configured"));
        }
    }
}

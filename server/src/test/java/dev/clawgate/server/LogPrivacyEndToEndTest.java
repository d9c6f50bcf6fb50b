package dev.clawgate.server;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import dev.clawgate.testkit.openai.Reply;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * What people write and what the model answers stays out of the log at INFO and above (SPEC OP-5, OP-6): a whole
 * Telegram turn with a tool call, a failing tool and a refused media marker, every line scanned. Before the fix the
 * seeds' line carried the text at INFO, and so did the refused marker and the tool's error.
 */
class LogPrivacyEndToEndTest extends TelegramGatewayFixture {

    @Test
    void noInfoOrWarningLineCarriesTheUsersTextTheModelsReplyOrTheToolsArguments() throws Exception {
        // SPEC OP-5: the seeds' line stays (without the text); OP-6: the text only at DEBUG
        String user = "USERTEXT-" + UUID.randomUUID();
        String toolArg = "TOOLARG-" + UUID.randomUUID();
        String reply = "MODELREPLY-" + UUID.randomUUID();
        String marker = "MARKER-" + UUID.randomUUID();
        String write = "{\"path\":\"notes.txt\",\"content\":\"" + toolArg + "\"}";
        model.enqueue(
                Reply.toolCalls(Reply.call("file_write", write)),
                Reply.toolCalls(Reply.call("file_read", "{\"path\":\"" + toolArg + "/../../x\"}")),
                Reply.text(reply + " [IMAGE:/etc/" + marker + ".png]"));
        try (CapturedAppLogs logs = new CapturedAppLogs()) {
            start(config(Map.of()));
            tg.sendText(dm, alice, user);
            assertThat(awaitSent(dm, 1).getFirst().text()).contains(reply);
            closeGateway();

            List<String> info = logs.atLeast(Level.INFO);
            assertThat(info).anyMatch(l -> l.contains("💬 [telegram] from Alice (" + user.length() + " chars)"));
            for (String secret : List.of(user, toolArg, reply, marker)) {
                assertThat(info).as("INFO+ lines holding %s", secret).noneMatch(l -> l.contains(secret));
            }
            assertThat(logs.atLeast(Level.DEBUG)).anyMatch(l -> l.contains("from Alice: " + user));
        }
    }
}

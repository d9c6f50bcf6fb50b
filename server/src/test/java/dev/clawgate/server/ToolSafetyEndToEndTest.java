package dev.clawgate.server;

import static dev.clawgate.server.GatewayHarness.chat;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.config.ProviderSettings;
import dev.clawgate.testkit.openai.Reply;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Bad model output and hostile tool arguments, end to end: clear errors to the model, nothing lost or leaked. */
class ToolSafetyEndToEndTest extends GatewayFixture {

    private static String lastToolResult(JsonNode messages) {
        for (int i = messages.size() - 1; i >= 0; i--) {
            JsonNode m = messages.get(i);
            if (m.path("role").asText().equals("tool")) return m.path("content").asText();
            if (m.path("role").asText().equals("user")
                    && m.path("content").asText().startsWith("[Tool results]")) {
                return m.path("content").asText();
            }
        }
        throw new AssertionError("no tool result in " + messages);
    }

    @Test
    void malformedToolJsonFromTheModelIsReportedBackAndTheTurnStillAnswers() throws Exception {
        // SPEC AG-1: malformed calls are reported to the model as an error result
        model.enqueue(
                Reply.toolCalls(Reply.call("file_write", "{\"path\": \"a.txt\", \"content\": ")),
                Reply.text("Sorry, retrying is not needed."));
        start(config(), GatewayOptions.server());
        GatewayHarness.Reply r = chat(gateway.httpPort(), "m", "write a file", null);
        assertThat(r.content()).isEqualTo("Sorry, retrying is not needed.");
        assertThat(lastToolResult(model.lastRequest().messages())).contains("could not be parsed");
        assertThat(dir.resolve("workspace/a.txt")).doesNotExist();
    }

    @Test
    void toolPathsOutsideTheWorkspaceAreRefusedAndNothingLeaks() throws Exception {
        // SPEC AG-5: no .., no symlink escape
        Path outside = Files.createDirectories(dir.resolve("outside"));
        Files.writeString(outside.resolve("secret.txt"), "TOP-SECRET-VALUE");
        Files.createDirectories(dir.resolve("workspace"));
        Files.createSymbolicLink(dir.resolve("workspace/link"), outside);
        model.enqueue(
                Reply.toolCalls(Reply.call("file_read", "{\"path\": \"../outside/secret.txt\"}")),
                Reply.toolCalls(Reply.call("file_read", "{\"path\": \"link/secret.txt\"}")),
                Reply.toolCalls(Reply.call("file_write", "{\"path\": \"link/new.txt\", \"content\": \"x\"}")),
                Reply.text("I cannot read that."));
        start(config(), GatewayOptions.server());
        GatewayHarness.Reply r = chat(gateway.httpPort(), "m", "read the secret", null);
        assertThat(r.content()).isEqualTo("I cannot read that.");
        assertThat(model.chatRequests()).hasSize(4);
        for (int i = 1; i < 4; i++) {
            String result = lastToolResult(model.chatRequests().get(i).messages());
            assertThat(result).startsWith("Error:").doesNotContain("TOP-SECRET-VALUE");
        }
        assertThat(outside.resolve("new.txt")).doesNotExist();
        assertThat(r.raw()).doesNotContain("TOP-SECRET-VALUE");
    }

    @Test
    void promptGuidedToolCallsWorkEndToEndForModelsWithoutNativeTools() throws Exception {
        // SPEC SP-3, AG-1
        model.enqueue(
                Reply.textWithToolCallTags(
                        "I'll save it.", Reply.call("file_write", "{\"path\":\"g.txt\",\"content\":\"guided\"}")),
                Reply.text("Saved g.txt."));
        ClawgateConfig base = config();
        ClawgateConfig guided = new ClawgateConfig(
                base.gateway(),
                base.agent(),
                Map.of("fake", new ProviderSettings("fake", "openai", model.baseUrl(), null, false, "local-model", 30)),
                base.routes(),
                base.history(),
                base.tools(),
                base.dispatch());
        start(guided, GatewayOptions.server());
        GatewayHarness.Reply r = chat(gateway.httpPort(), "g", "save guided to g.txt", null);
        assertThat(r.content()).isEqualTo("Saved g.txt.");
        assertThat(dir.resolve("workspace/g.txt")).hasContent("guided");
        JsonNode first = model.chatRequests().get(0).body();
        assertThat(first.has("tools")).isFalse();
        assertThat(first.path("messages").get(0).path("content").asText()).contains("<tool_call>", "file_write");
        assertThat(lastToolResult(model.chatRequests().get(1).messages()))
                .startsWith("[Tool results]")
                .contains("<tool_result name=\"file_write\">");
        assertThat(model.chatRequests().get(0).header("Authorization")).isNull();
    }
}

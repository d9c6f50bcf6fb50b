package dev.clawgate.server;

import static dev.clawgate.server.GatewayHarness.chat;
import static dev.clawgate.server.GatewayHarness.chatStream;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.Role;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.store.TranscriptEntry;
import dev.clawgate.server.config.ConfigLoader;
import dev.clawgate.testkit.anthropic.FakeAnthropicServer;
import dev.clawgate.testkit.anthropic.RecordedRequest;
import dev.clawgate.testkit.anthropic.Reply;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real gateway, configured from a clawgate.toml with {@code kind = "anthropic"}, in front of a fake Messages API,
 * driven over HTTP (SPEC SP-4).
 */
class AnthropicEndToEndTest {
    private static final String KEY = "sk-ant-api03-e2e-0123456789";

    @TempDir
    Path dir;

    private FakeAnthropicServer model;
    private Gateway gateway;

    @BeforeEach
    void startModel() {
        model = FakeAnthropicServer.start().requireApiKey(KEY);
    }

    @AfterEach
    void stop() {
        if (gateway != null) gateway.close();
        model.close();
    }

    private int start(String providerExtra) throws Exception {
        Path file = dir.resolve("clawgate.toml");
        Files.writeString(file, """
                [gateway]
                data_dir = "data"
                bind = "127.0.0.1:0"

                [agent]
                workspace = "workspace"

                [providers.claude]
                kind = "anthropic"
                base_url = "%s"
                api_key = "${ANTHROPIC_API_KEY}"
                model = "claude-test"
                %s
                """.formatted(model.baseUrl(), providerExtra));
        ClawgateConfig cfg = new ConfigLoader().load(file, Map.of("ANTHROPIC_API_KEY", KEY));
        gateway = Gateway.start(cfg, GatewayOptions.server());
        return gateway.httpPort();
    }

    private static SessionKey apiSession(String id) {
        return new SessionKey("api", null, ChatType.DIRECT, id, null, id);
    }

    @Test
    void aToolUseWritesAFileAndTheStreamedAnswerComesBackOverTheApi() throws Exception {
        // SPEC SP-4, AG-1, AG-5, CH-10
        model.enqueue(
                Reply.text("I'll write it.")
                        .withToolUses(Reply.toolUse(
                                        "file_write", "{\"path\":\"notes/hello.txt\",\"content\":\"hi from claude\"}")
                                .withId("toolu_e2e")),
                Reply.text("I wrote notes/hello.txt for you.").streamedInChunks(4));
        int port = start("max_tokens = 2048");
        List<String> events = chatStream(port, "alice", "please write hello.txt");
        assertThat(String.join("", events.subList(0, events.size() - 1))).endsWith("I wrote notes/hello.txt for you.");
        assertThat(events.getLast()).isEqualTo("finish:stop");
        assertThat(dir.resolve("workspace/notes/hello.txt")).hasContent("hi from claude");

        List<RecordedRequest> calls = model.messageRequests();
        assertThat(calls).hasSize(2);
        RecordedRequest first = calls.get(0);
        assertThat(first.header("x-api-key")).isEqualTo(KEY);
        assertThat(first.header("anthropic-version")).isEqualTo("2023-06-01");
        assertThat(first.body().path("max_tokens").asInt()).isEqualTo(2048);
        assertThat(first.system().asText()).isNotBlank();
        assertThat(first.messages().get(0).path("role").asText()).isEqualTo("user");
        assertThat(first.tools().findValuesAsText("name")).contains("file_write");
        assertThat(first.tools().get(0).path("input_schema").path("type").asText())
                .isEqualTo("object");
        JsonNode second = calls.get(1).messages();
        JsonNode answer = second.get(second.size() - 1);
        assertThat(answer.path("role").asText()).isEqualTo("user");
        assertThat(answer.path("content").get(0).path("type").asText()).isEqualTo("tool_result");
        assertThat(answer.path("content").get(0).path("tool_use_id").asText()).isEqualTo("toolu_e2e");
        assertThat(second.get(second.size() - 2).path("content").toString()).contains("\"type\":\"tool_use\"");

        List<TranscriptEntry> t = gateway.store().transcripts().load(apiSession("alice"), 50);
        assertThat(t).extracting(TranscriptEntry::role).containsExactly(Role.USER, Role.ASSISTANT);
        assertThat(t.get(1).content())
                .contains("[Used tools: file_write]")
                .endsWith("I wrote notes/hello.txt for you.");
    }

    @Test
    void aPlainMessageIsAnsweredAndHistoryGoesBackAsAlternatingTurns() throws Exception {
        // SPEC SP-4, HI-2, HI-3
        int port = start("");
        assertThat(chat(port, "bob", "my name is Bob", null).content()).isEqualTo("my name is Bob");
        assertThat(chat(port, "bob", "what is my name?", null).content()).isEqualTo("what is my name?");
        RecordedRequest last = model.lastRequest();
        assertThat(last.stream()).isFalse();
        assertThat(last.messages().findValuesAsText("role")).containsExactly("user", "assistant", "user");
        assertThat(last.messages().toString()).contains("my name is Bob");
    }

    @Test
    void aPromptTooLongErrorCompactsTheSessionAndRetriesOnce() throws Exception {
        // SPEC HI-5: Anthropic's own overflow wording through the one shared detector
        int port = start("");
        for (int i = 0; i < 10; i++) chat(port, "dave", "message " + i + " " + "x".repeat(700), null);
        model.enqueue(Reply.promptTooLong(), Reply.text("fits now"));
        GatewayHarness.Reply r = chat(port, "dave", "one more", null);
        assertThat(r.content()).contains("compacted").endsWith("fits now");
        assertThat(model.lastRequest().messages().size()).isLessThanOrEqualTo(14);
    }

    @Test
    void aRemoteImageUrlInAMessageNeverReachesClaudeAsAnImageWhileRemoteFetchIsOff() throws Exception {
        // SPEC AG-4: remote image URLs are fetched only with multimodal.allow_remote_fetch (default false), never
        // passed on
        model.enqueue(Reply.text("I see no picture."));
        int port = start("max_tokens = 256");
        GatewayHarness.chat(port, "alice", "what is in [IMAGE:https://example.com/cat.jpg] ?", null);
        RecordedRequest call = model.messageRequests().getFirst();
        String messages = call.messages().toString();
        assertThat(messages)
                .doesNotContain("\"type\":\"image\"", "\"source\"")
                .contains("[image not available: remote image fetch is off (multimodal.allow_remote_fetch)]");
    }
}

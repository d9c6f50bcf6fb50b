package dev.clawgate.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.testkit.openai.RecordedRequest;
import dev.clawgate.testkit.openai.Reply;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * A real third-party client against the real gateway (issue 14, SPEC CH-10): the official {@code openai} package for
 * Node, at the version pinned here, installed from the npm registry into {@code target/}, run by the machine's
 * {@code node} with a fake model server behind the gateway. Skipped without node and npm unless
 * {@code CLAWGATE_REQUIRE_NODE=1} (CI sets it).
 */
class OpenAiNodeClientTest extends GatewayFixture {
    /** The client's version, pinned: a new major is a deliberate change here. */
    static final String OPENAI_NODE = "6.30.1";

    private static final String TOKEN = "node-client-test-token";

    @Test
    void theOfficialNodeClientListsChatsStreamsUsesResponsesAndParsesErrors() throws Exception {
        // SPEC CH-10
        Path client = installClient();
        model.respondWith(body -> {
            JsonNode messages = body.path("messages");
            String last = messages.get(messages.size() - 1).path("content").asText();
            Reply r = Reply.text("reply to: " + last).usage(11, 7);
            return body.path("stream").asBoolean(false) ? r.streamedInChunks(3) : r;
        });
        int port = serve(GatewayHarness.config(dir, model.baseUrl(), TOKEN));

        JsonNode out = runNode(client, port);

        assertThat(out.path("models").toString()).contains("\"clawgate\"");
        assertThat(out.path("retrieved").asText()).isEqualTo("clawgate");

        // a stateless call: the model saw the conversation the request carried, system message included
        JsonNode stateless = out.path("stateless");
        assertThat(stateless.path("id").asText()).startsWith("chatcmpl-");
        assertThat(stateless.path("object").asText()).isEqualTo("chat.completion");
        assertThat(stateless.path("created").asLong()).isPositive();
        assertThat(stateless.path("fingerprint").asText()).startsWith("fp_");
        assertThat(stateless.path("content").asText()).isEqualTo("reply to: what is my name?");
        assertThat(stateless.path("usage").path("prompt_tokens").asLong()).isEqualTo(11);
        assertThat(stateless.path("usage").path("completion_tokens").asLong()).isEqualTo(7);
        assertThat(stateless.path("usage").path("total_tokens").asLong()).isEqualTo(18);
        RecordedRequest first = model.chatRequests().get(0);
        JsonNode sent = first.messages();
        assertThat(sent.get(0).path("role").asText()).isEqualTo("system");
        assertThat(sent.get(0).path("content").asText()).contains("Answer like a pirate.");
        assertThat(sent.toString()).contains("my name is Ada", "Ahoy Ada", "what is my name?");
        assertThat(sent).hasSize(4);
        // ... and nothing of it was stored as a session's history
        assertThat(gateway.store().transcripts().sessions()).allSatisfy(s -> {
            if (s.key().sender().startsWith("stateless-"))
                assertThat(s.messageCount()).isZero();
        });
        assertThat(gateway.store().transcripts().sessions().toString()).doesNotContain("what is my name");

        // with a session the gateway owns the history: the second call's model request has the first exchange
        assertThat(out.path("session").path("content").asText()).isEqualTo("reply to: second in session");
        SessionKey nodeUser = new SessionKey("api", null, ChatType.DIRECT, "node-user", null, "node-user");
        assertThat(gateway.store().transcripts().load(nodeUser, 50)).hasSize(4);

        JsonNode stream = out.path("stream");
        assertThat(stream.path("text").asText()).isEqualTo("reply to: stream this");
        assertThat(stream.path("usage").path("total_tokens").asLong()).isEqualTo(18);

        JsonNode response = out.path("response");
        assertThat(response.path("id").asText()).startsWith("resp_");
        assertThat(response.path("status").asText()).isEqualTo("completed");
        assertThat(response.path("text").asText()).isEqualTo("reply to: hello responses");
        assertThat(response.path("usage").path("input_tokens").asLong()).isEqualTo(11);
        assertThat(response.path("usage").path("output_tokens").asLong()).isEqualTo(7);
        // previous_response_id continues the conversation: the model sees the first exchange again
        assertThat(out.path("followUp").path("text").asText()).isEqualTo("reply to: and again");
        assertThat(out.path("followUp").path("previous").asText())
                .isEqualTo(response.path("id").asText());
        List<RecordedRequest> all = model.chatRequests();
        String followUpSent = all.get(all.size() - 2).messages().toString();
        assertThat(followUpSent).contains("hello responses", "reply to: hello responses", "and again");

        JsonNode rs = out.path("responseStream");
        assertThat(rs.path("types").toString())
                .contains(
                        "response.created",
                        "response.output_item.added",
                        "response.content_part.added",
                        "response.output_text.delta",
                        "response.output_text.done",
                        "response.output_item.done",
                        "response.completed");
        assertThat(rs.path("types").get(0).asText()).isEqualTo("response.created");
        assertThat(rs.path("types").get(rs.path("types").size() - 1).asText()).isEqualTo("response.completed");
        assertThat(rs.path("deltas").asText()).isEqualTo("reply to: stream a response");
        assertThat(rs.path("text").asText()).isEqualTo("reply to: stream a response");
        assertThat(rs.path("usage").path("total_tokens").asLong()).isEqualTo(18);

        // errors arrive as the client's own error classes with OpenAI's statuses and codes
        assertThat(out.path("unknownModel").path("status").asInt()).isEqualTo(404);
        assertThat(out.path("unknownModel").path("name").asText()).isEqualTo("NotFoundError");
        assertThat(out.path("unknownModel").path("code").asText()).isEqualTo("model_not_found");
        assertThat(out.path("unknownChatModel").path("status").asInt()).isEqualTo(404);
        assertThat(out.path("badRequest").path("status").asInt()).isEqualTo(400);
        assertThat(out.path("badRequest").path("name").asText()).isEqualTo("BadRequestError");
        assertThat(out.path("wrongKey").path("status").asInt()).isEqualTo(401);
        assertThat(out.path("wrongKey").path("name").asText()).isEqualTo("AuthenticationError");
    }

    /** The pinned client in {@code target/openai-node}, installed once from the npm registry. */
    private static Path installClient() throws IOException, InterruptedException {
        boolean required = "1".equals(System.getenv("CLAWGATE_REQUIRE_NODE"));
        boolean present = onPath("node") && onPath("npm");
        if (!present && required)
            throw new AssertionError("CLAWGATE_REQUIRE_NODE=1 but node or npm is not on the PATH");
        Assumptions.assumeTrue(present, "node and npm are not installed (set CLAWGATE_REQUIRE_NODE=1 to fail instead)");
        Path dir = Paths.get("target", "openai-node").toAbsolutePath();
        Path pkg = dir.resolve("node_modules/openai/package.json");
        if (!Files.exists(pkg) || !Files.readString(pkg).contains("\"version\": \"" + OPENAI_NODE + "\"")) {
            Files.createDirectories(dir);
            run(
                    dir,
                    300,
                    "npm",
                    "install",
                    "--prefix",
                    dir.toString(),
                    "--no-audit",
                    "--no-fund",
                    "--ignore-scripts",
                    "--save-exact",
                    "openai@" + OPENAI_NODE);
        }
        try (InputStream in = OpenAiNodeClientTest.class.getResourceAsStream("/openai-node/compat.mjs")) {
            Files.write(dir.resolve("compat.mjs"), in.readAllBytes());
        }
        return dir;
    }

    private JsonNode runNode(Path dir, int port) throws IOException, InterruptedException {
        String output = run(
                dir,
                180,
                List.of("node", "compat.mjs"),
                "CLAWGATE_URL",
                "http://127.0.0.1:" + port + "/v1",
                "CLAWGATE_KEY",
                TOKEN);
        String last = output.strip().lines().reduce((a, b) -> b).orElse("");
        return GatewayHarness.JSON.readTree(last);
    }

    private static boolean onPath(String tool) {
        for (String d : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            if (Files.isExecutable(Paths.get(d, tool))) return true;
        }
        return false;
    }

    private static String run(Path dir, int timeoutSecs, String... command) throws IOException, InterruptedException {
        return run(dir, timeoutSecs, List.of(command));
    }

    private static String run(Path dir, int timeoutSecs, List<String> command, String... env)
            throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(new ArrayList<>(command))
                .directory(dir.toFile())
                .redirectErrorStream(true);
        for (int i = 0; i + 1 < env.length; i += 2) pb.environment().put(env[i], env[i + 1]);
        Path log = Files.createTempFile(dir, "run-", ".log");
        pb.redirectOutput(log.toFile());
        Process p = pb.start();
        if (!p.waitFor(timeoutSecs, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(
                    String.join(" ", command) + " did not finish in " + timeoutSecs + " s:\n" + Files.readString(log));
        }
        String output = Files.readString(log, StandardCharsets.UTF_8);
        if (p.exitValue() != 0)
            throw new AssertionError(String.join(" ", command) + " exited " + p.exitValue() + ":\n" + output);
        return output;
    }
}

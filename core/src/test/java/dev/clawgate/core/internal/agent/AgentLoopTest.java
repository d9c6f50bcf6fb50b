package dev.clawgate.core.internal.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.core.model.ChatMessage;
import dev.clawgate.core.model.Role;
import dev.clawgate.core.model.ToolCall;
import dev.clawgate.core.provider.ChatResponse;
import dev.clawgate.core.provider.ProviderCapabilities;
import dev.clawgate.core.provider.ProviderException;
import dev.clawgate.core.provider.Usage;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.run.CancelledException;
import dev.clawgate.core.testing.ScriptedProvider;
import dev.clawgate.core.tool.Tool;
import dev.clawgate.core.tool.ToolContext;
import dev.clawgate.core.tool.ToolRegistry;
import dev.clawgate.core.tool.ToolResult;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AgentLoopTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ProviderCapabilities NATIVE = new ProviderCapabilities(true, false, true);
    private static final ProviderCapabilities GUIDED = new ProviderCapabilities(false, false, true);

    @TempDir
    Path workspace;

    private final List<String> toolRuns = new ArrayList<>();
    private final CancelToken cancel = new CancelToken();

    private Tool echo() {
        ObjectNode schema = JSON.createObjectNode().put("type", "object");
        return Tool.create("echo", "echoes its text", schema, (args, ctx) -> {
            toolRuns.add(args.path("text").asText());
            return ToolResult.ok("echo:" + args.path("text").asText());
        });
    }

    private AgentLoop.Request request(
            ScriptedProvider p, boolean nativeTools, int maxIterations, int maxResult, Tool... tools) {
        return new AgentLoop.Request(
                List.of(new ModelRoute(p, "m", nativeTools)),
                List.of(ChatMessage.system("sys"), ChatMessage.user("hi")),
                new ToolRegistry(List.of(tools)),
                maxIterations,
                maxResult,
                new ToolContext(workspace, null, cancel),
                StepObserver.NONE,
                false);
    }

    private static ToolCall call(String id, String name, String json) throws Exception {
        return new ToolCall(id, name, JSON.readTree(json));
    }

    @Test
    void nativeToolCallsRunAndTheirResultsGoBackAsToolMessages() throws Exception {
        // SPEC AG-1
        ScriptedProvider p = new ScriptedProvider("p", NATIVE)
                .answer(new ChatResponse(
                        "", List.of(call("c1", "echo", "{\"text\":\"a\"}")), null, new Usage(10, 2, 0), "tool_calls"))
                .answer(new ChatResponse("done", List.of(), null, new Usage(20, 3, 0), "stop"));
        AgentResult r = new AgentLoop().run(request(p, true, 10, 8000, echo()));
        assertThat(r.text()).isEqualTo("done");
        assertThat(r.usedTools()).containsExactly("echo");
        assertThat(r.usage()).isEqualTo(new Usage(30, 5, 0));
        assertThat(toolRuns).containsExactly("a");
        List<ChatMessage> second = p.requests().get(1).messages();
        assertThat(second.get(2).toolCalls()).extracting(ToolCall::id).containsExactly("c1");
        assertThat(second.get(3)).isEqualTo(ChatMessage.tool("c1", "echo", "echo:a"));
        assertThat(p.requests().get(0).tools()).extracting(t -> t.name()).containsExactly("echo");
    }

    @Test
    void promptGuidedCallsAreParsedFromTagsAndAnsweredWithAToolResultsTurn() {
        // SPEC AG-1, SP-3
        ScriptedProvider p = new ScriptedProvider("p", GUIDED)
                .text("Sure.\n<tool_call>{\"name\":\"echo\",\"arguments\":{\"text\":\"x\"}}</tool_call>")
                .text("finished");
        AgentResult r;
        try {
            r = new AgentLoop().run(request(p, false, 10, 8000, echo()));
        } catch (ProviderException e) {
            throw new AssertionError(e);
        }
        assertThat(r.text()).isEqualTo("finished");
        assertThat(p.requests().get(0).tools()).isEmpty();
        ChatMessage results = p.requests().get(1).messages().get(3);
        assertThat(results.role()).isEqualTo(Role.USER);
        assertThat(results.content()).startsWith("[Tool results]").contains("<tool_result name=\"echo\">", "echo:x");
    }

    @Test
    void malformedAndUnknownToolCallsAreReportedBackToTheModel() throws Exception {
        // SPEC AG-1: malformed ones reported back to the model as an error result
        ScriptedProvider p = new ScriptedProvider("p", NATIVE)
                .answer(new ChatResponse(
                        "",
                        List.of(new ToolCall("c1", "echo", null, "unexpected end of JSON"), call("c2", "nope", "{}")),
                        null,
                        null,
                        "tool_calls"))
                .text("ok");
        new AgentLoop().run(request(p, true, 10, 8000, echo()));
        List<ChatMessage> second = p.requests().get(1).messages();
        assertThat(second.get(3).content()).contains("could not be parsed", "unexpected end of JSON");
        assertThat(second.get(4).content()).contains("no tool named 'nope'", "echo");
        assertThat(toolRuns).isEmpty();
    }

    @Test
    void theLoopStopsAtMaxToolIterationsAndSaysSo() throws Exception {
        // SPEC AG-1
        ScriptedProvider p = new ScriptedProvider("p", NATIVE);
        for (int i = 0; i < 3; i++)
            p.answer(new ChatResponse(
                    "", List.of(call("c" + i, "echo", "{\"text\":\"" + i + "\"}")), null, null, "tool_calls"));
        AgentResult r = new AgentLoop().run(request(p, true, 3, 8000, echo()));
        assertThat(r.iterationLimitHit()).isTrue();
        assertThat(r.text()).contains("3 tool steps");
        assertThat(p.requests()).hasSize(3);
    }

    @Test
    void toolResultsAreCutToTheConfiguredSizeWithANote() throws Exception {
        // SPEC AG-3
        Tool big = Tool.create("big", "big output", JSON.createObjectNode(), (a, c) -> ToolResult.ok("x".repeat(500)));
        ScriptedProvider p = new ScriptedProvider("p", NATIVE)
                .answer(new ChatResponse("", List.of(call("c1", "big", "{}")), null, null, "tool_calls"))
                .text("ok");
        new AgentLoop().run(request(p, true, 10, 100, big));
        String result = p.requests().get(1).messages().get(3).content();
        assertThat(result).startsWith("x".repeat(100)).contains("output cut: 100 of 500");
        assertThat(result.length()).isLessThan(200);
    }

    @Test
    void inlineBase64ImagesInToolResultsBecomeImageMarkers() throws Exception {
        // SPEC AG-3: never raw base64 in history
        String png = "data:image/png;base64," + java.util.Base64.getEncoder().encodeToString(new byte[64]);
        Tool shot = Tool.create("shot", "screenshot", JSON.createObjectNode(), (a, c) -> ToolResult.ok("here " + png));
        ScriptedProvider p = new ScriptedProvider("p", NATIVE)
                .answer(new ChatResponse("", List.of(call("c1", "shot", "{}")), null, null, "tool_calls"))
                .text("ok");
        new AgentLoop().run(request(p, true, 10, 8000, shot));
        String result = p.requests().get(1).messages().get(3).content();
        assertThat(result).doesNotContain("base64").contains("[IMAGE:" + workspace.toAbsolutePath());
        assertThat(workspace.resolve(".clawgate/images"))
                .isDirectoryContaining(f -> f.toString().endsWith(".png"));
    }

    @Test
    void cancellationIsCheckedBeforeEveryToolCall() throws Exception {
        // SPEC AG-2
        Tool cancelling = Tool.create("cancel", "cancels the run", JSON.createObjectNode(), (a, c) -> {
            toolRuns.add("cancel");
            cancel.cancel("stopped by /stop");
            return ToolResult.ok("ok");
        });
        ScriptedProvider p = new ScriptedProvider("p", NATIVE)
                .answer(new ChatResponse(
                        "",
                        List.of(call("c1", "cancel", "{}"), call("c2", "echo", "{\"text\":\"never\"}")),
                        null,
                        null,
                        "tool_calls"));
        assertThatThrownBy(() -> new AgentLoop().run(request(p, true, 10, 8000, cancelling, echo())))
                .isInstanceOf(CancelledException.class);
        assertThat(toolRuns).containsExactly("cancel");
        assertThat(p.requests()).hasSize(1);
    }

    @Test
    void aRateLimitIsRetriedAfterItsRetryAfterAndATransientErrorFallsBackToTheNextProvider() throws Exception {
        // SPEC SP-4: fallback chain; rate limit retry-after honoured
        ScriptedProvider first = new ScriptedProvider("first", NATIVE)
                .fail(new ProviderException(
                        ProviderException.Kind.RATE_LIMITED, "429", 429, Duration.ofMillis(20), null))
                .fail(new ProviderException(ProviderException.Kind.TRANSIENT, "502"))
                .fail(new ProviderException(ProviderException.Kind.TRANSIENT, "502"));
        ScriptedProvider second = new ScriptedProvider("second", NATIVE).text("from second");
        AgentLoop loop = new AgentLoop(new ModelCaller(2, Duration.ofSeconds(5), Duration.ofMillis(1)));
        AgentResult r = loop.run(new AgentLoop.Request(
                List.of(new ModelRoute(first, "a", true), new ModelRoute(second, "b", true)),
                List.of(ChatMessage.user("hi")),
                ToolRegistry.empty(),
                5,
                8000,
                new ToolContext(workspace, null, cancel),
                StepObserver.NONE,
                false));
        assertThat(r.text()).isEqualTo("from second");
        assertThat(first.requests()).hasSize(3);
        assertThat(second.requests()).extracting(rq -> rq.model()).containsExactly("b");
    }

    @Test
    void aFatalErrorIsNotRetried() {
        // SPEC SP-4: only transient errors and rate limits move down the chain
        ScriptedProvider first =
                new ScriptedProvider("first", NATIVE).fail(new ProviderException(ProviderException.Kind.AUTH, "401"));
        ScriptedProvider second = new ScriptedProvider("second", NATIVE).text("never");
        assertThatThrownBy(() -> new AgentLoop()
                        .run(new AgentLoop.Request(
                                List.of(new ModelRoute(first, "a", true), new ModelRoute(second, "b", true)),
                                List.of(ChatMessage.user("hi")),
                                ToolRegistry.empty(),
                                5,
                                8000,
                                new ToolContext(workspace, null, cancel),
                                StepObserver.NONE,
                                false)))
                .isInstanceOf(ProviderException.class);
        assertThat(second.requests()).isEmpty();
    }

    @Test
    void aSteeredMessageSkipsTheStepsRemainingToolCallsAndFollowsTheToolResults() throws Exception {
        // SPEC DI-3 steer: a running tool finishes, later calls of the step are skipped, the text goes after the
        // results
        java.util.List<ChatMessage> box = new java.util.concurrent.CopyOnWriteArrayList<>();
        Tool first = Tool.create("first", "first", JSON.createObjectNode(), (a, c) -> {
            toolRuns.add("first");
            box.add(ChatMessage.user("wait, also do X"));
            return ToolResult.ok("first done");
        });
        Steering steering = new Steering() {
            public boolean pending() {
                return !box.isEmpty();
            }

            public List<ChatMessage> take() {
                List<ChatMessage> out = List.copyOf(box);
                box.clear();
                return out;
            }
        };
        ScriptedProvider p = new ScriptedProvider("p", NATIVE)
                .answer(new ChatResponse(
                        "",
                        List.of(call("c1", "first", "{}"), call("c2", "echo", "{\"text\":\"skipped\"}")),
                        null,
                        null,
                        "tool_calls"))
                .text("did both");
        AgentResult r = new AgentLoop()
                .run(new AgentLoop.Request(
                        List.of(new ModelRoute(p, "m", true)),
                        List.of(ChatMessage.system("sys"), ChatMessage.user("hi")),
                        new ToolRegistry(List.of(first, echo())),
                        10,
                        8000,
                        new ToolContext(workspace, null, cancel),
                        StepObserver.NONE,
                        false,
                        steering));
        assertThat(r.text()).isEqualTo("did both");
        assertThat(toolRuns).containsExactly("first");
        List<ChatMessage> second = p.requests().get(1).messages();
        assertThat(second.get(3)).isEqualTo(ChatMessage.tool("c1", "first", "first done"));
        assertThat(second.get(4)).isEqualTo(ChatMessage.tool("c2", "echo", AgentLoop.SKIPPED_FOR_STEER));
        assertThat(second.get(5)).isEqualTo(ChatMessage.user("wait, also do X"));
        assertThat(second).hasSize(6);
    }
}

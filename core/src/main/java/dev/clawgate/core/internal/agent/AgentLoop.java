package dev.clawgate.core.internal.agent;

import dev.clawgate.core.internal.toolcall.ParsedReply;
import dev.clawgate.core.internal.toolcall.ReasoningTags;
import dev.clawgate.core.internal.toolcall.ThinkTags;
import dev.clawgate.core.internal.toolcall.ToolCallParser;
import dev.clawgate.core.internal.trace.Phase;
import dev.clawgate.core.internal.trace.PhaseScope;
import dev.clawgate.core.internal.trace.TurnPhases;
import dev.clawgate.core.model.ChatMessage;
import dev.clawgate.core.model.ToolCall;
import dev.clawgate.core.provider.ChatRequest;
import dev.clawgate.core.provider.ChatResponse;
import dev.clawgate.core.provider.ProviderException;
import dev.clawgate.core.provider.StreamObserver;
import dev.clawgate.core.provider.Usage;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.tool.Tool;
import dev.clawgate.core.tool.ToolContext;
import dev.clawgate.core.tool.ToolRegistry;
import dev.clawgate.core.tool.ToolResult;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tool-calling loop (SPEC AG-1..AG-3): call the model, run the tools it asks for, give it the results, and repeat
 * until it answers without a tool call or the iteration limit is reached. Cancellation is checked before every model
 * call and every tool call (SPEC AG-2).
 */
public final class AgentLoop {
    private static final Logger log = LoggerFactory.getLogger(AgentLoop.class);
    /** SPEC DI-3: the result of a tool call a steered message made moot. */
    public static final String SKIPPED_FOR_STEER = "Skipped due to queued user message.";

    /**
     * @param routes the primary model first, then the fallbacks (SPEC SP-4)
     * @param messages system prompt and normalised history, ending with the current user message
     * @param maxResultChars cap per tool result (SPEC AG-3)
     */
    public record Request(
            List<ModelRoute> routes,
            List<ChatMessage> messages,
            ToolRegistry tools,
            int maxIterations,
            int maxResultChars,
            ToolContext toolContext,
            StepObserver observer,
            boolean stream,
            Steering steering,
            ReasoningTags reasoningTags) {
        public Request(
                List<ModelRoute> routes,
                List<ChatMessage> messages,
                ToolRegistry tools,
                int maxIterations,
                int maxResultChars,
                ToolContext toolContext,
                StepObserver observer,
                boolean stream) {
            this(routes, messages, tools, maxIterations, maxResultChars, toolContext, observer, stream, Steering.NONE);
        }

        public Request(
                List<ModelRoute> routes,
                List<ChatMessage> messages,
                ToolRegistry tools,
                int maxIterations,
                int maxResultChars,
                ToolContext toolContext,
                StepObserver observer,
                boolean stream,
                Steering steering) {
            this(
                    routes,
                    messages,
                    tools,
                    maxIterations,
                    maxResultChars,
                    toolContext,
                    observer,
                    stream,
                    steering,
                    ReasoningTags.DEFAULT);
        }

        public Request {
            if (routes.isEmpty()) throw new IllegalArgumentException("no model route");
            routes = List.copyOf(routes);
            messages = List.copyOf(messages);
            reasoningTags = reasoningTags == null ? ReasoningTags.DEFAULT : reasoningTags;
        }
    }

    private final ModelCaller caller;

    public AgentLoop(ModelCaller caller) {
        this.caller = caller;
    }

    public AgentLoop() {
        this(new ModelCaller());
    }

    public AgentResult run(Request req) throws ProviderException {
        CancelToken cancel = req.toolContext().cancel();
        boolean nativeTools = req.routes().get(0).nativeTools();
        List<ChatMessage> conversation = new ArrayList<>(req.messages());
        Set<String> used = new LinkedHashSet<>();
        Usage usage = Usage.NONE;
        StringBuilder reasoning = new StringBuilder();
        for (int step = 0; step < Math.max(1, req.maxIterations()); step++) {
            cancel.throwIfCancelled();
            // SPEC DI-3: steered messages go after the step's tool results, before the next model call
            conversation.addAll(req.steering().take());
            req.observer().onStepStart(step);
            ChatRequest call = new ChatRequest(
                    "", conversation, nativeTools ? req.tools().specs() : List.of(), req.stream(), null);
            ChatResponse response = caller.call(req.routes(), call, observerFor(req.observer(), reasoning), cancel);
            usage = usage.plus(response.usage());
            if (response.reasoning() != null && reasoning.isEmpty()) reasoning.append(response.reasoning());
            // SPEC RP-4: reasoning written inline as <think>...</think> is reasoning too (RP-2 keeps it out of the
            // reply)
            String inline =
                    ThinkTags.split(response.text(), req.reasoningTags()).reasoning();
            if (!inline.isEmpty())
                reasoning.append(reasoning.isEmpty() ? "" : "\n\n").append(inline);

            List<ToolCall> calls;
            String visible;
            if (!response.toolCalls().isEmpty()) {
                calls = response.toolCalls();
                visible = response.text();
            } else {
                // SPEC AG-1: only complete, closed calls are calls; markup-less JSON only when it names registered
                // tools
                ParsedReply parsed = ToolCallParser.parse(
                        response.text(), Set.copyOf(req.tools().names()), req.reasoningTags());
                calls = parsed.calls();
                visible = parsed.visibleText();
            }
            if (calls.isEmpty()) {
                return new AgentResult(
                        response.text(), new ArrayList<>(used), usage, step + 1, false, reasoning.toString());
            }
            boolean nativeCalls = !response.toolCalls().isEmpty();
            conversation.add(
                    nativeCalls ? ChatMessage.assistant(visible, calls) : ChatMessage.assistant(response.text()));
            List<String> promptGuidedResults = new ArrayList<>();
            for (ToolCall tc : calls) {
                cancel.throwIfCancelled();
                String result;
                if (req.steering().pending()) {
                    result = SKIPPED_FOR_STEER;
                } else {
                    req.observer().onToolCall(tc);
                    if (!tc.malformed()) used.add(tc.name());
                    long started = dev.clawgate.core.inspect.TurnTrail.current().now();
                    // SPEC OP-9: each tool call is a phase of the turn's trace
                    try (PhaseScope phase = TurnPhases.begin(Phase.TOOL_CALL, tc.name())) {
                        result = runTool(tc, req);
                        InspectedCalls.tool(started, tc, result);
                        if (result.startsWith("Error: ")) phase.failed("tool error");
                    } finally {
                        req.observer().onToolDone(tc);
                    }
                }
                if (nativeCalls) {
                    conversation.add(ChatMessage.tool(tc.id(), tc.name(), result));
                } else {
                    promptGuidedResults.add("<tool_result name=\"" + tc.name() + "\">\n" + result + "\n</tool_result>");
                }
            }
            if (!nativeCalls)
                conversation.add(ChatMessage.user("[Tool results]\n" + String.join("\n", promptGuidedResults)));
        }
        log.info("agent stopped at max_tool_iterations={}", req.maxIterations());
        String note =
                "I stopped after " + req.maxIterations() + " tool steps without finishing (agent.max_tool_iterations).";
        return new AgentResult(note, new ArrayList<>(used), usage, req.maxIterations(), true, reasoning.toString());
    }

    private static StreamObserver observerFor(StepObserver steps, StringBuilder reasoning) {
        return new StreamObserver() {
            @Override
            public void onTextDelta(String delta) {
                steps.onTextDelta(delta);
            }

            @Override
            public void onReasoningDelta(String delta) {
                reasoning.append(delta);
                steps.onReasoningDelta(delta);
            }
        };
    }

    private String runTool(ToolCall tc, Request req) {
        ToolContext ctx = req.toolContext();
        if (tc.malformed()) {
            return "Error: the tool call could not be parsed (" + tc.parseError()
                    + "). Send it again as {\"name\": \"<tool>\", \"arguments\": {...}} with valid JSON.";
        }
        Optional<Tool> tool = req.tools().find(tc.name());
        if (tool.isEmpty()) {
            return "Error: there is no tool named '" + tc.name() + "'. Available tools: "
                    + String.join(", ", req.tools().names()) + ".";
        }
        ToolResult result;
        try {
            result = tool.get().execute(tc.arguments(), ctx);
        } catch (dev.clawgate.core.run.CancelledException e) {
            throw e;
        } catch (Exception e) {
            // SPEC OP-6: the message may quote the model's arguments: the class at WARN, the rest at DEBUG
            log.warn("tool {} failed: {}", tc.name(), e.getClass().getSimpleName());
            log.debug("tool {} failed", tc.name(), e);
            result = ToolResult.error("the tool failed: " + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : ": " + e.getMessage()));
        }
        String text = result.error() ? "Error: " + result.output() : result.output();
        Path imageDir = ctx.workspace().resolve(".clawgate").resolve("images");
        return ToolOutput.forHistory(text, req.maxResultChars(), imageDir);
    }
}

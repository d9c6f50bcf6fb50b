package dev.clawgate.core.internal.turn;

import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.config.MultimodalSettings;
import dev.clawgate.core.internal.agent.ModelRoute;
import dev.clawgate.core.internal.history.Compaction;
import dev.clawgate.core.internal.history.Compactor;
import dev.clawgate.core.internal.history.HistoryNormalizer;
import dev.clawgate.core.internal.history.HistoryTrimmer;
import dev.clawgate.core.internal.multimodal.ImageInliner;
import dev.clawgate.core.internal.multimodal.PublicImageFetcher;
import dev.clawgate.core.internal.trace.Phase;
import dev.clawgate.core.internal.trace.PhaseScope;
import dev.clawgate.core.internal.trace.TurnPhases;
import dev.clawgate.core.model.ChatMessage;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.prompt.BuiltPrompt;
import dev.clawgate.core.prompt.MemoryLine;
import dev.clawgate.core.prompt.PromptContext;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.TranscriptEntry;
import dev.clawgate.core.tool.ToolRegistry;
import java.util.ArrayList;
import java.util.List;

/**
 * The messages a model call starts from: the system prompt (SPEC SP-1, SP-2) with the turn's memory context last
 * (ME-4), then the stored transcript, normalised (HI-3) and trimmed to its budget (HI-4). The current user message is
 * already the transcript's last entry.
 */
final class ConversationBuilder {
    private static final int COMPACT_KEEP = 12;
    private static final int COMPACT_MAX_CHARS = 600;

    private final TurnServices s;

    ConversationBuilder(TurnServices s) {
        this.s = s;
    }

    /**
     * @param memory this turn's recalled memories, filtered (SPEC ME-3); they go into the prompt, never the history
     *     (ME-4)
     */
    List<ChatMessage> build(
            InboxRecord current, ClawgateConfig config, ModelRoute route, ToolRegistry tools, List<MemoryLine> memory) {
        return build(current, config, route, tools, memory, null);
    }

    /**
     * @param carried a stateless call's conversation (SPEC CH-10), its last entry the current user message: used
     *     instead of the stored transcript, its system messages after the gateway's system prompt; null: the session's
     *     transcript
     */
    List<ChatMessage> build(
            InboxRecord current,
            ClawgateConfig config,
            ModelRoute route,
            ToolRegistry tools,
            List<MemoryLine> memory,
            List<ChatMessage> carried) {
        // SPEC OP-9: the prompt is a phase of the turn's trace
        try (PhaseScope phase = TurnPhases.begin(Phase.PROMPT, route.model())) {
            List<ChatMessage> messages = assemble(current, config, route, tools, memory, carried);
            phase.attribute("messages", Integer.toString(messages.size()));
            return messages;
        }
    }

    private List<ChatMessage> assemble(
            InboxRecord current,
            ClawgateConfig config,
            ModelRoute route,
            ToolRegistry tools,
            List<MemoryLine> memory,
            List<ChatMessage> carried) {
        SessionKey session = current.session();
        long loading = dev.clawgate.core.inspect.TurnTrail.current().now();
        List<ChatMessage> history = carried == null
                ? toMessages(
                        s.store().transcripts().load(session, config.history().maxMessages()))
                : carried.stream()
                        .filter(m -> m.role() != dev.clawgate.core.model.Role.SYSTEM)
                        .toList();
        String callerSystem = carried == null
                ? ""
                : String.join(
                        "\n\n",
                        carried.stream()
                                .filter(m -> m.role() == dev.clawgate.core.model.Role.SYSTEM
                                        && !m.content().isBlank())
                                .map(ChatMessage::content)
                                .toList());
        boolean vision = route.provider().capabilities().vision();
        history = HistoryNormalizer.normalize(history, vision);
        int loaded = history.size();
        var trim = HistoryTrimmer.trim(history, config.history().maxChars());
        InspectedTurns.history(loading, loaded, trim);
        history = trim.history();
        if (vision) history = images(config, s).inline(history);
        PromptContext ctx = PromptContext.builder(config.agent().workspace())
                .tools(tools.specs())
                .nativeTools(route.nativeTools())
                .model(route.model())
                .provider(route.provider().name())
                .channel(current.message().channel())
                .replyTarget(current.message().replyTarget())
                .chatType(current.message().chatType())
                .memory(memory)
                .build();
        long building = dev.clawgate.core.inspect.TurnTrail.current().now();
        BuiltPrompt prompt = s.prompts().prompt(session, ctx);
        InspectedTurns.prompt(building, prompt);
        List<ChatMessage> messages = new ArrayList<>(history.size() + 1);
        messages.add(
                ChatMessage.system(callerSystem.isEmpty() ? prompt.text() : prompt.text() + "\n\n" + callerSystem));
        messages.addAll(history);
        return messages;
    }

    /** SPEC AG-4: local images inside the workspace or data dir become data URIs; remote ones only when allowed. */
    private static ImageInliner images(ClawgateConfig config, TurnServices s) {
        MultimodalSettings m = config.multimodal();
        return new ImageInliner(
                List.of(config.agent().workspace(), config.gateway().dataDir()),
                m.maxImages(),
                m.maxImageBytes(),
                m.allowRemoteFetch() ? new PublicImageFetcher(s.web()) : ImageInliner.RemoteImages.refuseAll());
    }

    /** SPEC HI-5: keep the newest messages, each cut short; true only when something was really compacted. */
    boolean compact(SessionKey session) {
        long started = dev.clawgate.core.inspect.TurnTrail.current().now();
        List<ChatMessage> all = toMessages(s.store().transcripts().load(session, Integer.MAX_VALUE));
        Compaction result = Compactor.compact(all, COMPACT_KEEP, COMPACT_MAX_CHARS);
        InspectedTurns.compacted(started, all.size(), result);
        if (!result.compacted()) return false;
        s.store().transcripts().replace(session, result.history());
        return true;
    }

    private static List<ChatMessage> toMessages(List<TranscriptEntry> entries) {
        List<ChatMessage> out = new ArrayList<>(entries.size());
        for (TranscriptEntry e : entries) out.add(new ChatMessage(e.role(), e.content(), List.of(), null, null));
        return out;
    }
}

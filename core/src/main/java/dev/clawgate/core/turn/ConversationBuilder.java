package dev.clawgate.core.turn;

import dev.clawgate.core.agent.ModelRoute;
import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.history.Compaction;
import dev.clawgate.core.history.Compactor;
import dev.clawgate.core.history.HistoryNormalizer;
import dev.clawgate.core.history.HistoryTrimmer;
import dev.clawgate.core.model.ChatMessage;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.prompt.BuiltPrompt;
import dev.clawgate.core.prompt.PromptContext;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.TranscriptEntry;
import dev.clawgate.core.tool.ToolRegistry;
import java.util.ArrayList;
import java.util.List;

/**
 * The messages a model call starts from: the system prompt (SPEC SP-1, SP-2), then the stored
 * transcript, normalised (HI-3) and trimmed to its budget (HI-4). The current user message is
 * already the transcript's last entry.
 */
final class ConversationBuilder {
    private static final int COMPACT_KEEP = 12;
    private static final int COMPACT_MAX_CHARS = 600;

    private final TurnServices s;

    ConversationBuilder(TurnServices s) {
        this.s = s;
    }

    List<ChatMessage> build(InboxRecord current, ClawgateConfig config, ModelRoute route, ToolRegistry tools, ModelChoice choice) {
        SessionKey session = current.session();
        List<ChatMessage> history = toMessages(s.store().loadTranscript(session, config.history().maxMessages()));
        history = HistoryNormalizer.normalize(history, route.provider().capabilities().vision());
        history = HistoryTrimmer.trim(history, config.history().maxChars()).history();
        PromptContext ctx = PromptContext.builder(config.agent().workspace())
                .tools(tools.specs())
                .nativeTools(route.nativeTools())
                .model(route.model())
                .provider(route.provider().name())
                .channel(current.message().channel())
                .replyTarget(current.message().replyTarget())
                .chatType(current.message().chatType())
                .build();
        BuiltPrompt prompt = s.prompts().prompt(session, ctx);
        List<ChatMessage> messages = new ArrayList<>(history.size() + 1);
        messages.add(ChatMessage.system(prompt.text()));
        messages.addAll(history);
        return messages;
    }

    /** SPEC HI-5: keep the newest messages, each cut short; true only when something was really compacted. */
    boolean compact(SessionKey session) {
        List<ChatMessage> all = toMessages(s.store().loadTranscript(session, Integer.MAX_VALUE));
        Compaction result = Compactor.compact(all, COMPACT_KEEP, COMPACT_MAX_CHARS);
        if (!result.compacted()) return false;
        s.store().replaceTranscript(session, result.history());
        return true;
    }

    private static List<ChatMessage> toMessages(List<TranscriptEntry> entries) {
        List<ChatMessage> out = new ArrayList<>(entries.size());
        for (TranscriptEntry e : entries) out.add(new ChatMessage(e.role(), e.content(), List.of(), null, null));
        return out;
    }
}

package dev.clawgate.core.internal.memory;

import dev.clawgate.core.config.MemorySettings;
import dev.clawgate.core.internal.agent.ModelRoute;
import dev.clawgate.core.internal.history.ConversationKeys;
import dev.clawgate.core.memory.Memory;
import dev.clawgate.core.memory.MemoryEntry;
import dev.clawgate.core.memory.MemoryScope;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.model.Role;
import dev.clawgate.core.provider.ChatResponse;
import dev.clawgate.core.provider.ProviderException;
import dev.clawgate.core.provider.StreamObserver;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.store.Store;
import dev.clawgate.core.store.TranscriptEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One consolidation step for a finished turn (SPEC ME-6, ME-7), run by {@link Consolidation} off the reply path. Only a
 * turn that ended with a committed final reply is consolidated. {@code dedupe}: the turn's auto-saved messages absorb
 * their near-duplicates in their scope. {@code llm}: that, then the agent's model is asked once, without tools, for at
 * most {@link FactExtraction#MAX_FACTS} durable facts, kept as {@code core} memories in the sender's scope under
 * {@code {channel}_{sender}_fact_{hash}}; a new fact absorbs older near-identical facts.
 */
public final class Consolidator {
    private static final Logger log = LoggerFactory.getLogger(Consolidator.class);
    /** How far back the transcript is read for the turn's reply: other turns of the session may follow it quickly. */
    static final int TRANSCRIPT_WINDOW = 20;

    private static final Pattern TOOL_SUMMARY = Pattern.compile("\\A\\[Used tools: [^\\]\\n]*\\]\\n");
    /** Scheduled turns are the agent talking to itself on a timer: nothing new about the user. */
    private static final String CRON_ID_PREFIX = "cron:";

    private final Store store;
    private final Memory memory;
    private final Supplier<MemorySettings> settings;
    private final Supplier<Optional<ModelRoute>> model;

    /** @param model the agent's default model, or empty when none is configured; read for each {@code llm} step */
    public Consolidator(
            Store store, Memory memory, Supplier<MemorySettings> settings, Supplier<Optional<ModelRoute>> model) {
        this.store = Objects.requireNonNull(store, "store");
        this.memory = Objects.requireNonNull(memory, "memory");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.model = Objects.requireNonNull(model, "model");
    }

    /** What one step did: the facts kept, the entries absorbed, or why nothing was done. */
    public record Outcome(List<MemoryEntry> facts, List<MemoryEntry> absorbed, String skipped) {
        static Outcome skipped(String why) {
            return new Outcome(List.of(), List.of(), why);
        }
    }

    /**
     * Consolidates {@code turn}. Store and model failures propagate ({@link dev.clawgate.core.store.StoreException},
     * {@link ProviderException}); {@link Consolidation} logs and counts them.
     */
    public Outcome consolidate(FinishedTurn turn, CancelToken cancel) throws ProviderException {
        MemorySettings cfg = settings.get();
        if (!cfg.enabled() || cfg.consolidation() == ConsolidationMode.OFF)
            return Outcome.skipped("consolidation is off");
        if (turn.last().id() != null && turn.last().id().startsWith(CRON_ID_PREFIX))
            return Outcome.skipped("a scheduled turn");
        MemoryScopes scopes = MemoryScopes.of(turn.last(), turn.session());
        List<MemoryEntry> saved = savedMessages(turn, scopes.home());
        // dedupe works on the turn's auto-saved messages only: none (auto-save off, short messages) means nothing to
        // read
        if (cfg.consolidation() == ConsolidationMode.DEDUPE && saved.isEmpty())
            return Outcome.skipped("no message of the turn was saved");
        if (store.inbox().state(turn.turnId()).orElse(null) != InboxState.DONE)
            return Outcome.skipped("the turn did not end with a reply");
        Optional<String> reply = reply(turn);
        if (reply.isEmpty()) return Outcome.skipped("the turn has no assistant message");

        List<MemoryEntry> absorbed = new ArrayList<>(NearDuplicates.absorb(
                memory, scopes.home(), saved, e -> MemoryEntry.CONVERSATION.equals(e.category())));
        List<MemoryEntry> facts = List.of();
        if (cfg.consolidation() == ConsolidationMode.LLM) {
            facts = extractFacts(turn, reply.get(), scopes.sender(), cfg, cancel);
            absorbed.addAll(NearDuplicates.absorb(memory, scopes.sender(), facts, Consolidator::isFact));
            if (!facts.isEmpty()) memory.trim(scopes.sender(), cfg.maxEntriesPerScope());
        }
        return new Outcome(facts, absorbed, null);
    }

    /** The turn's assistant message as committed with its final state, without the tool summary line (SPEC RP-3). */
    private Optional<String> reply(FinishedTurn turn) {
        for (TranscriptEntry e :
                store.transcripts().load(turn.session(), TRANSCRIPT_WINDOW).reversed()) {
            if (e.role() == Role.ASSISTANT && Objects.equals(e.inboxId(), turn.turnId())) {
                return Optional.of(TOOL_SUMMARY.matcher(e.content()).replaceFirst(""))
                        .filter(s -> !s.isBlank());
            }
        }
        return Optional.empty();
    }

    /**
     * The turn's messages as auto-save kept them in {@code home}; SPEC ME-7 by meaning, not only by hash: they replace
     * their near-identical elders.
     */
    private List<MemoryEntry> savedMessages(FinishedTurn turn, MemoryScope home) {
        List<MemoryEntry> saved = new ArrayList<>();
        for (InboundMessage m : turn.messages()) {
            memory.get(home, ConversationKeys.memoryKey(m)).ifPresent(saved::add);
        }
        return saved;
    }

    private List<MemoryEntry> extractFacts(
            FinishedTurn turn, String reply, MemoryScope scope, MemorySettings cfg, CancelToken cancel)
            throws ProviderException {
        Optional<ModelRoute> route = model.get();
        if (route.isEmpty()) {
            log.debug("turn {}: no model configured; no facts extracted", turn.turnId());
            return List.of();
        }
        String userText = turn.messages().stream().map(InboundMessage::text).collect(Collectors.joining("\n\n"));
        ChatResponse answer = route.get()
                .provider()
                .chat(FactExtraction.request(route.get().model(), userText, reply), StreamObserver.NONE, cancel);
        List<MemoryEntry> kept = new ArrayList<>();
        for (String fact : FactExtraction.parse(answer.text())) {
            if (kept.size() == FactExtraction.MAX_FACTS) break;
            Optional<String> refusal = FactExtraction.refusal(fact, userText, reply, cfg.maxEntryChars());
            if (refusal.isPresent()) {
                log.debug("turn {}: a fact was not kept: {}", turn.turnId(), refusal.get());
                continue;
            }
            String key = FactExtraction.key(turn.last().channel(), turn.last().sender(), fact);
            kept.add(memory.store(scope, key, fact, MemoryEntry.CORE));
        }
        return kept;
    }

    private static boolean isFact(MemoryEntry e) {
        return MemoryEntry.CORE.equals(e.category()) && e.key().contains("_fact_");
    }
}

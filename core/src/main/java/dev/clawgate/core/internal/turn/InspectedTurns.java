package dev.clawgate.core.internal.turn;

import dev.clawgate.core.config.QueueMode;
import dev.clawgate.core.inspect.Detail;
import dev.clawgate.core.inspect.TurnInspector;
import dev.clawgate.core.inspect.TurnTrail;
import dev.clawgate.core.internal.history.Compaction;
import dev.clawgate.core.internal.history.TrimResult;
import dev.clawgate.core.outbound.TurnOutcome;
import dev.clawgate.core.prompt.BuiltPrompt;
import dev.clawgate.core.prompt.PromptSection;
import dev.clawgate.core.provider.ProviderException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The turn pipeline's side of the turn inspector (SPEC OP-8): what each of its stages tells the current
 * {@link TurnTrail}, kept here so the stages themselves stay one line each.
 */
final class InspectedTurns {
    private InspectedTurns() {}

    static TurnInspector inspector(TurnServices s) {
        return new TurnInspector(s.store().turns(), () -> s.config().get().inspector(), s.clock());
    }

    static TurnInspector.Recording begin(TurnInspector inspector, Turn turn) {
        var queue = turn.config().queue();
        String channel = turn.current().message().channel();
        QueueMode mode = queue.byChannel().getOrDefault(channel, queue.mode());
        var recording = inspector.begin(
                turn.batch(),
                mode.name().toLowerCase(Locale.ROOT),
                turn.handle().droppedSummaries().size());
        recording
                .trail()
                .mark(
                        "debounce",
                        () -> Detail.of()
                                .put("debounce_ms", turn.config().inbound().debounceMsFor(channel))
                                .put("messages", turn.batch().size())
                                .put("decision", turn.batch().size() > 1 ? "batched into one turn" : "single message"));
        if (reacts(turn)) recording.trail().mark("reaction", () -> Detail.of().put("received", "shown"));
        return recording;
    }

    static void end(TurnInspector inspector, TurnInspector.Recording recording, Turn turn, TurnOutcome outcome) {
        if (reacts(turn)) {
            recording
                    .trail()
                    .mark(
                            "reaction",
                            () -> Detail.of()
                                    .put(
                                            "settled",
                                            outcome == TurnOutcome.REPLIED
                                                    ? "done"
                                                    : outcome.name().toLowerCase(Locale.ROOT)));
        }
        inspector.end(recording, outcome.name().toLowerCase(Locale.ROOT));
    }

    /** SPEC RP-5: whether the channel shows ack reactions (its receipts are sent beside the turn). */
    private static boolean reacts(Turn turn) {
        String channel = turn.current().message().channel();
        return "true".equals(turn.config().channel(channel).options().get("ack_reactions"));
    }

    /** SPEC HI-5: the provider said the context overflowed. */
    static void overflow(ProviderException e) {
        TurnTrail.current()
                .mark(
                        "overflow",
                        () -> Detail.of()
                                .put("kind", e.kind().name().toLowerCase(Locale.ROOT))
                                .put("error", UserFacingError.redact(String.valueOf(e.getMessage()))));
    }

    /** SPEC HI-5: the session's history compacted (or found too small to compact). */
    static void compacted(long startedAt, int before, Compaction result) {
        TurnTrail.current()
                .span(
                        "compaction",
                        startedAt,
                        () -> Detail.of()
                                .put("compacted", result.compacted())
                                .put("messages_before", before)
                                .put("messages_after", result.history().size())
                                .put("chars_after", chars(result.history())));
    }

    /** SPEC HI-5 beyond: the turn runs once more after the compaction. */
    static void retry() {
        TurnTrail.current().mark("retry", () -> Detail.of().put("reason", "context overflow, history compacted"));
    }

    /** SPEC HI-3, HI-4: what the history kept and what the trim dropped. */
    static void history(long startedAt, int loaded, TrimResult trim) {
        TurnTrail.current()
                .span(
                        "history",
                        startedAt,
                        () -> Detail.of()
                                .put("loaded", loaded)
                                .put("kept", trim.history().size())
                                .put("dropped_messages", trim.droppedMessages())
                                .put("dropped_turns", trim.droppedTurns())
                                .put("chars", chars(trim.history())));
    }

    /** SPEC SP-1: the system prompt's sections and their sizes. */
    static void prompt(long startedAt, BuiltPrompt prompt) {
        TurnTrail.current().span("prompt", startedAt, () -> {
            List<Detail> sections = new ArrayList<>(prompt.sections().size());
            for (PromptSection s : prompt.sections()) {
                sections.add(Detail.of().put("name", s.name()).put("chars", s.chars()));
            }
            return Detail.of().put("chars", prompt.text().length()).raw("sections", Detail.list(sections));
        });
    }

    /** SPEC ME-2, ME-3: the memories recalled with their scores, and whether each went into the prompt. */
    static void memory(
            long startedAt,
            List<dev.clawgate.core.memory.Recalled> recalled,
            List<dev.clawgate.core.prompt.MemoryLine> injected,
            double minRelevance) {
        TurnTrail.current().span("memory", startedAt, () -> {
            java.util.Set<String> kept = new java.util.HashSet<>();
            for (var line : injected) kept.add(line.key());
            List<Detail> entries = new ArrayList<>(recalled.size());
            for (var r : recalled) {
                entries.add(Detail.of()
                        .put("key", r.entry().key())
                        .put("score", r.score())
                        .put("chars", r.entry().content().length())
                        .put("injected", kept.contains(r.entry().key())));
            }
            return Detail.of()
                    .put("recalled", recalled.size())
                    .put("injected", injected.size())
                    .put("min_relevance", minRelevance)
                    .raw("entries", Detail.list(entries));
        });
    }

    /** What the sanitiser took out of the model's text (SPEC OUT-1). */
    static void sanitised(String raw, String clean) {
        TurnTrail.current().mark("sanitise", () -> {
            int before = raw == null ? 0 : raw.length();
            return Detail.of()
                    .put("chars_in", before)
                    .put("chars_out", clean.length())
                    .put("removed_chars", Math.max(0, before - clean.length()))
                    .put("changed", raw != null && !raw.equals(clean));
        });
    }

    private static long chars(List<dev.clawgate.core.model.ChatMessage> messages) {
        long n = 0;
        for (var m : messages) n += m.content() == null ? 0 : m.content().length();
        return n;
    }
}

package dev.clawgate.core.internal.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import dev.clawgate.core.config.MemorySettings;
import dev.clawgate.core.internal.agent.ModelRoute;
import dev.clawgate.core.memory.MemoryEntry;
import dev.clawgate.core.memory.MemoryScope;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.model.Role;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.provider.ProviderCapabilities;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.testing.InMemoryStore;
import dev.clawgate.core.testing.ScriptedProvider;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** One consolidation step on a stored turn (SPEC ME-6, ME-7), with a scripted model. */
class ConsolidatorTest {
    private static final String USER = "My cat is named Pixel and she loves tuna, and I live in Lisbon";
    private static final String REPLY =
            "What a lovely name! Pixel sounds like a very happy cat who enjoys her tuna a lot.";

    private final InMemoryStore store = new InMemoryStore();
    private final ScriptedProvider model = new ScriptedProvider("p", new ProviderCapabilities(true, false, true));
    private MemorySettings settings = MemorySettings.defaults().withConsolidation(ConsolidationMode.LLM);
    private final Consolidator consolidator = new Consolidator(
            store, store.memory(), () -> settings, () -> Optional.of(new ModelRoute(model, "m-1", true)));
    private final MemoryScope alice = MemoryScope.sender("test", "alice");

    /**
     * A turn as the pipeline leaves it: the message recorded and auto-saved, the reply committed with {@code state}.
     */
    private FinishedTurn turn(String id, String text, String reply, InboxState state) {
        InboundMessage m = new InboundMessage(
                id,
                "test",
                null,
                "alice",
                "Alice",
                "alice",
                null,
                null,
                ChatType.DIRECT,
                true,
                Instant.now(),
                text,
                List.of(),
                null);
        SessionKey session = SessionKey.of(m);
        InboxRecord r = store.inbox().record(m, session, null, Duration.ZERO).orElseThrow();
        store.transcripts().appendUserMessage(session, r.id(), text);
        AutoSave.save(store.memory(), m, MemoryScopes.of(m, session), settings);
        store.transcripts().completeTurn(session, r.id(), reply, state);
        return new FinishedTurn(r.id(), session, List.of(m));
    }

    @Test
    void theModelsFactsAreKeptAsCoreMemoriesOfTheSenderAndTheUnfitOnesAreNot() throws Exception {
        // SPEC ME-6 (llm: a one-shot request, facts kept as core memories keyed {scope}_fact_{hash}),
        // ME-7 (no assistant text verbatim, no [Memory context] blob, identical content once)
        model.text("""
                ["The user's cat is named Pixel.",
                 "The user lives in Lisbon.",
                 "[Memory context]\\n- test_alice_1: My cat is named Pixel",
                 "Pixel sounds like a very happy cat who enjoys her tuna.",
                 "the user's cat is named Pixel",
                 "The user's cat likes tuna.",
                 "The user has a fourth fact."]""");
        Consolidator.Outcome o = consolidator.consolidate(
                turn("1", USER, "[Used tools: shell]\n" + REPLY, InboxState.DONE), CancelToken.none());

        assertThat(o.skipped()).isNull();
        assertThat(store.memory().all())
                .filteredOn(e -> e.category().equals(MemoryEntry.CORE))
                .extracting(MemoryEntry::scope, MemoryEntry::key, MemoryEntry::content)
                .containsExactlyInAnyOrder(
                        tuple(
                                alice,
                                FactExtraction.key("test", "alice", "The user's cat is named Pixel."),
                                "The user's cat is named Pixel."),
                        tuple(
                                alice,
                                FactExtraction.key("test", "alice", "The user lives in Lisbon."),
                                "The user lives in Lisbon."),
                        tuple(
                                alice,
                                FactExtraction.key("test", "alice", "The user's cat likes tuna."),
                                "The user's cat likes tuna."));
        assertThat(store.memory().all())
                .extracting(MemoryEntry::content)
                .noneMatch(c ->
                        c.contains("[Memory context]") || c.contains("very happy cat") || c.contains("[Used tools"));
        // the user's own words stay as the conversation memory auto-save made of them
        assertThat(store.memory().all())
                .filteredOn(e -> e.category().equals(MemoryEntry.CONVERSATION))
                .extracting(MemoryEntry::content)
                .containsExactly(USER);

        // the model was asked once: the instruction, then the exchange without the tool summary; no tools
        assertThat(model.requests()).singleElement().satisfies(r -> {
            assertThat(r.model()).isEqualTo("m-1");
            assertThat(r.tools()).isEmpty();
            assertThat(r.messages()).extracting(m -> m.role()).containsExactly(Role.SYSTEM, Role.USER);
            assertThat(r.messages().getLast().content()).isEqualTo("User:\n" + USER + "\n\nAssistant:\n" + REPLY);
        });
    }

    @Test
    void aNewFactAbsorbsAnOlderNearIdenticalFactButLeavesWhatTheAgentStoredItself() throws Exception {
        // SPEC ME-6 (merge near-duplicates), ME-7 (identical memories once)
        model.text("[\"The user's cat is named Pixel and she is a tabby.\"]")
                .text("[\"The user's cat is named Pixel and she is a grey tabby.\", \"The user lives in Lisbon.\"]");
        store.memory().store(alice, "cat", "the user's cat is named pixel and she is a tabby", MemoryEntry.CORE);
        consolidator.consolidate(turn("1", USER, "Nice.", InboxState.DONE), CancelToken.none());
        Consolidator.Outcome second = consolidator.consolidate(
                turn("2", "Also, Pixel is grey and I still live in Lisbon", "Good to know.", InboxState.DONE),
                CancelToken.none());

        assertThat(second.absorbed())
                .extracting(MemoryEntry::content)
                .containsExactly("The user's cat is named Pixel and she is a tabby.");
        assertThat(store.memory().all())
                .filteredOn(e -> e.category().equals(MemoryEntry.CORE))
                .extracting(MemoryEntry::content)
                .containsExactlyInAnyOrder(
                        "the user's cat is named pixel and she is a tabby",
                        "The user's cat is named Pixel and she is a grey tabby.",
                        "The user lives in Lisbon.");
    }

    @Test
    void dedupeMergesTheTurnsSavedMessageWithItsNearDuplicatesWithoutAModelCall() throws Exception {
        // SPEC ME-6 (dedupe: no model call), ME-7
        settings = MemorySettings.defaults().withConsolidation(ConsolidationMode.DEDUPE);
        turn("1", "Remember: the deploy window is Tuesday", "Noted.", InboxState.DONE);
        turn("2", "I prefer green tea in the morning please", "Sure.", InboxState.DONE);
        Consolidator.Outcome o = consolidator.consolidate(
                turn("3", "remember, the deploy window is Tuesday!", "Noted again.", InboxState.DONE),
                CancelToken.none());

        assertThat(o.absorbed())
                .extracting(MemoryEntry::content)
                .containsExactly("Remember: the deploy window is Tuesday");
        assertThat(store.memory().all())
                .extracting(MemoryEntry::content)
                .containsExactlyInAnyOrder(
                        "I prefer green tea in the morning please", "remember, the deploy window is Tuesday!");
        assertThat(model.requests()).isEmpty();
    }

    @Test
    void aTurnWithoutACommittedReplyOrAScheduledOneOrWithConsolidationOffIsLeftAlone() throws Exception {
        // SPEC ME-6: consolidation follows a turn's final reply; ME-7: a failed turn's text is not mined
        assertThat(consolidator
                        .consolidate(turn("1", USER, "[Task failed]", InboxState.FAILED), CancelToken.none())
                        .skipped())
                .isEqualTo("the turn did not end with a reply");
        assertThat(consolidator
                        .consolidate(
                                turn("2", "/new but a longer command text here", null, InboxState.DONE),
                                CancelToken.none())
                        .skipped())
                .isEqualTo("the turn has no assistant message");
        assertThat(consolidator
                        .consolidate(
                                turn(
                                        "cron:4:1700000000000",
                                        "[Scheduled task] say hi to the team",
                                        "hi",
                                        InboxState.DONE),
                                CancelToken.none())
                        .skipped())
                .isEqualTo("a scheduled turn");
        settings = settings.withConsolidation(ConsolidationMode.OFF);
        assertThat(consolidator
                        .consolidate(turn("3", USER, REPLY, InboxState.DONE), CancelToken.none())
                        .skipped())
                .isEqualTo("consolidation is off");
        assertThat(model.requests()).isEmpty();
        assertThat(store.memory().all()).allMatch(e -> e.category().equals(MemoryEntry.CONVERSATION));
    }

    @Test
    void dedupeLeavesATurnAloneWhenNoneOfItsMessagesWasSaved() throws Exception {
        // SPEC ME-6 (dedupe works on the turn's auto-saved messages), ME-1 (under 20 characters nothing is saved)
        settings = MemorySettings.defaults().withConsolidation(ConsolidationMode.DEDUPE);
        turn("1", "ok, see you tuesday!", "Bye.", InboxState.DONE);
        int kept = store.memory().all().size();

        Consolidator.Outcome o = consolidator.consolidate(
                turn("2", "ok, see you tuesday", "Bye again.", InboxState.DONE), CancelToken.none());

        assertThat(o.skipped()).isEqualTo("no message of the turn was saved");
        assertThat(store.memory().all())
                .hasSize(kept)
                .extracting(MemoryEntry::content)
                .containsExactly("ok, see you tuesday!");
    }
}

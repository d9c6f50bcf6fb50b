package dev.clawgate.core.internal.turn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.clawgate.core.config.MemorySettings;
import dev.clawgate.core.internal.agent.ModelRoute;
import dev.clawgate.core.internal.memory.Consolidation;
import dev.clawgate.core.internal.memory.ConsolidationMode;
import dev.clawgate.core.internal.memory.Consolidator;
import dev.clawgate.core.internal.memory.FactExtraction;
import dev.clawgate.core.internal.run.TurnRunner;
import dev.clawgate.core.memory.MemoryEntry;
import dev.clawgate.core.model.ChatMessage;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.provider.ChatResponse;
import dev.clawgate.core.run.RunHandle;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.testing.ScriptedProvider;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Consolidation after the real turn pipeline: after the reply, never in its way, and bounded (SPEC ME-6). */
class TurnConsolidationTest {
    @TempDir
    Path workspace;

    private final MemorySettings settings = MemorySettings.defaults().withConsolidation(ConsolidationMode.LLM);
    private final ExecutorService turns = Executors.newSingleThreadExecutor();
    private Consolidation consolidation;

    @AfterEach
    void stop() {
        turns.shutdownNow();
        if (consolidation != null) consolidation.close();
    }

    private TurnRunner wire(TurnFixture f, ScriptedProvider p, int capacity) {
        f.memory = settings;
        consolidation = new Consolidation(
                        new Consolidator(
                                f.store,
                                f.store.memory(),
                                () -> settings,
                                () -> Optional.of(new ModelRoute(p, "m", true))),
                        () -> settings,
                        capacity,
                        Clock.systemUTC())
                .start();
        return consolidation.after(new TurnPipeline(f.services()));
    }

    /** Runs one turn on the turn thread; a turn that waited for consolidation would never finish. */
    private Future<?> turn(TurnRunner runner, InboxRecord r) {
        return turns.submit(() -> {
            runner.run(new RunHandle(List.of(r), Instant.now()));
            return null;
        });
    }

    private static boolean isConsolidation(List<ChatMessage> messages) {
        return messages.getFirst().content().equals(FactExtraction.INSTRUCTION);
    }

    @Test
    void theFactIsAskedForAfterTheReplyWentOutAndKeptForTheSender() throws Exception {
        // SPEC ME-6: after a turn's final reply committed, the agent's model is asked once; ME-7 hygiene on what it
        // says
        TurnFixture f = new TurnFixture(workspace, "test");
        ScriptedProvider p = f.provider("p", "m", true, false)
                .text("What a lovely name!")
                .text("[\"The user's cat is named Pixel.\", \"What a lovely name!\"]");
        TurnRunner runner = wire(f, p, 4);

        turn(runner, f.record("alice", "My cat is named Pixel and she loves tuna"))
                .get(10, TimeUnit.SECONDS);
        await().until(() -> consolidation.stats().done() == 1);

        assertThat(f.channel.texts(OutboundMessage.Kind.FINAL)).containsExactly("What a lovely name!");
        assertThat(p.requests()).hasSize(2);
        assertThat(isConsolidation(p.requests().get(0).messages())).isFalse();
        assertThat(isConsolidation(p.requests().get(1).messages())).isTrue();
        assertThat(p.requests().get(1).messages().getLast().content())
                .isEqualTo("User:\nMy cat is named Pixel and she loves tuna\n\nAssistant:\nWhat a lovely name!");
        assertThat(f.store.memory().all())
                .filteredOn(e -> e.category().equals(MemoryEntry.CORE))
                .extracting(MemoryEntry::key, MemoryEntry::content)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(
                        FactExtraction.key("test", "alice", "The user's cat is named Pixel."),
                        "The user's cat is named Pixel."));
    }

    @Test
    void repliesGoOutWhileConsolidationIsBlockedAndAFullQueueDropsTheTurn() throws Exception {
        // SPEC ME-6: fire and forget, bounded; OP-7: a full queue drops (counted), it never holds a reply
        TurnFixture f = new TurnFixture(workspace, "test");
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ScriptedProvider p = f.provider("p", "m", true, false)
                .text("reply one")
                .working(
                        o -> {
                            entered.countDown();
                            try {
                                release.await();
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                        },
                        ChatResponse.text("[\"The user is planning a trip to Lisbon in May.\"]"))
                .text("reply two")
                .text("reply three")
                .text("[\"The user is learning Portuguese for the trip.\"]");
        TurnRunner runner = wire(f, p, 1);

        turn(runner, f.record("alice", "I am planning a trip to Lisbon in May")).get(10, TimeUnit.SECONDS);
        // the worker holds turn one's consolidation inside the model call
        assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();

        Future<?> second = turn(runner, f.record("alice", "I am learning Portuguese for the trip"));
        Future<?> third = turn(runner, f.record("alice", "Which neighbourhood should we stay in there?"));
        await().until(() -> second.isDone() && third.isDone());
        second.get();
        third.get();

        // every reply went out while consolidation was still blocked
        assertThat(release.getCount()).isEqualTo(1);
        assertThat(f.channel.texts(OutboundMessage.Kind.FINAL))
                .containsExactly("reply one", "reply two", "reply three");
        assertThat(consolidation.stats()).isEqualTo(new Consolidation.Stats(2, 1, 0, 0, 1));

        release.countDown();
        await().until(() -> consolidation.stats().done() == 2);
        assertThat(f.store.memory().all())
                .filteredOn(e -> e.category().equals(MemoryEntry.CORE))
                .extracting(MemoryEntry::content)
                .containsExactlyInAnyOrder(
                        "The user is planning a trip to Lisbon in May.",
                        "The user is learning Portuguese for the trip.");
        // three turns, two consolidations: the dropped turn never reached the model
        assertThat(p.requests()).hasSize(5);
        assertThat(p.requests()).filteredOn(r -> isConsolidation(r.messages())).hasSize(2);
    }
}

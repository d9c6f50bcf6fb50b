package dev.clawgate.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.bench.stages.ChunkStage;
import dev.clawgate.bench.stages.InboundStage;
import dev.clawgate.bench.stages.OutboxStage;
import dev.clawgate.bench.stages.PromptStage;
import dev.clawgate.bench.stages.RecallStage;
import dev.clawgate.channel.telegram.TelegramAccount;
import dev.clawgate.core.internal.outbound.DeliveryOutcome;
import dev.clawgate.core.model.ChatMessage;
import dev.clawgate.core.model.Role;
import dev.clawgate.core.prompt.MemoryLine;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.store.OutboxEntry;
import dev.clawgate.core.store.OutboxState;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Each per-stage benchmark the way JMH runs it, on small inputs: trial setup, iteration setup, one or two operations,
 * teardown. It checks that each operation does the stage's real work (at the store's boundary), that a writing stage's
 * next iteration starts from the seeded data again, and that the temporary folder is gone afterwards. The benchmarks
 * themselves never run in the build.
 */
class StagesBenchmarkSmokeTest {
    private final StagesBenchmark benchmark = new StagesBenchmark();

    // SPEC IN-4, IN-1: the message is committed with its dedupe key; the same platform id again is a duplicate
    @Test
    void inboundRecordCommitsOneMessageAndTheNextIterationStartsFromTheSeed() {
        InboundStage s = new InboundStage();
        s.seeded = 20;
        s.seed();
        try {
            s.restore();
            Optional<InboxRecord> recorded = benchmark.inboundRecord(s);

            assertThat(recorded).hasValueSatisfying(r -> assertThat(r.state()).isEqualTo(InboxState.RECEIVED));
            assertThat(s.record(recorded.get().message())).isEmpty();
            assertThat(s.db.store().inbox().counts()).containsEntry(InboxState.RECEIVED, 21L);

            s.restore();
            assertThat(s.db.store().inbox().counts()).containsEntry(InboxState.RECEIVED, 20L);
            assertThat(benchmark.inboundRecord(s)).isPresent();
        } finally {
            s.close();
        }
        assertThat(s.db.root()).doesNotExist();
    }

    // SPEC ME-2, ME-3: an exact question recalls its memory from the sender's scope, within the context's limits
    @Test
    void recallFindsTheQuestionsMemoryAmongTheScopesCopies() {
        RecallStage s = new RecallStage();
        s.memories = 300;
        s.seed();
        try {
            assertThat(s.memory.list(s.scopes.home(), 1_000)).hasSize(300);

            List<MemoryLine> lines = benchmark.recall(s);

            assertThat(lines).isNotEmpty().hasSizeLessThanOrEqualTo(s.settings.contextMaxEntries());
            assertThat(lines.getFirst().content()).startsWith("My daughter Mia starts school in Lisbon in September");
        } finally {
            s.close();
        }
        assertThat(s.db.root()).doesNotExist();
    }

    // SPEC SP-1, ME-4, HI-2: the system prompt with the memories first, then at most 50 messages ending in the current
    @Test
    void promptBuildGivesTheSystemPromptAndTheLoadedHistory() {
        PromptStage s = new PromptStage();
        s.seed();
        try {
            List<ChatMessage> messages = benchmark.promptBuild(s);

            assertThat(messages.getFirst().role()).isEqualTo(Role.SYSTEM);
            assertThat(messages.getFirst().content())
                    .contains("## Tools", "[Memory context]", "Reports go out as PDF, never as a spreadsheet");
            assertThat(messages).hasSizeBetween(40, 51);
            assertThat(messages.getLast().role()).isEqualTo(Role.USER);
            assertThat(messages.getLast().content())
                    .contains(s.current.message().text());
            for (int i = 2; i < messages.size(); i++)
                assertThat(messages.get(i).role())
                        .isNotEqualTo(messages.get(i - 1).role());
            assertThat(benchmark.promptBuild(s)).hasSameSizeAs(messages);
        } finally {
            s.close();
        }
        assertThat(s.db.root()).doesNotExist();
    }

    // SPEC OUT-1: the long reply becomes several messages, none over Telegram's limit
    @Test
    void chunkForTelegramCutsTheLongReplyUnderTheLimit() {
        ChunkStage s = new ChunkStage();
        s.build();

        List<String> chunks = benchmark.chunkForTelegram(s);

        assertThat(ChunkStage.TELEGRAM_LIMIT).isEqualTo(TelegramAccount.MAX_TEXT);
        assertThat(s.reply.length()).isGreaterThan(10_000);
        assertThat(chunks).hasSizeGreaterThanOrEqualTo(3);
        assertThat(chunks)
                .allSatisfy(c -> assertThat(s.limits.measure().units(c)).isLessThanOrEqualTo(TelegramAccount.MAX_TEXT));
    }

    // SPEC OUT-5, OUT-8: the entry is claimed, sent once and recorded sent with its receipt on the turn's reply
    @Test
    void outboxClaimAndAckSendsOnePendingReplyAndTheNextIterationStartsFromTheSeed() throws Exception {
        OutboxStage s = new OutboxStage();
        s.pending = 5;
        s.seed();
        try {
            s.restore();
            DeliveryOutcome outcome = benchmark.outboxClaimAndAck(s);

            assertThat(outcome).isInstanceOf(DeliveryOutcome.Sent.class);
            List<OutboxEntry> sent = s.db.store().outbox().byState(OutboxState.SENT);
            assertThat(sent)
                    .singleElement()
                    .satisfies(e -> assertThat(s.db.store().outbox().replyReceipts(e.turnId()))
                            .singleElement()
                            .satisfies(r -> assertThat(r.primaryId()).startsWith("p-")));
            assertThat(s.db.store().outbox().counts()).containsEntry(OutboxState.PENDING, 4L);

            s.restore();
            assertThat(s.db.store().outbox().counts())
                    .containsEntry(OutboxState.PENDING, 5L)
                    .containsEntry(OutboxState.SENT, 0L);
        } finally {
            s.close();
        }
        assertThat(s.db.root()).doesNotExist();
    }
}

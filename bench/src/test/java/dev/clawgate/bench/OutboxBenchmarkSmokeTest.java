package dev.clawgate.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.internal.outbound.DeliveryOutcome;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.store.OutboxState;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

/**
 * The outbox benchmark's harness: setup, a few operations, teardown; each operation is a reply through its whole
 * durable path.
 */
class OutboxBenchmarkSmokeTest {

    // SPEC OUT-5, IN-4: the turn ends with its intent committed, the intent is claimed, sent and acknowledged
    @Test
    void eachOperationEndsATurnAndSendsItsReplyThroughTheOutbox() throws Exception {
        OutboxBenchmark benchmark = new OutboxBenchmark();
        OutboxBenchmark.Sqlite s = new OutboxBenchmark.Sqlite();
        s.readyPerIteration = 5;
        s.open();
        try {
            s.recordTurns();
            assertThat(s.ready).hasSize(5);
            for (int i = 0; i < 3; i++)
                assertThat(benchmark.turnCommitSendAck8Threads(s)).isInstanceOf(DeliveryOutcome.Sent.class);

            assertThat(s.store.outbox().counts())
                    .containsEntry(OutboxState.SENT, 3L)
                    .containsEntry(OutboxState.PENDING, 0L)
                    .containsEntry(OutboxState.SENDING, 0L);
            assertThat(s.store.inbox().counts())
                    .containsEntry(InboxState.DONE, 3L)
                    .containsEntry(InboxState.RECEIVED, 2L);
            assertThat(s.store.outbox().byState(OutboxState.SENT)).allSatisfy(e -> {
                assertThat(e.draft().kind().name()).isEqualTo("FINAL");
                assertThat(s.store.outbox().replyReceipts(e.turnId()))
                        .singleElement()
                        .satisfies(r -> assertThat(r.primaryId()).startsWith("p-"));
            });
            assertThat(s.starved).hasValue(0);
        } finally {
            s.close();
        }
        assertThat(Files.exists(s.dir)).isFalse();
    }
}

package dev.clawgate.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.store.OutboundDraft;
import dev.clawgate.core.store.OutboxEntry;
import dev.clawgate.core.store.OutboxState;
import dev.clawgate.core.store.Store;
import dev.clawgate.store.Stores;
import dev.clawgate.testkit.openai.FakeOpenAiServer;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A restarted gateway finishes the outbox a dead process left behind (real SQLite store). */
class GatewayOutboxRecoveryTest {
    @TempDir
    Path dir;

    private static OutboxEntry committedReply(Store store, String id, String text) {
        InboundMessage m = new InboundMessage(
                id,
                "probe",
                null,
                "alice",
                null,
                "alice",
                null,
                null,
                ChatType.DIRECT,
                true,
                Instant.now(),
                "question " + id,
                List.of(),
                null);
        long turn = store.inbox()
                .record(m, SessionKey.of(m), null, Duration.ZERO)
                .orElseThrow()
                .id();
        return store.outbox()
                .completeTurnWithReply(
                        SessionKey.of(m),
                        turn,
                        text,
                        InboxState.DONE,
                        OutboundDraft.of(OutboundTarget.replyTo(m), text, OutboundMessage.Kind.FINAL))
                .orElseThrow();
    }

    @Test
    void startSendsPendingRepliesAndReportsInterruptedSendsWithoutResendingThem() throws Exception {
        // SPEC OUT-7: pending entries are sent at start; sending ones become unknown_after_send, not resent; OUT-12
        try (FakeOpenAiServer model = FakeOpenAiServer.start()) {
            ClawgateConfig cfg = GatewayHarness.config(dir, model.baseUrl(), null);
            OutboxEntry pending;
            OutboxEntry interrupted;
            try (Store before = Stores.open(null, cfg.gateway().dataDir())) {
                pending = committedReply(before, "m1", "reply committed, never sent");
                interrupted = committedReply(before, "m2", "reply cut mid-send");
                assertThat(before.outbox().claim(interrupted.id())).isTrue();
            }
            InboundBadInputTest.ProbeChannel probe = new InboundBadInputTest.ProbeChannel();
            try (Gateway g = Gateway.start(cfg, GatewayOptions.with(probe))) {
                assertThat(probe.sent).extracting(OutboundMessage::text).containsExactly("reply committed, never sent");
                assertThat(probe.sent.getFirst().turnId()).isEqualTo(pending.turnId());
                assertThat(g.store().outbox().counts())
                        .containsEntry(OutboxState.SENT, 1L)
                        .containsEntry(OutboxState.UNKNOWN_AFTER_SEND, 1L)
                        .containsEntry(OutboxState.PENDING, 0L)
                        .containsEntry(OutboxState.SENDING, 0L);
            }
            try (Gateway again = Gateway.start(cfg, GatewayOptions.with(probe))) {
                assertThat(probe.sent)
                        .as("nothing is sent twice across restarts")
                        .hasSize(1);
            }
        }
    }
}

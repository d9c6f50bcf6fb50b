package dev.clawgate.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.outbound.MessageReceipt;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.store.OutboundDraft;
import dev.clawgate.core.store.OutboxEntry;
import dev.clawgate.core.store.OutboxState;
import dev.clawgate.core.store.OutboxUpdate;
import dev.clawgate.core.store.Store;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code clawgate outbox}: the unknown sends are reported, and an operator can resend one (SPEC OUT-7). */
class OutboxCommandTest extends StoreCommandCase {
    /** A committed reply for a new turn, moved to {@code state}. */
    private long entry(String text, OutboxState state, String detail) {
        try (Store store = store()) {
            InboundMessage m = new InboundMessage(
                    "in-" + text,
                    "webhook",
                    "default",
                    "alice",
                    "Alice",
                    "chat-1",
                    null,
                    null,
                    ChatType.DIRECT,
                    true,
                    Instant.now(),
                    "question",
                    List.of(),
                    null);
            SessionKey session = SessionKey.of(m);
            long turn = store.inbox()
                    .record(m, session, null, Duration.ZERO)
                    .orElseThrow()
                    .id();
            OutboxEntry e = store.outbox()
                    .completeTurnWithReply(
                            session,
                            turn,
                            text,
                            InboxState.DONE,
                            OutboundDraft.of(OutboundTarget.replyTo(m), text, OutboundMessage.Kind.FINAL))
                    .orElseThrow();
            List<MessageReceipt> receipts = state == OutboxState.SENT ? List.of(MessageReceipt.of("p-1")) : List.of();
            if (state != OutboxState.PENDING)
                store.outbox().update(e.id(), new OutboxUpdate(state, receipts, detail, 0, null));
            return e.id();
        }
    }

    private OutboxState stateOf(long id) {
        try (Store store = store()) {
            return store.outbox().entry(id).orElseThrow().state();
        }
    }

    @Test
    void theSummaryCountsEveryStateAndListsUnknownSendsWithAHint() {
        // SPEC OUT-7: an unknown_after_send entry is reported in `clawgate outbox`
        entry("fine", OutboxState.SENT, null);
        long unknown = entry(
                "lost in the crash", OutboxState.UNKNOWN_AFTER_SEND, "process stopped during the send; not resent");

        CliRunner.Result r = CliRunner.run("outbox", "--config", config.toString());

        assertThat(r.exit()).isZero();
        assertThat(r.out())
                .containsPattern("sent\\s+1")
                .containsPattern("unknown_after_send\\s+1")
                .contains(unknown + "")
                .contains("process stopped during the send")
                .contains("clawgate outbox resend");
        assertThat(r.out()).doesNotContain("fine");
    }

    @Test
    void listFiltersByStateAndRefusesAnUnknownState() {
        // SPEC OUT-7
        entry("one", OutboxState.SENT, null);
        entry("two", OutboxState.FAILED, "permanent: HTTP 403");

        CliRunner.Result sent = CliRunner.run("outbox", "list", "--state", "failed", "--config", config.toString());
        assertThat(sent.out())
                .contains("failed")
                .contains("permanent: HTTP 403")
                .doesNotContain(" sent ");

        CliRunner.Result bad = CliRunner.run("outbox", "list", "--state", "lost", "--config", config.toString());
        assertThat(bad.exit()).isEqualTo(2);
        assertThat(bad.err()).contains("unknown outbox state 'lost'").contains("unknown_after_send");
    }

    @Test
    void resendPutsAnUnknownEntryBackToPendingAndRefusesASentOne() {
        // SPEC OUT-7: resending an unknown send is the operator's choice, never automatic
        long unknown = entry("maybe", OutboxState.UNKNOWN_AFTER_SEND, "crash");
        long sent = entry("done", OutboxState.SENT, null);

        CliRunner.Result ok = CliRunner.run("outbox", "resend", unknown + "", "--config", config.toString());
        assertThat(ok.exit()).isZero();
        assertThat(stateOf(unknown)).isEqualTo(OutboxState.PENDING);

        CliRunner.Result refused = CliRunner.run("outbox", "resend", sent + "", "--config", config.toString());
        assertThat(refused.exit()).isEqualTo(2);
        assertThat(refused.err()).contains("is sent").contains("only failed");
        assertThat(stateOf(sent)).isEqualTo(OutboxState.SENT);
    }
}

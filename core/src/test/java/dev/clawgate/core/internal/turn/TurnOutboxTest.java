package dev.clawgate.core.internal.turn;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.hook.SendingHook;
import dev.clawgate.core.internal.outbound.Outbox;
import dev.clawgate.core.internal.outbound.OutboxRecovery;
import dev.clawgate.core.internal.outbound.Pacer;
import dev.clawgate.core.outbound.Capability;
import dev.clawgate.core.outbound.DeliveryException;
import dev.clawgate.core.outbound.Durability;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.store.OutboundDraft;
import dev.clawgate.core.store.OutboxEntry;
import dev.clawgate.core.store.OutboxState;
import dev.clawgate.core.store.StoreException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The turn pipeline's final replies through the write-ahead outbox. */
class TurnOutboxTest {

    @TempDir
    Path workspace;

    @Test
    void aDurableChannelsFinalReplyIsOneOutboxEntryCommittedWithTheTurn() {
        // SPEC IN-4, OUT-5: done commits with the transcript message and the reply intent; then it is sent
        TurnFixture f = new TurnFixture(workspace, "test");
        f.provider("p", "m", true, false).text("the answer");
        InboxRecord r = f.record("alice", "question");

        f.run(r);

        assertThat(f.store.inbox().find(r.id()).orElseThrow().state()).isEqualTo(InboxState.DONE);
        assertThat(f.store.outbox().byState(OutboxState.values()))
                .singleElement()
                .satisfies(e -> {
                    assertThat(e.turnId()).isEqualTo(r.id());
                    assertThat(e.state()).isEqualTo(OutboxState.SENT);
                    assertThat(e.draft().text()).isEqualTo("the answer");
                    assertThat(e.draft().kind()).isEqualTo(OutboundMessage.Kind.FINAL);
                    assertThat(e.receiptId()).isEqualTo("m1");
                });
        assertThat(f.channel.texts(OutboundMessage.Kind.FINAL)).containsExactly("the answer");
    }

    @Test
    void aSecondCompletionOfTheSameTurnCreatesNoEntryAndSendsNothing() {
        // SPEC OUT-12: one final reply per turn, keyed by the turn id, also when the turn runs again
        TurnFixture f = new TurnFixture(workspace, "test");
        f.provider("p", "m", true, false).text("first").text("second");
        InboxRecord r = f.record("alice", "question");
        f.run(r);

        Optional<OutboxEntry> again = f.store
                .outbox()
                .completeTurnWithReply(
                        r.session(),
                        r.id(),
                        "x",
                        InboxState.DONE,
                        OutboundDraft.of(OutboundTarget.replyTo(r.message()), "duplicate", OutboundMessage.Kind.FINAL));
        f.run(r);

        assertThat(again).get().extracting(OutboxEntry::state).isEqualTo(OutboxState.SENT);
        assertThat(f.store.outbox().byState(OutboxState.values())).hasSize(1);
        assertThat(f.channel.texts(OutboundMessage.Kind.FINAL)).containsExactly("first");
    }

    @Test
    void aReplyThePlatformCouldNotTakeStaysPendingAndRecoverySendsItOnce() {
        // SPEC OUT-5, OUT-7: a committed reply is never lost: it waits in the outbox for the restart
        TurnFixture f = new TurnFixture(workspace, "test");
        f.provider("p", "m", true, false).text("kept");
        f.channel.failNext = new DeliveryException("HTTP 503", false, null);
        InboxRecord r = f.record("alice", "question");
        f.run(r);
        assertThat(f.store.outbox().byState(OutboxState.PENDING))
                .singleElement()
                .extracting(OutboxEntry::attempts)
                .isEqualTo(1);
        assertThat(f.channel.sent).isEmpty();

        // the failed send is due again after its backoff (5 s ± jitter)
        OutboxRecovery.Result rec = new Outbox(f.store, Clock.offset(Clock.systemUTC(), Duration.ofMinutes(1)))
                .recover(name -> Optional.of(f.channel.messageAdapter()), Pacer.NONE);

        assertThat(rec.sent()).isEqualTo(1);
        assertThat(f.channel.texts(OutboundMessage.Kind.FINAL)).containsExactly("kept");
        assertThat(f.store.outbox().counts())
                .containsEntry(OutboxState.SENT, 1L)
                .containsEntry(OutboxState.PENDING, 0L);
    }

    @Test
    void aConnectionBoundChannelSendsDirectlyWithoutAnOutboxEntry() {
        // SPEC OUT-6: durability disabled for terminal and API channels
        TurnFixture f = new TurnFixture(workspace, "api");
        f.channel.durable = false;
        f.provider("p", "m", true, false).text("direct");
        InboxRecord r = f.record("alice", "question");

        f.run(r);

        assertThat(f.store.outbox().byState(OutboxState.values())).isEmpty();
        assertThat(f.channel.texts(OutboundMessage.Kind.FINAL)).containsExactly("direct");
        assertThat(f.store.inbox().find(r.id()).orElseThrow().state()).isEqualTo(InboxState.DONE);
    }

    @Test
    void aSuppressedOrBlankedReplyIsRecordedSuppressedWithItsStableReason() {
        // SPEC OUT-5, RP-1: the hook runs on the delivery path; its decision is recorded with the intent
        TurnFixture f = new TurnFixture(workspace, "test");
        f.provider("p", "m", true, false).text("hidden").text("blanked");
        f.sendingHook = (text, target) ->
                text.equals("hidden") ? new SendingHook.Suppress("policy") : new SendingHook.Send("  ");
        InboxRecord first = f.record("alice", "one");
        InboxRecord second = f.record("bob", "two");

        f.run(first);
        f.run(second);

        assertThat(f.store.outbox().byState(OutboxState.values()))
                .extracting(OutboxEntry::state, OutboxEntry::detail)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(
                                OutboxState.SUPPRESSED, "cancelled_by_message_sending_hook: policy"),
                        org.assertj.core.groups.Tuple.tuple(
                                OutboxState.SUPPRESSED, "empty_after_message_sending_hook"));
        assertThat(f.channel.sent).isEmpty();
        assertThat(f.store.inbox().find(first.id()).orElseThrow().state()).isEqualTo(InboxState.DONE);
        assertThat(f.store.inbox().find(second.id()).orElseThrow().state()).isEqualTo(InboxState.DONE);
    }

    private static dev.clawgate.core.config.OutboxSettings durability(Durability d) {
        var o = dev.clawgate.core.config.OutboxSettings.defaults();
        return new dev.clawgate.core.config.OutboxSettings(
                d, o.maxAge(), o.resendUnknown(), o.replayPerSecond(), o.retries());
    }

    @Test
    void bestEffortSendsTheReplyDirectlyWhenTheOutboxCannotBeWritten() {
        // SPEC OUT-6 best_effort: a store that cannot take the intent does not cost the reply
        TurnFixture f = new TurnFixture(workspace, "test");
        f.provider("p", "m", true, false).text("still answered");
        f.store.failOutboxWrites = new StoreException("disk full", new java.io.IOException("No space left on device"));
        f.run(f.record("alice", "question"));
        assertThat(f.channel.texts(OutboundMessage.Kind.FINAL)).containsExactly("still answered");
        assertThat(f.store.outbox().byState(OutboxState.values())).isEmpty();
    }

    @Test
    void requiredSendsNothingWhenTheOutboxCannotRecordTheSend() {
        // SPEC OUT-6 required: fail before any platform I/O
        TurnFixture f = new TurnFixture(workspace, "test");
        f.outbox = durability(Durability.REQUIRED);
        f.channel.capabilities = EnumSet.of(
                Capability.TEXT,
                Capability.REPLY_TO,
                Capability.MESSAGE_SENDING_HOOKS,
                Capability.RECONCILE_UNKNOWN_SEND);
        f.provider("p", "m", true, false).text("never sent");
        f.store.failOutboxWrites = new StoreException("disk full", new java.io.IOException("No space left on device"));
        InboxRecord r = f.record("alice", "question");
        try {
            f.run(r);
        } catch (StoreException expected) {
            // the turn cannot end either: it stays unfinished and runs again after a restart
        }
        assertThat(f.channel.sent).isEmpty();
        assertThat(f.store.inbox().find(r.id()).orElseThrow().state().isFinal()).isFalse();
    }

    @Test
    void requiredOnAChannelThatCannotReconcileIsUnsupportedAndWritesNothing() {
        // SPEC OUT-5 unsupported: decided before an intent is written: nothing written, nothing sent
        TurnFixture f = new TurnFixture(workspace, "test");
        f.outbox = durability(Durability.REQUIRED);
        f.provider("p", "m", true, false).text("cannot go");
        InboxRecord r = f.record("alice", "question");
        f.run(r);
        assertThat(f.channel.sent).isEmpty();
        assertThat(f.store.outbox().byState(OutboxState.values())).isEmpty();
        assertThat(f.store.inbox().find(r.id()).orElseThrow().state()).isEqualTo(InboxState.DONE);
    }

    @Test
    void requiredOnAChannelThatReconcilesGoesThroughTheOutbox() {
        // SPEC OUT-6 required
        TurnFixture f = new TurnFixture(workspace, "test");
        f.outbox = durability(Durability.REQUIRED);
        f.channel.capabilities = EnumSet.of(
                Capability.TEXT,
                Capability.REPLY_TO,
                Capability.MESSAGE_SENDING_HOOKS,
                Capability.RECONCILE_UNKNOWN_SEND);
        f.provider("p", "m", true, false).text("kept");
        f.run(f.record("alice", "question"));
        assertThat(f.channel.texts(OutboundMessage.Kind.FINAL)).containsExactly("kept");
        assertThat(f.store.outbox().byState(OutboxState.SENT)).hasSize(1);
    }
}

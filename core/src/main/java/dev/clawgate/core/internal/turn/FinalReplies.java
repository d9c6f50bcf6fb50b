package dev.clawgate.core.internal.turn;

import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.failpoint.Failpoints;
import dev.clawgate.core.internal.outbound.Capabilities;
import dev.clawgate.core.internal.outbound.DeliveryOutcome;
import dev.clawgate.core.internal.outbound.SuppressionReason;
import dev.clawgate.core.outbound.Durability;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.TurnOutcome;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.store.OutboundDraft;
import dev.clawgate.core.store.OutboxEntry;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ends a turn with its one reply (SPEC IN-4, OUT-5, OUT-6, OUT-12): the final state, the assistant message and the
 * delivery intent commit in one transaction, then the outbox sends it. Connection- bound channels (durability
 * {@code disabled}) commit the turn and send directly. Under {@code best_effort} a store that cannot take the intent
 * does not cost the reply: it is sent directly; under {@code required} nothing is sent.
 */
final class FinalReplies {
    private static final Logger log = LoggerFactory.getLogger(FinalReplies.class);
    private final TurnServices s;

    FinalReplies(TurnServices s) {
        this.s = s;
    }

    /** The level this adapter's replies get: its own ceiling, else {@code [outbox] durability}. */
    Durability durability(MessageAdapter adapter) {
        return adapter.durability() == Durability.DISABLED
                ? Durability.DISABLED
                : s.config().get().outbox().durability();
    }

    /**
     * Commits the turn's current record in {@code finalState} with {@code stored} as its assistant message (null: none)
     * and delivers {@code reply} (a final reply or an error) at most once. {@code cancel} is the run's delivery token
     * ({@link dev.clawgate.core.internal.outbound.RunDeliveries}): an abort before the reply reached the platform
     * suppresses it (SPEC OUT-11). The final state goes into the turn's {@link FinalStates} once the store has it.
     */
    TurnOutcome commitAndSend(
            Turn turn, OutboundMessage reply, String stored, InboxState finalState, CancelToken cancel) {
        InboxRecord current = turn.current();
        MessageAdapter adapter = turn.adapter();
        Durability durability = durability(adapter);
        if (durability == Durability.DISABLED) {
            s.store().transcripts().completeTurn(current.session(), current.id(), stored, finalState);
            turn.finish(current.id(), finalState);
            Failpoints.hit(Failpoints.TURN_AFTER_REPLY_COMMIT);
            return outcome(s.delivery().deliver(reply, adapter, cancel), reply.kind());
        }
        Capabilities.Fit fit = Capabilities.fit(List.of(reply), adapter.capabilities(), durability);
        if (!fit.fits()) {
            // SPEC OUT-5 unsupported: decided before any intent, so nothing is written and nothing sent
            log.error(
                    "turn {}: the {} channel lacks {} that its reply needs at durability {}; nothing sent",
                    current.id(),
                    reply.target().channel(),
                    fit.missing(),
                    durability.wireName());
            s.store().transcripts().completeTurn(current.session(), current.id(), stored, finalState);
            turn.finish(current.id(), finalState);
            return TurnOutcome.NO_REPLY;
        }
        Optional<OutboxEntry> entry;
        try {
            entry = s.store()
                    .outbox()
                    .completeTurnWithReply(
                            current.session(), current.id(), stored, finalState, OutboundDraft.of(reply));
        } catch (RuntimeException storeDown) {
            if (durability == Durability.REQUIRED) {
                log.error(
                        "turn {}: the outbox could not record the reply and durability is required; nothing sent",
                        current.id(),
                        storeDown);
                throw storeDown;
            }
            log.warn(
                    "turn {}: the outbox could not record the reply ({}); best_effort sends it directly",
                    current.id(),
                    storeDown.toString());
            // decided, though the store could not keep it: best_effort runs the record again after a restart
            turn.finish(current.id(), finalState);
            return outcome(s.delivery().deliver(reply, adapter, cancel), reply.kind());
        }
        turn.finish(current.id(), finalState);
        Failpoints.hit(Failpoints.TURN_AFTER_REPLY_COMMIT);
        if (entry.isEmpty()) {
            log.info("turn {} was already ended elsewhere; its reply is not sent", current.id());
            return TurnOutcome.NO_REPLY;
        }
        // SPEC OUT-11: a /stop or interrupt from here until the first payload is out suppresses the committed reply
        return outcome(s.outbox().deliver(entry.get(), adapter, cancel), reply.kind());
    }

    private static TurnOutcome outcome(DeliveryOutcome o, OutboundMessage.Kind kind) {
        if (kind == OutboundMessage.Kind.ERROR) return TurnOutcome.FAILED;
        return switch (o) {
            case DeliveryOutcome.Sent sent -> TurnOutcome.REPLIED;
            case DeliveryOutcome.RetryScheduled retry -> TurnOutcome.REPLIED;
            case DeliveryOutcome.UnknownAfterSend unknown -> TurnOutcome.REPLIED;
            case DeliveryOutcome.NotClaimed other -> TurnOutcome.REPLIED;
            case DeliveryOutcome.PartialFailed partial -> TurnOutcome.FAILED;
            case DeliveryOutcome.Failed failed -> TurnOutcome.FAILED;
            case DeliveryOutcome.Suppressed suppressed
            when suppressed.reason() == SuppressionReason.RUN_CANCELLED -> TurnOutcome.CANCELLED;
            case DeliveryOutcome.Suppressed suppressed -> TurnOutcome.NO_REPLY;
            case DeliveryOutcome.Unsupported unsupported -> TurnOutcome.NO_REPLY;
        };
    }
}

package dev.clawgate.core.internal.turn;

import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.TurnOutcome;
import dev.clawgate.core.provider.ProviderException;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.run.RunHandle;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.InboxState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a turn ends when it does not end with its answer: a model error (SPEC HI-6, vision rolled back), a failure, a
 * timeout or a cancel. A shutdown leaves the turn for the restart to run again.
 */
final class TurnEndings {
    private static final Logger log = LoggerFactory.getLogger(TurnPipeline.class);

    private final TurnServices s;
    private final Replies replies;
    private final FinalReplies finalReplies;

    TurnEndings(TurnServices s, Replies replies, FinalReplies finalReplies) {
        this.s = s;
        this.replies = replies;
        this.finalReplies = finalReplies;
    }

    TurnOutcome providerFailed(ProviderException e, Turn turn) {
        log.warn("turn {}: model call failed: {} {}", turn.id(), e.kind(), UserFacingError.redact(e.getMessage()));
        if (e.kind() == ProviderException.Kind.VISION_UNSUPPORTED) {
            for (InboxRecord r : turn.batch()) s.store().transcripts().removeUserMessage(turn.session(), r.id());
            s.store().inbox().mark(turn.id(), InboxState.FAILED, "vision unsupported; turn rolled back");
            turn.finish(turn.id(), InboxState.FAILED);
            replies.send(
                    turn.adapter(),
                    turn.target(),
                    UserFacingError.of(e),
                    OutboundMessage.Kind.ERROR,
                    turn.id(),
                    turn.cancel());
            return TurnOutcome.FAILED;
        }
        // HI-6: the error turn is committed with its reply's intent, so a crash cannot lose or repeat it
        return failWith(turn, UserFacingError.of(e), "[Task failed]", s.outbox().cancelOf(turn.id()));
    }

    void failTurn(Turn turn, RuntimeException e) {
        failWith(turn, UserFacingError.of(e), "[Task failed]", s.outbox().cancelOf(turn.id()));
    }

    /** Ends the turn {@code FAILED} with an error reply, and {@code stored} in the transcript unless stateless. */
    private TurnOutcome failWith(Turn turn, String text, String stored, CancelToken cancel) {
        if (turn.finals().finished(turn.id())) {
            // the turn had its final state (and its reply) before it failed: one final reply per turn (SPEC IN-4)
            log.warn(
                    "turn {} failed after it ended {}; no error reply",
                    turn.id(),
                    turn.finals().of(turn.id()));
            return TurnOutcome.NO_REPLY;
        }
        OutboundMessage reply = new OutboundMessage(turn.target(), text, OutboundMessage.Kind.ERROR, turn.id());
        return finalReplies.commitAndSend(turn, reply, turn.stateless() ? null : stored, InboxState.FAILED, cancel);
    }

    TurnOutcome cancelled(Turn turn, String reason) {
        if (RunHandle.REASON_SHUTDOWN.equals(reason)) {
            log.info("turn {} cut by shutdown; it runs again after the restart", turn.id());
            return TurnOutcome.CANCELLED;
        }
        if (RunHandle.REASON_TIMEOUT.equals(reason)) {
            long secs = turn.config().agent().turnBudgetSecs();
            failWith(
                    turn,
                    "⏱️ That took too long (over " + secs + " s), so I stopped." + " Please try again or ask for less.",
                    "[Task timed out]",
                    CancelToken.none());
            return TurnOutcome.TIMED_OUT;
        }
        for (InboxRecord r : turn.batch()) {
            // a record merged or answered before the cancel keeps that state
            if (turn.finals().finished(r.id())) continue;
            s.store().inbox().mark(r.id(), InboxState.CANCELLED, reason);
            turn.finish(r.id(), InboxState.CANCELLED);
        }
        log.info("turn {} cancelled: {}", turn.id(), reason);
        return TurnOutcome.CANCELLED;
    }
}

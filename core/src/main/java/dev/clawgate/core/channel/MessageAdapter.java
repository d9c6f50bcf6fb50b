package dev.clawgate.core.channel;

import dev.clawgate.core.outbound.Capability;
import dev.clawgate.core.outbound.DeliveryException;
import dev.clawgate.core.outbound.Durability;
import dev.clawgate.core.outbound.MessageReceipt;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.outbound.Reconciliation;
import dev.clawgate.core.outbound.ReplyStream;
import dev.clawgate.core.outbound.TurnOutcome;
import dev.clawgate.core.render.ChunkLimits;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.store.InboxState;
import java.util.List;
import java.util.Set;

/**
 * A channel's outbound side (SPEC OUT-4). The turn pipeline reaches the platform only through it, and only through the
 * delivery path that checks its declared {@link #capabilities()}.
 */
public interface MessageAdapter {

    /**
     * Sends one payload (a text within {@link #textLimit()}, media, or both); returns once the platform accepted it.
     * Throws {@link DeliveryException} with the right kind: transient, permanent, or ambiguous when the request may
     * have reached the platform. {@code cancel} (the run's abort, SPEC OUT-11) must reach media loading and the
     * platform request: an abort before anything reached the platform throws
     * {@link dev.clawgate.core.run.CancelledException}; one once the request was on its way is an ambiguous
     * {@link DeliveryException}.
     */
    MessageReceipt send(OutboundMessage message, CancelToken cancel) throws DeliveryException;

    /** What this adapter really preserves; each one is proven by its contract test. */
    default Set<Capability> capabilities() {
        return Set.of(Capability.TEXT, Capability.MESSAGE_SENDING_HOOKS);
    }

    /**
     * Whether the stored assistant turn is prefixed {@code [Used tools: a, b]} (SPEC RP-3); a channel whose transcript
     * must hold only the text the user saw says false.
     */
    default boolean toolSummaryInTranscript() {
        return true;
    }

    /** The platform's text limit, as the platform counts it (SPEC OUT-1). */
    default int textLimit() {
        return 4000;
    }

    /**
     * How a reply is cut for this platform (SPEC OUT-1): by default {@link #textLimit()} UTF-16 units; a platform
     * counting bytes (IRC) or lines (Discord) says so here.
     */
    default ChunkLimits chunkLimits() {
        return ChunkLimits.of(Math.max(ChunkLimits.MIN_UNITS, textLimit()));
    }

    /**
     * A stream for the reply to {@code target} while it is generated; {@link ReplyStream#NONE} when the channel does
     * not stream.
     */
    default ReplyStream openStream(OutboundTarget target) {
        return ReplyStream.NONE;
    }

    /**
     * The most this channel's final replies can be kept (SPEC OUT-6): {@link Durability#DISABLED} only for
     * connection-bound channels (terminal, API), whose replies cannot outlive the connection.
     */
    default Durability durability() {
        return Durability.BEST_EFFORT;
    }

    /**
     * Asks the platform whether {@code message} (found by its {@link OutboundMessage#idempotencyKey()}) arrived before
     * a crash. Only adapters declaring {@link Capability#RECONCILE_UNKNOWN_SEND} are asked.
     */
    default Reconciliation reconcileUnknownSend(OutboundMessage message, CancelToken cancel) throws DeliveryException {
        return new Reconciliation.Unknown("this channel cannot look up sent messages");
    }

    /**
     * Runs once after the platform accepted {@code message} (SPEC OUT-10); only with
     * {@link Capability#AFTER_SEND_SUCCESS}.
     */
    default void afterSendSuccess(OutboundMessage message, MessageReceipt receipt) {}

    /**
     * Runs once after the delivery is acknowledged in the outbox (SPEC OUT-10); only with
     * {@link Capability#AFTER_COMMIT}.
     */
    default void afterCommit(OutboundMessage message, List<MessageReceipt> receipts) {}

    /**
     * SPEC RP-5: a message for {@code target} (its {@code inReplyToMessageId}) was recorded and admitted; it may still
     * wait for its turn (queued, debounced). A channel with ack reactions shows receipt here (👀). Called once per
     * admitted message, on the dispatcher's thread: it must not block.
     */
    default void received(OutboundTarget target) {}

    /**
     * SPEC RP-5: the message for {@code target} (its {@code inReplyToMessageId}), shown as {@link #received}, reached
     * its final inbox state (IN-4); for a message merged into a turn, that turn's state. Done takes ✅, failed or
     * expired ⚠️, any other state (cancelled, dropped, denied) takes the receipt away. Told once per received message,
     * possibly long after it; it must not block.
     */
    default void settled(OutboundTarget target, InboxState state) {}

    /**
     * Shows the platform's typing indicator for {@code target} once (SPEC RP-5). The turn pipeline
     * ({@code TypingRefresh}) calls it when a turn starts working and every 4 s until its reply goes out, so a channel
     * keeps no timer of its own; it is called on the turn's timer and must not block. A platform without one ignores
     * it.
     */
    default void typing(OutboundTarget target) {}

    /**
     * SPEC CH-10: the tokens the turn's model calls used, summed (0 when the provider reported none); told once, before
     * {@link #turnEnded}, when the agent loop finished. Connection-bound channels report it to their caller.
     */
    default void turnUsage(OutboundTarget target, long turnId, dev.clawgate.core.provider.Usage usage) {}

    /**
     * SPEC CH-10 stateless call: the conversation the request for {@code target} carried before its last user message
     * (system messages included), used for its turn instead of the session's stored history; such a turn writes no
     * history, memory or transcript. Empty (the default): the gateway owns the history.
     */
    default java.util.Optional<List<dev.clawgate.core.model.ChatMessage>> carriedConversation(OutboundTarget target) {
        return java.util.Optional.empty();
    }

    /** Told once when a turn ends, whatever the outcome: connection-bound channels finish their exchange here. */
    default void turnEnded(OutboundTarget target, long turnId, TurnOutcome outcome) {}
}

package dev.clawgate.core.internal.turn;

import dev.clawgate.core.channel.Channel;
import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.internal.outbound.Capabilities;
import dev.clawgate.core.internal.outbound.DeliveryOutcome;
import dev.clawgate.core.outbound.Durability;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.outbound.SendOptions;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.store.OutboundDraft;
import dev.clawgate.core.store.OutboxEntry;
import dev.clawgate.core.tool.MessageSender;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * {@code message_send} bound to one turn (SPEC AG-5): each message is an outbox entry of the turn, keyed by its target
 * and text, so a re-run of the turn after a crash that sends the same message adds nothing (SPEC OUT-12), and
 * delivered, retried and reported like a reply (SPEC OUT-5..OUT-7).
 */
final class TurnMessages implements MessageSender {
    private final TurnServices s;
    private final FinalReplies finals;
    private final long turnId;
    private final OutboundTarget here;
    private final CancelToken cancel;

    TurnMessages(TurnServices s, FinalReplies finals, long turnId, OutboundTarget here, CancelToken cancel) {
        this.s = s;
        this.finals = finals;
        this.turnId = turnId;
        this.here = here;
        this.cancel = cancel;
    }

    @Override
    public String send(String channel, String to, String text, String payload) {
        if (text == null || text.isBlank()) throw new IllegalArgumentException("text is empty; nothing to send");
        String name = channel == null || channel.isBlank() ? here.channel() : channel.strip();
        Channel ch = s.channels()
                .apply(name)
                .orElseThrow(() -> new IllegalArgumentException("there is no channel '" + name + "' in this gateway"));
        OutboundTarget target;
        if (to == null || to.isBlank()) {
            if (!name.equals(here.channel()))
                throw new IllegalArgumentException("name the chat with 'to' when sending on another channel");
            target = new OutboundTarget(here.channel(), here.account(), here.replyTarget(), here.threadId(), null);
        } else {
            target = new OutboundTarget(
                    name, name.equals(here.channel()) ? here.account() : "default", to.strip(), null, null);
        }
        cancel.throwIfCancelled();
        MessageAdapter adapter = ch.messageAdapter();
        String key = sendKey(target, text, payload);
        OutboundMessage message = new OutboundMessage(
                target, text, OutboundMessage.Kind.SEND, turnId, List.of(), SendOptions.DEFAULT, 0, key, payload);
        Durability durability = finals.durability(adapter);
        DeliveryOutcome outcome;
        if (durability == Durability.DISABLED) {
            outcome = s.delivery().deliver(message, adapter, cancel);
        } else {
            Capabilities.Fit fit = Capabilities.fit(List.of(message), adapter.capabilities(), durability);
            if (!fit.fits()) {
                // SPEC OUT-5 unsupported: decided before any intent, so nothing is written and nothing sent
                outcome = new DeliveryOutcome.Unsupported(fit.missing());
            } else {
                OutboxEntry entry = s.store().outbox().enqueue(turnId, OutboundDraft.send(target, text, key, payload));
                outcome = s.outbox().deliver(entry, adapter, cancel);
            }
        }
        return describe(outcome, name, target.replyTarget());
    }

    static String sendKey(OutboundTarget target, String text, String payload) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            byte[] digest = sha.digest((target.channel() + "\n" + target.replyTarget() + "\n" + target.threadId() + "\n"
                            + text + (payload == null ? "" : "\n" + payload))
                    .getBytes(StandardCharsets.UTF_8));
            return "send-" + HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    private static String describe(DeliveryOutcome outcome, String channel, String to) {
        String where = channel + ":" + to;
        return switch (outcome) {
            case DeliveryOutcome.Sent sent ->
                "sent to " + where + " (message id " + sent.receipts().get(0).primaryId() + ")";
            case DeliveryOutcome.NotClaimed n -> "already sent to " + where + "; not sent again";
            case DeliveryOutcome.RetryScheduled r ->
                "the platform did not take it yet (" + r.failure() + "); it is retried automatically";
            case DeliveryOutcome.UnknownAfterSend u ->
                "sent to " + where + ", but the platform did not confirm it (" + u.why() + ")";
            case DeliveryOutcome.Suppressed sup -> "not sent: " + sup.reason().wireName();
            case DeliveryOutcome.PartialFailed p -> "partly sent to " + where + ", then failed: " + p.failure();
            case DeliveryOutcome.Failed f -> "not sent: " + f.failure();
            case DeliveryOutcome.Unsupported u ->
                "not sent: " + channel + " cannot carry this message (it lacks "
                        + String.join(
                                ", ",
                                u.missing().stream()
                                        .map(dev.clawgate.core.outbound.Capability::specName)
                                        .sorted()
                                        .toList())
                        + ")";
        };
    }
}

package dev.clawgate.core.internal.turn;

import dev.clawgate.core.config.ChannelOutput;
import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.internal.agent.ModelRoute;
import dev.clawgate.core.internal.prompt.IdentityName;
import dev.clawgate.core.internal.render.ResponsePrefix;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.outbound.SendOptions;
import dev.clawgate.core.render.ReplyToMode;
import java.util.List;

/**
 * How one turn's messages are shaped for its channel (SPEC OUT-3): the rendered response prefix the turn's first
 * message carries, and which of the turn's messages (numbered from 0 in the order they are sent: streamed blocks, then
 * the final reply's parts) quote the inbound message.
 *
 * @param prefix the rendered prefix, "" for none
 * @param mode {@code channels.<ch>.reply_to_mode}, or its default for the chat type
 * @param debouncedBatch whether the turn answers several inbound messages at once
 */
record ReplyShape(String prefix, ReplyToMode mode, boolean debouncedBatch) {

    /**
     * The shape of a turn answering {@code batchSize} messages, the last being {@code current}, with {@code route}'s
     * model.
     */
    static ReplyShape of(ClawgateConfig config, InboundMessage current, int batchSize, ModelRoute route) {
        ChannelOutput out = config.channel(current.channel()).output();
        String template = ResponsePrefix.resolve(
                config.responsePrefix(), out.responsePrefix(), out.accountPrefix(current.account()));
        String prefix = template.isEmpty()
                ? ""
                : ResponsePrefix.render(
                        template,
                        route == null ? null : route.model(),
                        route == null ? null : route.provider().name(),
                        IdentityName.read(config.agent().workspace()));
        return new ReplyShape(prefix, out.replyToModeFor(current.chatType()), batchSize > 1);
    }

    /** No prefix, and every message quotes the inbound one: how replies went before OUT-3 was configurable. */
    static ReplyShape plain() {
        return new ReplyShape("", ReplyToMode.ALL, false);
    }

    /** {@code text} as the turn's {@code index}-th message shows it: the prefix goes on the first only. */
    String text(int index, String text) {
        return index == 0 && !text.isBlank() ? ResponsePrefix.apply(prefix, text) : text;
    }

    /** The options of the turn's {@code index}-th message, sent on its own (a streamed block). */
    SendOptions options(int index) {
        return SendOptions.threaded(mode.repliesTo(index, debouncedBatch) ? ReplyToMode.ALL : ReplyToMode.OFF);
    }

    /**
     * The turn's final reply of {@code text}, after {@code alreadySent} of the turn's messages went out as blocks: the
     * prefix if it is the first, and its parts threaded as the rest of the turn.
     */
    OutboundMessage finalReply(OutboundTarget target, String text, long turnId, int alreadySent) {
        return new OutboundMessage(
                target,
                text(alreadySent, text),
                OutboundMessage.Kind.FINAL,
                turnId,
                List.of(),
                SendOptions.threaded(mode.rest(alreadySent, debouncedBatch)),
                0,
                "");
    }
}

package dev.clawgate.core.internal.outbound;

import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.outbound.MessageReceipt;
import dev.clawgate.core.outbound.OutboundMessage;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The adapter's hooks after a send (SPEC OUT-10): a hook that breaks is logged; the send itself stands. */
final class AfterSendHooks {
    private static final Logger log = LoggerFactory.getLogger(AfterSendHooks.class);

    private AfterSendHooks() {}

    static void afterSendSuccess(MessageAdapter adapter, OutboundMessage part, MessageReceipt receipt) {
        try {
            adapter.afterSendSuccess(part, receipt);
        } catch (RuntimeException e) {
            log.warn(
                    "afterSendSuccess of {} failed; the send itself stands",
                    part.target().channel(),
                    e);
        }
    }

    static void afterCommit(MessageAdapter adapter, OutboundMessage reply, List<MessageReceipt> receipts) {
        try {
            adapter.afterCommit(reply, List.copyOf(receipts));
        } catch (RuntimeException e) {
            log.warn(
                    "afterCommit of {} failed; the send itself stands",
                    reply.target().channel(),
                    e);
        }
    }
}

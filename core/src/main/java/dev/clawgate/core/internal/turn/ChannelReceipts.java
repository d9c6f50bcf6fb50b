package dev.clawgate.core.internal.turn;

import dev.clawgate.core.channel.Channel;
import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.internal.run.ReceiptListener;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.run.Scheduler;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.InboxState;
import java.util.Optional;
import java.util.function.Function;

/**
 * The receipts of SPEC RP-5 shown through each message's channel: received (👀) when the dispatcher admits a message,
 * settled (✅ / ⚠️ / removed) with its final inbox state, and the typing indicator while its turn works. The dispatcher
 * holds it as its {@link ReceiptListener}; the turn asks it for typing.
 */
final class ChannelReceipts implements ReceiptListener {
    private final Function<String, Optional<Channel>> channels;
    private final Scheduler scheduler;

    /**
     * @param channels the running channel of a name
     * @param scheduler the turn timer the typing refresh runs on
     */
    public ChannelReceipts(Function<String, Optional<Channel>> channels, Scheduler scheduler) {
        this.channels = channels;
        this.scheduler = scheduler;
    }

    /** The receipts of {@code services}' channels, on its timer. */
    public static ChannelReceipts of(TurnServices services) {
        return new ChannelReceipts(services.channels(), services.scheduler());
    }

    @Override
    public void received(InboxRecord record) {
        adapter(record).ifPresent(a -> a.received(OutboundTarget.replyTo(record.message())));
    }

    @Override
    public void settled(InboxRecord record, InboxState state) {
        adapter(record).ifPresent(a -> a.settled(OutboundTarget.replyTo(record.message()), state));
    }

    /** Typing for {@code target} on {@code adapter} at once and every 4 s until the returned refresh is stopped. */
    TypingRefresh typing(MessageAdapter adapter, OutboundTarget target) {
        return TypingRefresh.start(scheduler, adapter, target);
    }

    private Optional<MessageAdapter> adapter(InboxRecord record) {
        return channels.apply(record.message().channel()).map(Channel::messageAdapter);
    }
}

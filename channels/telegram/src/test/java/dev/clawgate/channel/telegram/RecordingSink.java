package dev.clawgate.channel.telegram;

import dev.clawgate.core.channel.InboundSink;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.store.UnreadableInbound;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A sink that keeps what the channel handed it: messages it recorded and updates it could not read. */
final class RecordingSink implements InboundSink {
    final List<InboundMessage> accepted = new CopyOnWriteArrayList<>();
    final List<UnreadableInbound> unreadable = new CopyOnWriteArrayList<>();

    @Override
    public Acceptance accept(InboundMessage message) {
        accepted.add(message);
        return Acceptance.recorded(accepted.size());
    }

    @Override
    public void unreadable(UnreadableInbound update) {
        unreadable.add(update);
    }

    List<String> texts() {
        return accepted.stream().map(InboundMessage::text).toList();
    }
}

package dev.clawgate.server.cluster;

import dev.clawgate.core.channel.InboundSink;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.store.StoreException;
import dev.clawgate.core.store.UnreadableInbound;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * The inbox as an elected listener's sink (SPEC OP-2, IN-4): before a message is recorded, the lease of the listener it
 * came from (its channel's, or its account's when the channel is elected account by account) must still be this node's
 * under the fence it won, checked in the database. When it is not (this node was paused past its lease and another took
 * over), the message is refused as a store failure: nothing is recorded and the channel does not acknowledge it, so the
 * platform hands it to the new listener.
 */
final class FencedSink implements InboundSink {
    private final InboundSink inbox;
    private final ListenerElection election;
    private final dev.clawgate.core.store.ClusterBook book;
    private final BooleanSupplier alive;

    FencedSink(
            InboundSink inbox,
            ListenerElection election,
            dev.clawgate.core.store.ClusterBook book,
            BooleanSupplier alive) {
        this.inbox = inbox;
        this.election = election;
        this.book = book;
        this.alive = alive;
    }

    @Override
    public Acceptance accept(InboundMessage message) {
        check(message.channel(), message.account());
        return inbox.accept(message);
    }

    @Override
    public Optional<InboxState> recordState(long inboxId) {
        return inbox.recordState(inboxId);
    }

    @Override
    public void unreadable(UnreadableInbound update) {
        check(update.channel(), update.account());
        inbox.unreadable(update);
    }

    private void check(String channel, String account) {
        if (!alive.getAsBoolean()) throw new StoreException("this node lost its cluster lease; not recording", null);
        ListenerElection.Listener listener = election.listenerOf(channel, account);
        if (listener == null) return;
        Long fence = election.fence(listener);
        if (fence == null || !book.holdsListener(listener.key(), fence)) {
            throw new StoreException(
                    "the " + listener.key() + " listener lease moved to another node; not recording", null);
        }
    }
}

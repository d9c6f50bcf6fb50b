package dev.clawgate.core.internal.turn;

import dev.clawgate.core.channel.Channel;
import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.internal.run.StopHandler;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.outbound.TurnOutcome;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.InboxState;
import java.util.Optional;

/** Confirms a {@code /stop} to the user (SPEC DI-5): a notice, never a final reply. */
public final class StopReplies implements StopHandler {
    private final TurnServices s;
    private final Replies replies;

    public StopReplies(TurnServices services) {
        this.s = services;
        this.replies = new Replies(services);
    }

    @Override
    public void stopped(InboxRecord stop, boolean cancelledRun, int cancelledQueued) {
        s.store().transcripts().completeTurn(stop.session(), stop.id(), null, InboxState.DONE);
        Optional<MessageAdapter> adapter =
                s.channels().apply(stop.message().channel()).map(Channel::messageAdapter);
        if (adapter.isEmpty()) return;
        String text;
        if (cancelledRun) {
            text = "⏹️ Stopped."
                    + (cancelledQueued > 0
                            ? " Also dropped " + cancelledQueued + " queued message" + (cancelledQueued == 1 ? "" : "s")
                                    + "."
                            : "");
        } else if (cancelledQueued > 0) {
            text = "⏹️ Dropped " + cancelledQueued + " queued message" + (cancelledQueued == 1 ? "" : "s") + ".";
        } else {
            text = "Nothing is running.";
        }
        OutboundTarget target = OutboundTarget.replyTo(stop.message());
        replies.send(adapter.get(), target, text, OutboundMessage.Kind.NOTICE, stop.id(), CancelToken.none());
        adapter.get().turnEnded(target, stop.id(), TurnOutcome.REPLIED);
    }
}

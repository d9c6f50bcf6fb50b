package dev.clawgate.core.internal.turn;

import dev.clawgate.core.internal.agent.Steering;
import dev.clawgate.core.internal.prompt.PromptBody;
import dev.clawgate.core.model.ChatMessage;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.store.Store;
import java.util.ArrayList;
import java.util.List;

/**
 * SPEC DI-3 steer: messages offered to the run are recorded as their own user messages (inbox {@code merged}) when the
 * loop takes them, and answered by this run's reply.
 */
record TurnSteering(Store store, Turn turn) implements Steering {

    @Override
    public boolean pending() {
        return turn.handle().steer().hasPending();
    }

    @Override
    public List<ChatMessage> take() {
        List<ChatMessage> out = new ArrayList<>();
        boolean group = turn.current().message().chatType() == ChatType.GROUP;
        for (InboxRecord r : turn.handle().steer().drain()) {
            String content = PromptBody.body(r.message(), List.of(), group);
            store.transcripts().appendUserMessage(turn.session(), r.id(), content);
            store.inbox().mark(r.id(), InboxState.MERGED, "steered into turn " + turn.id());
            turn.finish(r.id(), InboxState.MERGED);
            out.add(ChatMessage.user(content));
        }
        return out;
    }
}

package dev.clawgate.core.internal.agent;

import dev.clawgate.core.model.ChatMessage;
import java.util.List;

/**
 * Where the loop picks up messages steered into it (SPEC DI-3 steer). {@link #take} also persists them; the loop only
 * places them in the conversation.
 */
public interface Steering {
    Steering NONE = new Steering() {
        public boolean pending() {
            return false;
        }

        public List<ChatMessage> take() {
            return List.of();
        }
    };

    /** Whether a message is waiting: the remaining tool calls of the step are then skipped. */
    boolean pending();

    /** The waiting messages as user messages, oldest first; empty when none. */
    List<ChatMessage> take();
}

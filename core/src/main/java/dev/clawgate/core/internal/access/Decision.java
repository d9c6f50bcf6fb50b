package dev.clawgate.core.internal.access;

import java.util.Objects;

/** What the {@link AccessGate} decided about one inbound message (SPEC IN-5, IN-6). */
public sealed interface Decision {

    /** The message may start a turn. */
    record Admit() implements Decision {}

    /** The message is recorded as {@code denied}, never reaches a model and gets no reply. */
    record Deny(String reason) implements Decision {
        public Deny {
            Objects.requireNonNull(reason, "reason");
        }
    }

    /**
     * A group message that passed the group policy but did not trigger a turn (no mention): it is kept as pending group
     * history (SPEC IN-6).
     */
    record Buffer(String reason) implements Decision {
        public Buffer {
            Objects.requireNonNull(reason, "reason");
        }
    }

    /**
     * An unknown direct sender under {@code dm_policy = pairing}: the message is recorded as {@code denied} and never
     * reaches a model, but {@code replyText} (which carries {@code code}) is sent back to the sender.
     */
    record Pair(String code, String replyText) implements Decision {
        public Pair {
            Objects.requireNonNull(code, "code");
            Objects.requireNonNull(replyText, "replyText");
        }
    }
}

package dev.clawgate.core.internal.dispatch;

import dev.clawgate.core.store.InboxRecord;

/**
 * Decides, before a record reaches its session, whether it may start a turn (SPEC IN-5, IN-6). It runs in the
 * dispatcher, after the inbox commit, so a restart re-checks what it re-queues.
 */
@FunctionalInterface
public interface Admission {
    Verdict check(InboxRecord record);

    sealed interface Verdict permits Admit, Deny, Buffer {}

    record Admit() implements Verdict {}

    /** Recorded as denied; never reaches a model. {@code reply} (a pairing code, say) is sent when not null. */
    record Deny(String reason, String reply) implements Verdict {}

    /** A group message without a trigger: kept as pending group history (SPEC IN-6). */
    record Buffer(String reason) implements Verdict {}

    Verdict ADMIT = new Admit();

    Admission ALL = r -> ADMIT;
}

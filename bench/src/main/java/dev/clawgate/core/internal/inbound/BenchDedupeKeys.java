package dev.clawgate.core.internal.inbound;

import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.model.SessionKey;

/**
 * Bench only (this class lives in the bench module, in core's package): the inbox's own dedupe key (SPEC IN-1) for the
 * inbound-record benchmark, so it records exactly the key {@link Inbox#accept} would, without a dispatcher behind it.
 * Compiled against {@code Inbox.dedupeKey}, so a change there breaks the bench build instead of drifting from it.
 */
public final class BenchDedupeKeys {
    private BenchDedupeKeys() {}

    public static String of(InboundMessage m, SessionKey s) {
        return Inbox.dedupeKey(m, s);
    }
}

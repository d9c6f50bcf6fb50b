package dev.clawgate.core.internal.dispatch;

import dev.clawgate.core.model.InboundMessage;

/**
 * The interruption scope of a message (SPEC DI-4): channel, reply target, sender and the optional scope id, as a tuple.
 * {@link #display()} gives the SPEC's string form for logs.
 */
record ScopeKey(String channel, String replyTarget, String sender, String scopeId) {
    public static ScopeKey of(InboundMessage m) {
        return new ScopeKey(m.channel(), m.replyTarget(), m.sender(), m.scopeId());
    }

    public String display() {
        String base = channel + "_" + replyTarget + "_" + sender;
        return scopeId == null ? base : base + "_" + scopeId;
    }
}

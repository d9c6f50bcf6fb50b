package dev.clawgate.core.config;

/** {@code [session]} (SPEC HI-1). */
public record SessionSettings(DmScope dmScope, GroupScope groupScope) {
    public static SessionSettings defaults() {
        return new SessionSettings(DmScope.PER_CHANNEL_PEER, GroupScope.SHARED);
    }
}

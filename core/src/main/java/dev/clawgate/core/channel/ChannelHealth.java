package dev.clawgate.core.channel;

/** Whether a channel's listener is working, and if not why (SPEC CH-0). */
public record ChannelHealth(boolean healthy, String detail) {
    public static final ChannelHealth UP = new ChannelHealth(true, "ok");

    public static ChannelHealth down(String why) {
        return new ChannelHealth(false, why);
    }
}

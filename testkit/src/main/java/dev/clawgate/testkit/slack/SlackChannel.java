package dev.clawgate.testkit.slack;

/**
 * A conversation of the fake workspace.
 *
 * @param type the event's {@code channel_type}: {@code channel} (public), {@code group} (private), {@code im} (a DM
 *     with the bot) or {@code mpim}
 * @param peer the person on the other side of an {@code im}, else null
 */
public record SlackChannel(String id, String name, String type, SlackUser peer) {
    public boolean isIm() {
        return "im".equals(type);
    }
}

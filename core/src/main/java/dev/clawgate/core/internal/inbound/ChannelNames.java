package dev.clawgate.core.internal.inbound;

/**
 * Multi-room channel names (SPEC MD-3): {@code matrix:!room:server} is the {@code matrix} channel with room
 * {@code !room:server}. Only the first colon splits, because room ids carry colons of their own.
 */
public final class ChannelNames {

    /** A channel and, when the name carried one, its room. */
    public record ChannelName(String channel, String room) {}

    private ChannelNames() {}

    /**
     * @throws IllegalArgumentException for a null or blank name, an empty channel part (a leading colon), whitespace in
     *     the channel part, or an empty room after the colon
     */
    public static ChannelName split(String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a channel name must not be blank");
        }
        int colon = name.indexOf(':');
        String channel = colon < 0 ? name : name.substring(0, colon);
        if (channel.isEmpty()) {
            throw new IllegalArgumentException("channel name '" + name + "' has no channel before the colon");
        }
        if (channel.chars().anyMatch(Character::isWhitespace)) {
            throw new IllegalArgumentException("channel '" + channel + "' must not contain whitespace");
        }
        if (colon < 0) return new ChannelName(channel, null);
        String room = name.substring(colon + 1);
        if (room.isBlank()) {
            throw new IllegalArgumentException("channel name '" + name + "' has no room after the colon");
        }
        return new ChannelName(channel, room);
    }
}

package dev.clawgate.testkit.discord;

/**
 * A channel of the fake (developers/resources/channel, "Channel Types").
 *
 * @param type 0 guild text, 1 DM, 11 public thread, 12 private thread
 * @param guildId null for a DM
 * @param parentId the channel a thread belongs to, else null
 * @param recipient the person of a DM, else null
 */
public record DiscordChannel(String id, int type, String guildId, String name, String parentId, DiscordUser recipient) {
    public static final int GUILD_TEXT = 0;
    public static final int DM = 1;
    public static final int PUBLIC_THREAD = 11;
    public static final int PRIVATE_THREAD = 12;

    public boolean isDm() {
        return type == DM;
    }

    public boolean isThread() {
        return type == PUBLIC_THREAD || type == PRIVATE_THREAD;
    }
}

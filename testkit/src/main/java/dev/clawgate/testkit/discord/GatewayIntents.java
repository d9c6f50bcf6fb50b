package dev.clawgate.testkit.discord;

/**
 * Gateway intent bits and application flags, as developers/events/gateway ("List of Intents", "Privileged Intents") and
 * developers/resources/application ("Application Flags") number them.
 */
public final class GatewayIntents {
    public static final int GUILDS = 1;
    public static final int GUILD_MEMBERS = 1 << 1;
    public static final int GUILD_PRESENCES = 1 << 8;
    public static final int GUILD_MESSAGES = 1 << 9;
    public static final int GUILD_MESSAGE_REACTIONS = 1 << 10;
    public static final int GUILD_MESSAGE_TYPING = 1 << 11;
    public static final int DIRECT_MESSAGES = 1 << 12;
    public static final int DIRECT_MESSAGE_REACTIONS = 1 << 13;
    public static final int DIRECT_MESSAGE_TYPING = 1 << 14;
    public static final int MESSAGE_CONTENT = 1 << 15;
    /** Every documented intent bit: 0..16, 20, 21, 24, 25; any other bit is an invalid intent (close 4013). */
    public static final int ALL = 0x1FFFF | (1 << 20) | (1 << 21) | (1 << 24) | (1 << 25);

    public static final int FLAG_GATEWAY_PRESENCE = 1 << 12;
    public static final int FLAG_GATEWAY_PRESENCE_LIMITED = 1 << 13;
    public static final int FLAG_GATEWAY_GUILD_MEMBERS = 1 << 14;
    public static final int FLAG_GATEWAY_GUILD_MEMBERS_LIMITED = 1 << 15;
    /** Message content granted after review (verified apps). */
    public static final int FLAG_GATEWAY_MESSAGE_CONTENT = 1 << 18;
    /** Message content switched on in the Developer Portal (apps under 100 servers). */
    public static final int FLAG_GATEWAY_MESSAGE_CONTENT_LIMITED = 1 << 19;

    private GatewayIntents() {}

    /** Whether the application's flags allow every privileged intent in {@code intents}. */
    static boolean allowed(int intents, int appFlags) {
        return grants(intents, GUILD_MEMBERS, appFlags, FLAG_GATEWAY_GUILD_MEMBERS | FLAG_GATEWAY_GUILD_MEMBERS_LIMITED)
                && grants(intents, GUILD_PRESENCES, appFlags, FLAG_GATEWAY_PRESENCE | FLAG_GATEWAY_PRESENCE_LIMITED)
                && grants(
                        intents,
                        MESSAGE_CONTENT,
                        appFlags,
                        FLAG_GATEWAY_MESSAGE_CONTENT | FLAG_GATEWAY_MESSAGE_CONTENT_LIMITED);
    }

    private static boolean grants(int intents, int intent, int appFlags, int flags) {
        return (intents & intent) == 0 || (appFlags & flags) != 0;
    }
}

package dev.clawgate.testkit.discord;

/**
 * The REST routes the fake serves, named as developers/resources/* write them (method and path under {@code /api/v10});
 * the call log and the rate limits use these names.
 */
public final class DiscordRoutes {
    public static final String GATEWAY = "GET /gateway";
    public static final String GATEWAY_BOT = "GET /gateway/bot";
    public static final String CURRENT_USER = "GET /users/@me";
    public static final String CURRENT_APPLICATION = "GET /applications/@me";
    public static final String CREATE_DM = "POST /users/@me/channels";
    public static final String GET_CHANNEL = "GET /channels/{channel.id}";
    public static final String GET_MESSAGES = "GET /channels/{channel.id}/messages";
    public static final String GET_MESSAGE = "GET /channels/{channel.id}/messages/{message.id}";
    public static final String CREATE_MESSAGE = "POST /channels/{channel.id}/messages";
    public static final String EDIT_MESSAGE = "PATCH /channels/{channel.id}/messages/{message.id}";
    public static final String DELETE_MESSAGE = "DELETE /channels/{channel.id}/messages/{message.id}";
    public static final String CREATE_REACTION =
            "PUT /channels/{channel.id}/messages/{message.id}/reactions/{emoji}/@me";
    public static final String DELETE_REACTION =
            "DELETE /channels/{channel.id}/messages/{message.id}/reactions/{emoji}/@me";
    public static final String TYPING = "POST /channels/{channel.id}/typing";
    public static final String START_THREAD_FROM_MESSAGE = "POST /channels/{channel.id}/messages/{message.id}/threads";
    public static final String START_THREAD = "POST /channels/{channel.id}/threads";

    private DiscordRoutes() {}
}

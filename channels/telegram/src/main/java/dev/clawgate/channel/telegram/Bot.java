package dev.clawgate.channel.telegram;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One running bot: its account, its Bot API client, and who it is on Telegram ({@code getMe}), which mention gating
 * needs.
 */
final class Bot {
    final TelegramAccount account;
    final BotApi api;
    private volatile long id;
    private volatile String username;
    private volatile boolean identified;

    Bot(TelegramAccount account, BotApi api) {
        this.account = account;
        this.api = api;
    }

    /** {@code getMe}: learns the bot's id and username. */
    void identify() throws BotApiException {
        JsonNode me = api.call("getMe", BotApi.JSON.createObjectNode());
        id = me.path("id").asLong();
        username = me.path("username").asText("");
        identified = true;
    }

    boolean identified() {
        return identified;
    }

    long id() {
        return id;
    }

    String username() {
        return username;
    }
}

package dev.clawgate.channel.discord;

import com.fasterxml.jackson.databind.JsonNode;

/** One bot: its account, its HTTP API client, and who it is ({@code GET /users/@me}, or READY's {@code user}). */
final class DiscordBot {
    final DiscordAccount account;
    final DiscordApi api;
    private volatile String userId;
    private volatile String name;

    DiscordBot(DiscordAccount account, DiscordApi api) {
        this.account = account;
        this.api = api;
    }

    /**
     * {@code GET /users/@me}: the bot's user id, which tells its own messages and its mentions ({@code <@id>}) apart.
     */
    void identify() throws DiscordApiException {
        known(api.get("GET /users/@me", "/users/@me"));
    }

    /** Takes the bot's user object (from {@code /users/@me} or READY). */
    void known(JsonNode user) {
        String id = user.path("id").asText(null);
        if (id == null || id.isBlank()) return;
        name = user.path("username").asText(id);
        userId = id;
    }

    boolean identified() {
        return userId != null;
    }

    String userId() {
        return userId;
    }

    String name() {
        return name;
    }
}

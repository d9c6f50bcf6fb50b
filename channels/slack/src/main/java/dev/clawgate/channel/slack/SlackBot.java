package dev.clawgate.channel.slack;

import com.fasterxml.jackson.databind.JsonNode;

/** One app's bot: its account, its Web API client, and who it is ({@code auth.test}), learnt at start. */
final class SlackBot {
    final SlackAccount account;
    final SlackApi api;
    private volatile String userId;
    private volatile String name;

    SlackBot(SlackAccount account, SlackApi api) {
        this.account = account;
        this.api = api;
    }

    /** {@code auth.test}: the bot's user id, which tells its own messages and its mentions ({@code <@U...>}) apart. */
    void identify() throws SlackApiException {
        JsonNode me = api.call("auth.test", SlackApi.JSON.createObjectNode());
        String id = me.path("user_id").asText(null);
        if (id == null || id.isBlank()) {
            throw new SlackApiException(
                    "auth.test named no user_id", SlackApiException.Reach.ANSWERED, "no_user_id", 200, null, null);
        }
        name = me.path("user").asText(id);
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

package dev.clawgate.testkit.slack;

/**
 * A member of the fake workspace.
 *
 * @param botId the {@code B...} id of a bot user's integration, null for a person
 */
public record SlackUser(String id, String name, String botId) {
    public boolean isBot() {
        return botId != null;
    }

    /** How Slack writes a mention of this user in message text: {@code <@U123>}. */
    public String mention() {
        return "<@" + id + ">";
    }
}

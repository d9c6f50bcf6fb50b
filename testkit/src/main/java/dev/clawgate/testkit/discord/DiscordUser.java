package dev.clawgate.testkit.discord;

/** A Discord account of the fake: a person or a bot. */
public record DiscordUser(String id, String username, boolean bot) {
    /** How Discord writes a mention of this user in content: {@code <@id>}. */
    public String mention() {
        return "<@" + id + ">";
    }
}

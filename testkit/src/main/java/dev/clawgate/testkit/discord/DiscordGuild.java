package dev.clawgate.testkit.discord;

/** A server (guild) the bot is in. */
public record DiscordGuild(String id, String name) {}

package dev.clawgate.testkit.telegram;

/** A Telegram user the test writes as (or the bot itself, {@code isBot}). */
public record TelegramUser(long id, String username, String firstName, boolean isBot) {}

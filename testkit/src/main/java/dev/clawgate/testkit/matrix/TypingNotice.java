package dev.clawgate.testkit.matrix;

/** One {@code PUT /rooms/{roomId}/typing/{userId}} the bot made; {@code timeoutMs} is null when not given. */
public record TypingNotice(String roomId, boolean typing, Long timeoutMs) {}

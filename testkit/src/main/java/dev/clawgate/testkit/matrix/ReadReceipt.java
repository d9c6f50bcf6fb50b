package dev.clawgate.testkit.matrix;

/** One receipt the bot sent: {@code type} is {@code m.read}, {@code m.read.private} or {@code m.fully_read}. */
public record ReadReceipt(String roomId, String eventId, String type, String threadId) {}

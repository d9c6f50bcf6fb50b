package dev.clawgate.testkit.discord;

import java.util.List;

/**
 * A message of the fake as it stands now, for assertions.
 *
 * @param referencedId the message it replies to ({@code message_reference}), or null
 * @param attachments the file names attached, in order
 * @param reactions {@code emoji:user} for every reaction on it, in the order added
 * @param edits how many times it was edited
 */
public record DiscordMessage(
        String id,
        String channelId,
        String authorId,
        String content,
        String nonce,
        String referencedId,
        List<String> attachments,
        List<String> reactions,
        int edits,
        boolean deleted) {
    public DiscordMessage {
        attachments = List.copyOf(attachments);
        reactions = List.copyOf(reactions);
    }
}

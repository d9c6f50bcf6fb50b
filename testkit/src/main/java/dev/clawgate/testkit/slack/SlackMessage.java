package dev.clawgate.testkit.slack;

import java.util.List;

/**
 * A message of the fake workspace as it stands now, for assertions.
 *
 * @param threadTs the thread's root {@code ts} when the message is in a thread (the root carries its own)
 * @param metadata the message metadata JSON ({@code event_type}, {@code event_payload}) or null
 * @param fileIds the {@code F...} ids of the files shared with it
 * @param reactions {@code name:user} for every reaction on it, in the order they were added
 * @param edits how many times it was changed with {@code chat.update}
 */
public record SlackMessage(
        String channel,
        String ts,
        String threadTs,
        String user,
        String botId,
        String text,
        String metadata,
        List<String> fileIds,
        List<String> reactions,
        int edits,
        boolean deleted) {
    public SlackMessage {
        fileIds = List.copyOf(fileIds);
        reactions = List.copyOf(reactions);
    }

    public boolean isReply() {
        return threadTs != null && !threadTs.equals(ts);
    }
}

package dev.clawgate.core.store;

import dev.clawgate.core.model.ChatMessage;
import dev.clawgate.core.model.SessionKey;
import java.util.List;
import java.util.Optional;

/**
 * Sessions and their transcripts (SPEC HI-1, HI-2): handed out by {@link Store#transcripts()}. Every method is its own
 * transaction; thread-safe.
 */
public interface TranscriptBook {

    /** The newest {@code maxMessages} entries of the session, oldest first. */
    List<TranscriptEntry> load(SessionKey session, int maxMessages);

    /** Appends the user message of a turn; a second call for the same inbox id does nothing. */
    void appendUserMessage(SessionKey session, long inboxId, String content);

    /**
     * Starts a run in ONE transaction (SPEC IN-4, HI-1): moves each message's inbox record to {@code DISPATCHED} as
     * {@link InboxBook#mark} does (counting an attempt; a record already in a final state stays in it) and appends the
     * message as {@link #appendUserMessage} does, in order.
     */
    void dispatchWithUserMessages(SessionKey session, List<UserMessage> messages);

    /** Removes the user message of a turn again (SPEC HI-6: a vision error rolls the turn back). */
    void removeUserMessage(SessionKey session, long inboxId);

    /**
     * Ends a turn in one transaction: appends the assistant message (unless null) and moves the inbox record to
     * {@code finalState} (SPEC IN-4: done commits with the assistant message).
     */
    void completeTurn(SessionKey session, long inboxId, String assistantContent, InboxState finalState);

    /** Forgets a session's transcript ({@code /new}). */
    void clear(SessionKey session);

    /** Replaces a session's transcript in one transaction (compaction, SPEC HI-5). */
    void replace(SessionKey session, List<ChatMessage> messages);

    /** A per-session setting such as the {@code /model} override; empty when unset. */
    Optional<String> setting(SessionKey session, String name);

    /** Sets a per-session setting; a null value removes it. */
    void putSetting(SessionKey session, String name, String value);

    List<SessionSummary> sessions();
}

package dev.clawgate.store.internal;

import dev.clawgate.core.model.ChatMessage;
import dev.clawgate.core.model.Role;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.store.SessionSummary;
import dev.clawgate.core.store.TranscriptBook;
import dev.clawgate.core.store.TranscriptEntry;
import dev.clawgate.core.store.UserMessage;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link TranscriptBook} on either SQL dialect; the SQL lives in {@link TranscriptRows} and {@link SessionRows}.
 */
final class JdbcTranscripts implements TranscriptBook {

    private static final Logger LOG = LoggerFactory.getLogger(JdbcTranscripts.class);

    private final Database db;
    private final Clock clock;

    JdbcTranscripts(Database db, Clock clock) {
        this.db = db;
        this.clock = clock;
    }

    @Override
    public List<TranscriptEntry> load(SessionKey session, int maxMessages) {
        SessionKey key = SessionRows.normalise(Objects.requireNonNull(session, "session"));
        if (maxMessages < 0) {
            throw new IllegalArgumentException("maxMessages must not be negative, got " + maxMessages);
        }
        if (maxMessages == 0) {
            return List.of();
        }
        return db.read("loadTranscript", tx -> TranscriptRows.newest(tx, key, maxMessages));
    }

    @Override
    public void appendUserMessage(SessionKey session, long inboxId, String content) {
        SessionKey key = SessionRows.normalise(Objects.requireNonNull(session, "session"));
        Objects.requireNonNull(content, "content");
        db.write("appendUserMessage", tx -> {
            long now = clock.millis();
            long sessionId = SessionRows.touch(tx, key, now);
            return TranscriptRows.append(tx, sessionId, Role.USER, content, inboxId, now);
        });
    }

    /**
     * {@inheritDoc} The session's activity is left as the messages' arrival set it, to be moved again by the turn's
     * end: the session is looked up, not written (issue 27: one upsert of the session per turn fewer).
     */
    @Override
    public void dispatchWithUserMessages(SessionKey session, List<UserMessage> messages) {
        SessionKey key = SessionRows.normalise(Objects.requireNonNull(session, "session"));
        List<UserMessage> all = List.copyOf(messages);
        if (all.isEmpty()) return;
        db.write("dispatchWithUserMessages", tx -> {
            long now = clock.millis();
            long sessionId = SessionRows.ensure(tx, key, now);
            for (UserMessage m : all) {
                InboxRows.move(tx, m.inboxId(), InboxState.DISPATCHED, null, now);
                TranscriptRows.append(tx, sessionId, Role.USER, m.content(), m.inboxId(), now);
            }
            return null;
        });
    }

    @Override
    public void removeUserMessage(SessionKey session, long inboxId) {
        SessionKey key = SessionRows.normalise(Objects.requireNonNull(session, "session"));
        db.write("removeUserMessage", tx -> TranscriptRows.removeUserMessage(tx, key, inboxId));
    }

    /**
     * {@inheritDoc} When the record already has a final state (say a /stop cancelled it), nothing is recorded: a turn
     * that was ended elsewhere adds no assistant message (SPEC HI-6).
     */
    @Override
    public void completeTurn(SessionKey session, long inboxId, String assistantContent, InboxState finalState) {
        SessionKey key = SessionRows.normalise(Objects.requireNonNull(session, "session"));
        requireFinal(finalState);
        boolean completed = db.write("completeTurn", tx -> {
            long now = clock.millis();
            if (!InboxRows.finish(tx, inboxId, finalState, now)) {
                return false;
            }
            long sessionId = SessionRows.touch(tx, key, now);
            if (assistantContent != null) {
                TranscriptRows.append(tx, sessionId, Role.ASSISTANT, assistantContent, inboxId, now);
            }
            return true;
        });
        if (!completed) {
            LOG.debug("inbox record {} already has a final state; turn not recorded again", inboxId);
        }
    }

    static void requireFinal(InboxState finalState) {
        Objects.requireNonNull(finalState, "finalState");
        if (!finalState.isFinal()) {
            throw new IllegalArgumentException("a turn must end in a final state, got " + finalState.wireName());
        }
    }

    @Override
    public void clear(SessionKey session) {
        SessionKey key = SessionRows.normalise(Objects.requireNonNull(session, "session"));
        db.write("clearTranscript", tx -> TranscriptRows.clear(tx, key));
    }

    /**
     * {@inheritDoc} The transcript keeps roles and text only, so a message with tool calls or a tool-call id is refused
     * rather than stored without them. Replaced messages lose their link to an inbox record.
     */
    @Override
    public void replace(SessionKey session, List<ChatMessage> messages) {
        SessionKey key = SessionRows.normalise(Objects.requireNonNull(session, "session"));
        List<ChatMessage> copy = List.copyOf(Objects.requireNonNull(messages, "messages"));
        for (ChatMessage m : copy) {
            if (!m.toolCalls().isEmpty() || m.toolCallId() != null) {
                throw new IllegalArgumentException("a transcript holds no tool calls or tool results, got a "
                        + m.role().wireName() + " message with them");
            }
        }
        db.write("replaceTranscript", tx -> {
            long now = clock.millis();
            long sessionId = SessionRows.ensure(tx, key, now);
            TranscriptRows.clear(tx, sessionId);
            for (ChatMessage m : copy) {
                TranscriptRows.append(tx, sessionId, m.role(), m.content(), null, now);
            }
            return null;
        });
    }

    @Override
    public Optional<String> setting(SessionKey session, String name) {
        SessionKey key = SessionRows.normalise(Objects.requireNonNull(session, "session"));
        Objects.requireNonNull(name, "name");
        return db.read("sessionSetting", tx -> SessionRows.setting(tx, key, name));
    }

    @Override
    public void putSetting(SessionKey session, String name, String value) {
        SessionKey key = SessionRows.normalise(Objects.requireNonNull(session, "session"));
        Objects.requireNonNull(name, "name");
        db.write("putSessionSetting", tx -> {
            SessionRows.putSetting(tx, key, name, value, clock.millis());
            return null;
        });
    }

    @Override
    public List<SessionSummary> sessions() {
        return db.read("sessions", SessionRows::summaries);
    }
}

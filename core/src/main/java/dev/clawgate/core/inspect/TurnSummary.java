package dev.clawgate.core.inspect;

import dev.clawgate.core.model.SessionKey;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * One turn as {@code clawgate turns list} shows it (SPEC OP-8).
 *
 * @param id the turn id ({@link TurnBook#record} gives it; 0 before)
 * @param inboxId the inbox record the turn answered (SPEC IN-4), or the one a dropped duplicate repeated; 0 when the
 *     update never reached the inbox
 * @param session the turn's session
 * @param startedAt when the turn started (for a duplicate: when it arrived)
 * @param duration from start to the last phase's end
 * @param outcome how it ended: one of the constants below, lower case
 * @param preview the start of the inbound text, at most {@link #PREVIEW_CHARS} characters
 */
public record TurnSummary(
        long id,
        long inboxId,
        SessionKey session,
        Instant startedAt,
        Duration duration,
        String outcome,
        String preview) {

    public static final String REPLIED = "replied";
    public static final String NO_REPLY = "no_reply";
    public static final String FAILED = "failed";
    public static final String CANCELLED = "cancelled";
    public static final String TIMED_OUT = "timed_out";
    /** A command such as {@code /status} answered without the model. */
    public static final String COMMAND = "command";
    /** A platform's second delivery of a recorded message, dropped by dedupe (SPEC IN-1). */
    public static final String DUPLICATE = "duplicate";

    public static final int PREVIEW_CHARS = 80;

    public TurnSummary {
        Objects.requireNonNull(session, "session");
        Objects.requireNonNull(startedAt, "startedAt");
        Objects.requireNonNull(duration, "duration");
        Objects.requireNonNull(outcome, "outcome");
        preview =
                preview == null ? "" : preview.length() > PREVIEW_CHARS ? preview.substring(0, PREVIEW_CHARS) : preview;
    }

    public String channel() {
        return session.channel();
    }

    public String account() {
        return session.account();
    }

    /** The same turn under the id the store gave it. */
    public TurnSummary withId(long newId) {
        return new TurnSummary(newId, inboxId, session, startedAt, duration, outcome, preview);
    }
}

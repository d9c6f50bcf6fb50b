package dev.clawgate.server.channel;

import dev.clawgate.core.model.ChatMessage;
import dev.clawgate.core.outbound.TurnOutcome;
import dev.clawgate.core.provider.Usage;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * One waiting API request ({@code /v1/chat/completions} or {@code /v1/responses}): the events its turn produces, in
 * order.
 */
final class ApiExchange {
    sealed interface Event permits Delta, Notice, Final, Ended {}

    record Delta(String text) implements Event {}

    record Notice(String text) implements Event {}

    record Final(String text) implements Event {}

    record Ended(TurnOutcome outcome) implements Event {}

    final String messageId;
    final boolean stream;
    /**
     * A stateless call's conversation before its last user message (SPEC CH-10), or null when a session owns the
     * history.
     */
    final List<ChatMessage> carried;
    /** Bounded by one turn's output; emptied by the waiting request thread. */
    final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
    /** The turn's tokens, set before its {@link Ended} is queued (the queue orders the two). */
    private volatile Usage usage = Usage.NONE;

    ApiExchange(String messageId, boolean stream, List<ChatMessage> carried) {
        this.messageId = messageId;
        this.stream = stream;
        this.carried = carried == null ? null : List.copyOf(carried);
    }

    /** Where {@link #stream} writes each new piece of the reply's text. */
    @FunctionalInterface
    interface TextSink {
        void write(String text) throws java.io.IOException;
    }

    static final String TIMED_OUT_NOTE = "⚠️ The turn did not finish in time.";

    /**
     * Hands the turn's text to {@code sink} piece by piece as it comes: the streamed deltas, then notices and the final
     * reply, each set apart by a blank line, a final reply only for what streaming did not already show (nothing
     * appears twice). Returns how the turn ended, or null when it had not ended by {@code deadlineNanos} (then
     * {@link #TIMED_OUT_NOTE} was written last).
     */
    TurnOutcome stream(long deadlineNanos, TextSink sink) throws java.io.IOException, InterruptedException {
        StringBuilder shown = new StringBuilder();
        while (true) {
            Event e = events.poll(
                    Math.max(1, deadlineNanos - System.nanoTime()), java.util.concurrent.TimeUnit.NANOSECONDS);
            String piece;
            if (e == null) {
                piece = separated(shown, TIMED_OUT_NOTE);
            } else if (e instanceof Ended end) {
                return end.outcome();
            } else if (e instanceof Delta d) {
                piece = d.text();
            } else if (e instanceof Notice n) {
                piece = separated(shown, n.text());
            } else {
                String text = ((Final) e).text();
                piece = normalized(shown.toString()).contains(normalized(text)) ? null : separated(shown, text);
            }
            if (piece != null && !piece.isEmpty()) {
                shown.append(piece);
                sink.write(piece);
            }
            if (e == null) return null;
        }
    }

    private static String separated(StringBuilder shown, String text) {
        return shown.isEmpty() ? text : "\n\n" + text;
    }

    private static String normalized(String s) {
        return s.replaceAll("\\s+", " ").trim();
    }

    void usage(Usage u) {
        usage = u == null ? Usage.NONE : u;
    }

    Usage usage() {
        return usage;
    }
}

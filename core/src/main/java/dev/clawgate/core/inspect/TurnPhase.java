package dev.clawgate.core.inspect;

import java.time.Duration;
import java.util.Objects;

/**
 * One phase of a turn (SPEC OP-8, OP-5).
 *
 * <p>Names, in the order a turn meets them: {@code inbound} (the record: message id, sender, chat, size),
 * {@code dedupe} (the dedupe key and its decision), {@code debounce}, {@code queue} (the queue mode's decision),
 * {@code session} (the session key), {@code command}, {@code memory} (recalled entries with scores, kept or filtered
 * and why, SPEC ME-3), {@code prompt} (the system prompt's sections and their sizes), {@code history} (messages kept,
 * trimmed, chars), {@code model} (provider, model, request size, tokens, latency, error, fallback), {@code tool} (name,
 * arguments, result size, error), {@code overflow} and {@code compaction} (SPEC HI-5), {@code retry}, {@code sanitise}
 * (what the sanitiser removed), {@code chunks}, {@code send} (attempt, outcome, receipt, SPEC OUT-8), {@code reaction},
 * {@code end}.
 *
 * @param name what the phase is, from the list above
 * @param start when it started, counted from the turn's start
 * @param duration how long it took (zero for a decision)
 * @param detail a compact JSON object; {@code {}} when there is nothing to add
 */
public record TurnPhase(String name, Duration start, Duration duration, String detail) {

    public TurnPhase {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(start, "start");
        Objects.requireNonNull(duration, "duration");
        detail = detail == null || detail.isBlank() ? "{}" : detail;
    }
}

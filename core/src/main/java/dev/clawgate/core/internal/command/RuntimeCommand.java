package dev.clawgate.core.internal.command;

import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * A runtime command, handled without a model call (SPEC RT-1). Anything else that starts with a slash is not a command:
 * it goes to the model as text.
 */
public sealed interface RuntimeCommand {
    /** {@code /new}: clear this sender's history. */
    record New() implements RuntimeCommand {}

    /** {@code /model NAME}: switch the session's model. */
    record Model(String name) implements RuntimeCommand {}

    /** {@code /models [PROVIDER]} (and a bare {@code /model}): list models; {@code provider} is null for all. */
    record Models(String provider) implements RuntimeCommand {}

    /** {@code /stop}: cancel the active run of the sender's scope (SPEC DI-5). */
    record Stop() implements RuntimeCommand {}

    /** {@code /status}: session, model and queue depth. */
    record Status() implements RuntimeCommand {}

    /** {@code /queue ...} (SPEC DI-3); {@code args} is the rest of the line, empty to show the current settings. */
    record Queue(String args) implements RuntimeCommand {}

    /** {@code /reasoning on|off|stream} (SPEC RP-4); {@code mode} is lower case. */
    record Reasoning(String mode) implements RuntimeCommand {}

    /** A known command with arguments it cannot take: answered with its usage, never sent to the model. */
    record Invalid(String command, String usage) implements RuntimeCommand {}

    Set<String> REASONING_MODES = Set.of("on", "off", "stream");

    /**
     * Reads a runtime command: the first word, case-insensitive, with an optional {@code @botname} suffix
     * ({@code /stop@my_bot}); surrounding whitespace is ignored.
     */
    static Optional<RuntimeCommand> parse(String text) {
        if (text == null) return Optional.empty();
        String t = text.strip();
        if (t.length() < 2 || t.charAt(0) != '/') return Optional.empty();
        int space = 1;
        while (space < t.length() && !Character.isWhitespace(t.charAt(space))) space++;
        String word = t.substring(1, space);
        int at = word.indexOf('@');
        if (at >= 0) word = word.substring(0, at);
        word = word.toLowerCase(Locale.ROOT);
        String args = t.substring(space).strip();
        String firstArg = args.isEmpty() ? null : args.split("\\s+", 2)[0];
        RuntimeCommand command = switch (word) {
            case "new" -> new New();
            case "stop" -> new Stop();
            case "status" -> new Status();
            case "model" -> firstArg == null ? new Models(null) : new Model(firstArg);
            case "models" -> new Models(firstArg);
            case "queue" -> new Queue(args);
            case "reasoning" -> {
                String mode = firstArg == null ? "" : firstArg.toLowerCase(Locale.ROOT);
                yield REASONING_MODES.contains(mode)
                        ? new Reasoning(mode)
                        : new Invalid("reasoning", "usage: /reasoning on|off|stream");
            }
            default -> null;
        };
        return Optional.ofNullable(command);
    }
}

package dev.clawgate.core.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The keys of a {@code kind = "cli"} provider (SPEC SP-4, SP-3, HI-5): a local agent program run as a process per model
 * call.
 *
 * @param command the program (a path, or a name looked up on PATH)
 * @param args its arguments; {@code {prompt_file}} in one is replaced by the prompt file's path
 * @param env variables the process gets, besides PATH and HOME (it inherits nothing else)
 * @param workdir where it runs; null = the gateway's working directory
 * @param timeout the longest one call may take; then the process tree is killed
 * @param promptVia how the prompt reaches it
 * @param promptMode what of the gateway's system prompt it gets
 * @param overflowPatterns the program's own context-overflow wording, fed to the shared detector
 * @param maxProcesses how many may run at once
 */
public record CliProviderSettings(
        String command,
        List<String> args,
        Map<String, String> env,
        Path workdir,
        Duration timeout,
        PromptVia promptVia,
        PromptMode promptMode,
        List<String> overflowPatterns,
        int maxProcesses) {
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(300);
    public static final int DEFAULT_MAX_PROCESSES = 4;
    /** What agent CLIs print when their context is full; the first is the seed's (its Kiro path). */
    public static final List<String> DEFAULT_OVERFLOW_PATTERNS = List.of(
            "The context window has overflowed",
            "context window is full",
            "conversation is too long",
            "context limit reached",
            "ran out of context");

    public enum PromptVia {
        STDIN,
        FILE
    }

    /** {@code minimal}: only what the program lacks (SPEC SP-3 beyond); {@code full}: the whole system prompt. */
    public enum PromptMode {
        MINIMAL,
        FULL
    }

    public CliProviderSettings {
        Objects.requireNonNull(command, "command");
        if (command.isBlank()) throw new IllegalArgumentException("command must not be blank");
        args = args == null ? List.of() : List.copyOf(args);
        env = env == null ? Map.of() : Map.copyOf(env);
        timeout = timeout == null ? DEFAULT_TIMEOUT : timeout;
        promptVia = promptVia == null ? PromptVia.STDIN : promptVia;
        promptMode = promptMode == null ? PromptMode.MINIMAL : promptMode;
        overflowPatterns = overflowPatterns == null ? DEFAULT_OVERFLOW_PATTERNS : List.copyOf(overflowPatterns);
        if (maxProcesses < 1) throw new IllegalArgumentException("max_processes must be at least 1");
    }

    /** A command with every other key at its default. */
    public static CliProviderSettings of(String command, List<String> args) {
        return new CliProviderSettings(command, args, Map.of(), null, null, null, null, null, DEFAULT_MAX_PROCESSES);
    }
}

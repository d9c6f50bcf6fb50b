package dev.clawgate.provider.cli;

import dev.clawgate.core.config.CliProviderSettings;
import dev.clawgate.core.config.ProviderSettings;
import dev.clawgate.core.history.OverflowDetector;
import dev.clawgate.core.provider.ChatRequest;
import dev.clawgate.core.provider.ChatResponse;
import dev.clawgate.core.provider.Provider;
import dev.clawgate.core.provider.ProviderCapabilities;
import dev.clawgate.core.provider.ProviderException;
import dev.clawgate.core.provider.ProviderException.Kind;
import dev.clawgate.core.provider.StreamObserver;
import dev.clawgate.core.provider.Usage;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.run.CancelledException;
import dev.clawgate.provider.internal.SecretRedactor;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A local agent program as a model (SPEC SP-4, the seeds' Kiro path done right): each call runs the configured command,
 * hands it the prompt on stdin or in a file ({@link CliPrompt}: minimal by default, SPEC SP-3 beyond), reads its answer
 * from stdout as it comes ({@link CliOutput}), and turns its own overflow wording into {@link Kind#CONTEXT_OVERFLOW}
 * through the shared detector plus the configured {@code overflow_patterns} (SPEC HI-5), so the turn compacts and
 * retries. The process tree is killed on cancellation (SPEC AG-2, {@code /stop}), on timeout and on {@link #close()}.
 * Stderr is logged (redacted, cut), never put in an error a user could see. At most {@code max_processes} run at once.
 * The program runs as configured, outside the shell tool's sandbox, with only PATH, HOME and its configured
 * {@code env}.
 */
public final class CliProvider implements Provider, AutoCloseable {
    /** How long a process gets between SIGTERM and SIGKILL. */
    static final Duration DEFAULT_GRACE = Duration.ofSeconds(2);

    private static final int MAX_STDERR = 16 * 1024;
    private static final int LOGGED_STDERR = 2000;
    private static final String PROMPT_FILE = "{prompt_file}";
    private static final String MODEL = "{model}";

    private static final Logger log = LoggerFactory.getLogger(CliProvider.class);
    private final String name;
    private final CliProviderSettings cli;
    private final String defaultModel;
    private final Duration grace;
    private final Semaphore slots;
    private final Set<Process> running = ConcurrentHashMap.newKeySet();
    private final SecretRedactor redactor = new SecretRedactor(null);
    private final ProviderCapabilities capabilities;
    private volatile boolean closed;

    public CliProvider(ProviderSettings settings) {
        this(settings, DEFAULT_GRACE);
    }

    CliProvider(ProviderSettings settings, Duration grace) {
        Objects.requireNonNull(settings, "settings");
        if (settings.cli() == null) throw new IllegalArgumentException("a cli provider needs its command settings");
        this.name = settings.name() == null || settings.name().isBlank() ? "cli" : settings.name();
        this.cli = settings.cli();
        this.defaultModel = settings.defaultModel();
        this.grace = grace;
        this.slots = new Semaphore(cli.maxProcesses(), true);
        // tool calls come back as <tool_call> tags in the text: the gateway's protocol goes in the prompt (SPEC SP-3)
        this.capabilities = new ProviderCapabilities(
                Boolean.TRUE.equals(settings.nativeTools()), Boolean.TRUE.equals(settings.vision()), true);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public ProviderCapabilities capabilities() {
        return capabilities;
    }

    @Override
    public List<String> listModels(CancelToken cancel) {
        return defaultModel == null ? List.of() : List.of(defaultModel);
    }

    @Override
    public ChatResponse chat(ChatRequest request, StreamObserver observer, CancelToken cancel)
            throws ProviderException {
        Objects.requireNonNull(request, "request");
        StreamObserver sink = observer == null || !request.stream() ? StreamObserver.NONE : observer;
        CancelToken token = cancel == null ? CancelToken.none() : cancel;
        token.throwIfCancelled();
        if (closed) throw new ProviderException(Kind.FATAL, name + ": the provider is shut down");
        long deadline = System.nanoTime() + cli.timeout().toNanos();
        acquireSlot(token, deadline);
        Path promptFile = null;
        try {
            String prompt = CliPrompt.render(request.messages(), cli.promptMode());
            if (cli.promptVia() == CliProviderSettings.PromptVia.FILE) promptFile = writePromptFile(prompt);
            String model = request.model() == null || request.model().isBlank() ? defaultModel : request.model();
            return run(command(promptFile, model), prompt, promptFile != null, sink, token, deadline);
        } finally {
            slots.release();
            if (promptFile != null) deleteQuietly(promptFile);
        }
    }

    /** Kills every process tree this provider has running; later calls fail. */
    @Override
    public void close() {
        closed = true;
        for (Process p : running) ProcessTree.kill(p.toHandle(), grace);
    }

    private ChatResponse run(
            List<String> command,
            String prompt,
            boolean promptInFile,
            StreamObserver sink,
            CancelToken token,
            long deadline)
            throws ProviderException {
        ProcessBuilder pb = new ProcessBuilder(command);
        Map<String, String> env = pb.environment();
        env.clear();
        for (String inherited : List.of("PATH", "HOME")) {
            String v = System.getenv(inherited);
            if (v != null) env.put(inherited, v);
        }
        env.putAll(cli.env());
        if (cli.workdir() != null) pb.directory(cli.workdir().toFile());
        Process process;
        try {
            process = pb.start();
        } catch (IOException e) {
            // the command is the operator's, not a secret; the OS message says what was wrong
            throw new ProviderException(
                    Kind.FATAL,
                    name + ": cannot start '" + cli.command() + "' (" + redactor.redact(e.getMessage()) + ")",
                    0,
                    null,
                    e);
        }
        running.add(process);
        LiveProcesses.add(process);
        AtomicBoolean killed = new AtomicBoolean();
        AtomicBoolean timedOut = new AtomicBoolean();
        Runnable kill = () -> {
            if (killed.compareAndSet(false, true)) ProcessTree.kill(process.toHandle(), grace);
        };
        BoundedText stderr = new BoundedText(MAX_STDERR);
        Thread stderrReader = Thread.ofVirtual()
                .name("cli-stderr-" + process.pid())
                .start(() -> drain(process.getErrorStream(), stderr));
        Thread writer = Thread.ofVirtual()
                .name("cli-stdin-" + process.pid())
                .start(() -> writePrompt(process, promptInFile ? null : prompt));
        Thread watchdog = Thread.ofVirtual()
                .name("cli-timeout-" + process.pid())
                .start(() -> {
                    try {
                        if (!process.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                            timedOut.set(true);
                            kill.run();
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
        CliOutput output =
                new CliOutput(sink, text -> OverflowDetector.isContextOverflow(text, cli.overflowPatterns()));
        AutoCloseable onCancel = token.onCancel(() -> Thread.ofVirtual().start(kill));
        try {
            try (BufferedReader out =
                    new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = out.readLine()) != null; ) {
                    if (!output.accept(line)) break;
                }
            } catch (IOException e) {
                if (!killed.get()) log.debug("{}: stdout read failed: {}", name, e.toString());
            }
            if (output.overflowed()) kill.run();
            // an answer that is complete is not held up by a program that lingers after it
            if (output.done() && !process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) kill.run();
            waitForExit(process, deadline, kill);
            stderrReader.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            kill.run();
            throw new CancelledException("interrupted");
        } finally {
            closeListener(onCancel);
            if (process.isAlive()) kill.run();
            watchdog.interrupt();
            writer.interrupt();
            running.remove(process);
            LiveProcesses.remove(process);
        }
        String err = stderr.toString();
        if (!err.isBlank()) log.warn("{}: the program wrote to stderr: {}", name, cut(redactor.redact(err)));
        if (token.isCancelled()) throw new CancelledException(token.reason());
        if (output.overflowed() || OverflowDetector.isContextOverflow(err, cli.overflowPatterns())) {
            throw new ProviderException(Kind.CONTEXT_OVERFLOW, name + ": the program's context window overflowed");
        }
        if (output.done() && output.error() == null) return answer(output);
        if (timedOut.get()) {
            throw new ProviderException(
                    Kind.TRANSIENT,
                    name + ": no answer within " + cli.timeout().toSeconds() + "s; the program was killed");
        }
        int status = process.exitValue();
        if (output.error() != null) {
            throw new ProviderException(
                    Kind.TRANSIENT, name + ": the program reported an error (exit status " + status + ")");
        }
        if (status != 0) {
            throw new ProviderException(
                    Kind.TRANSIENT,
                    name + ": the program exited with status " + status + " (its stderr is in the gateway log)");
        }
        return answer(output);
    }

    private ChatResponse answer(CliOutput output) throws ProviderException {
        String text = output.text().strip();
        if (text.isEmpty() && output.calls().isEmpty())
            throw new ProviderException(Kind.TRANSIENT, name + ": the program printed no answer");
        return new ChatResponse(
                text, output.calls(), null, Usage.NONE, output.calls().isEmpty() ? "stop" : "tool_calls");
    }

    private void acquireSlot(CancelToken token, long deadline) throws ProviderException {
        try {
            while (!slots.tryAcquire(100, TimeUnit.MILLISECONDS)) {
                token.throwIfCancelled();
                if (System.nanoTime() > deadline) {
                    throw new ProviderException(
                            Kind.TRANSIENT,
                            name + ": all " + cli.maxProcesses() + " processes stayed busy for "
                                    + cli.timeout().toSeconds() + "s");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CancelledException("interrupted");
        }
        if (token.isCancelled()) {
            slots.release();
            token.throwIfCancelled();
        }
    }

    private List<String> command(Path promptFile, String model) {
        List<String> cmd = new ArrayList<>();
        cmd.add(cli.command());
        boolean fileNamed = false;
        for (String a : cli.args()) {
            String arg = a;
            if (promptFile != null && arg.contains(PROMPT_FILE)) {
                arg = arg.replace(PROMPT_FILE, promptFile.toString());
                fileNamed = true;
            }
            if (arg.contains(MODEL)) arg = arg.replace(MODEL, model == null ? "" : model);
            cmd.add(arg);
        }
        // a file the arguments do not place goes last
        if (promptFile != null && !fileNamed) cmd.add(promptFile.toString());
        return cmd;
    }

    private Path writePromptFile(String prompt) throws ProviderException {
        try {
            Path f = Files.createTempFile(
                    "clawgate-prompt-",
                    ".txt",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.writeString(f, prompt, StandardCharsets.UTF_8);
            return f;
        } catch (IOException | UnsupportedOperationException e) {
            throw new ProviderException(
                    Kind.TRANSIENT, name + ": cannot write the prompt file (" + e.getMessage() + ")");
        }
    }

    private void writePrompt(Process process, String prompt) {
        try (OutputStream in = process.getOutputStream()) {
            if (prompt != null) {
                in.write(prompt.getBytes(StandardCharsets.UTF_8));
                in.flush();
            }
        } catch (IOException e) {
            // the program stopped reading (it exited, or it reads a file instead)
            log.debug("{}: stdin closed early: {}", name, e.toString());
        }
    }

    private static void waitForExit(Process process, long deadline, Runnable kill) throws InterruptedException {
        if (!process.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) kill.run();
        process.waitFor();
    }

    private static void drain(InputStream in, BoundedText into) {
        byte[] buf = new byte[4096];
        try (in) {
            for (int n; (n = in.read(buf)) >= 0; ) into.append(new String(buf, 0, n, StandardCharsets.UTF_8));
        } catch (IOException e) {
            // the process was killed: what was read is kept
        }
    }

    private static void closeListener(AutoCloseable listener) {
        try {
            listener.close();
        } catch (Exception e) {
            log.debug("cancel listener could not be removed: {}", e.toString());
        }
    }

    /** Text one thread appends and another reads, kept to a bound. */
    private static final class BoundedText {
        private final ReentrantLock lock = new ReentrantLock();
        private final StringBuilder sb = new StringBuilder();
        private final int max;

        BoundedText(int max) {
            this.max = max;
        }

        void append(String s) {
            lock.lock();
            try {
                if (sb.length() < max) sb.append(s, 0, Math.min(s.length(), max - sb.length()));
            } finally {
                lock.unlock();
            }
        }

        @Override
        public String toString() {
            lock.lock();
            try {
                return sb.toString();
            } finally {
                lock.unlock();
            }
        }
    }

    private static String cut(String s) {
        return s.length() <= LOGGED_STDERR ? s : s.substring(0, LOGGED_STDERR) + "…";
    }

    private static void deleteQuietly(Path f) {
        try {
            Files.deleteIfExists(f);
        } catch (IOException e) {
            log.warn("could not delete the prompt file {}: {}", f, e.toString());
        }
    }
}

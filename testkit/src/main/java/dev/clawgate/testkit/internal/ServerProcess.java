package dev.clawgate.testkit.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real server from Debian's packages run by a test (ngircd, prosody): its command, its own temp directory with config
 * and logs, a free loopback port; started and ready once the port takes a connection, killed abruptly (SIGKILL) and
 * started again for restart tests, and removed with its directory at close.
 */
public final class ServerProcess implements AutoCloseable {
    private final String name;
    private final Path dir;
    private final int port;
    private final List<String> command;
    private final List<String> logFiles;
    private final Duration startWithin;
    private Process process;

    /**
     * @param logFiles the files in {@code dir} the server writes, read for failure messages; the first takes its output
     * @param startWithin how long it may take to listen
     */
    public ServerProcess(
            String name, Path dir, int port, List<String> command, List<String> logFiles, Duration startWithin) {
        this.name = name;
        this.dir = dir;
        this.port = port;
        this.command = List.copyOf(command);
        this.logFiles = List.copyOf(logFiles);
        this.startWithin = startWithin;
    }

    /** A loopback port free now. */
    public static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** Starts the server and waits until it listens; its exit at start is an error with its log. */
    public void launch() throws IOException {
        process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(
                        dir.resolve(logFiles.getFirst()).toFile()))
                .start();
        Instant deadline = Instant.now().plus(startWithin);
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) throw new IllegalStateException(name + " exited at start: " + log());
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException notYet) {
                sleep(50);
            }
        }
        throw new IllegalStateException(
                name + " did not listen on port " + port + " within " + startWithin.toSeconds() + " s: " + log());
    }

    /** Kills the server abruptly (SIGKILL): every client connection is cut without a word. */
    public void kill() {
        if (process == null) return;
        process.destroyForcibly();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) throw new IllegalStateException(name + " did not die");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        process = null;
    }

    /** What the server logged, for a failure message. */
    public String log() {
        StringBuilder b = new StringBuilder();
        for (String file : logFiles) {
            try {
                Path p = dir.resolve(file);
                if (Files.exists(p)) b.append(Files.readString(p));
            } catch (IOException e) {
                b.append("(")
                        .append(file)
                        .append(" unreadable: ")
                        .append(e.getMessage())
                        .append(")");
            }
        }
        return b.toString();
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Stops the server (SIGTERM, then SIGKILL after 5 s) and removes its directory. */
    @Override
    public void close() {
        if (process != null) process.destroy();
        try {
            if (process != null && !process.waitFor(5, TimeUnit.SECONDS)) process.destroyForcibly();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        process = null;
        try (var files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

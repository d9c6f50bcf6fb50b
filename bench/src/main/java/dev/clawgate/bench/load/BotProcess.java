package dev.clawgate.bench.load;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The bot under test over its whole run, across kills: the {@link ChildJvm} running now, and for a kill test the
 * SIGKILL and the restart on the same config, data and work folder (SPEC OUT-7, OUT-12). CPU time and peak RSS add up
 * over every process the run started.
 */
final class BotProcess implements AutoCloseable {
    private static final Duration START_LIMIT = Duration.ofSeconds(60);

    private final ChildJvm.Launch launch;
    private final List<String> jvmArgs;
    private final Path workDir;
    private final Path config;
    private final List<String> echoArgs;
    private final int httpPort;
    // held for a kill and restart, and to read the figures of a process that is not being swapped out
    private final ReentrantLock lock = new ReentrantLock();
    private final List<Double> downMs = new ArrayList<>();
    private volatile ChildJvm child;
    private volatile boolean restarting;
    private volatile long readySince;
    private long cpuOfKilled;
    private long peakRssOfKilled = -1;

    private BotProcess(
            ChildJvm.Launch launch,
            List<String> jvmArgs,
            Path workDir,
            Path config,
            List<String> echoArgs,
            int httpPort) {
        this.launch = launch;
        this.jvmArgs = List.copyOf(jvmArgs);
        this.workDir = workDir;
        this.config = config;
        this.echoArgs = List.copyOf(echoArgs);
        this.httpPort = httpPort;
    }

    static BotProcess start(
            ChildJvm.Launch launch,
            List<String> jvmArgs,
            Path workDir,
            Path config,
            List<String> echoArgs,
            int httpPort)
            throws IOException {
        BotProcess p = new BotProcess(launch, jvmArgs, workDir, config, echoArgs, httpPort);
        p.child = ChildJvm.start(launch, jvmArgs, workDir, config, echoArgs);
        return p;
    }

    /** The process running now. */
    ChildJvm current() {
        return child;
    }

    /** Waits for the gateway's {@code /readyz} to answer 200; the milliseconds from its process start. */
    double awaitReady() throws IOException, InterruptedException {
        ChildJvm c = child;
        HttpClient http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        HttpRequest readyz = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + "/readyz"))
                .timeout(Duration.ofSeconds(2))
                .build();
        long deadline = c.startedNanos() + START_LIMIT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!c.alive())
                throw new IOException("the gateway exited at start (" + c.exitValue() + "):\n" + c.logTail(40));
            try {
                if (http.send(readyz, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    readySince = System.nanoTime();
                    return (readySince - c.startedNanos()) / 1e6;
                }
            } catch (IOException notYet) {
                // the HTTP server starts last; until then the port refuses
            }
            Thread.sleep(5);
        }
        throw new IOException("the gateway was not ready within " + START_LIMIT.toSeconds() + " s:\n" + c.logTail(40));
    }

    /**
     * Kills the running gateway with SIGKILL at whatever it is doing, waits until it is gone, starts it again on the
     * same config and data folder (nothing is cleaned), and waits until it is ready.
     */
    void killAndRestart() throws IOException, InterruptedException {
        lock.lock();
        try {
            restarting = true;
            ChildJvm dying = child;
            ProcessProbe probe = new ProcessProbe(dying.pid());
            long cpu = probe.cpuMillis();
            long peak = probe.peakRssKib();
            long killedAt = System.nanoTime();
            dying.kill();
            cpuOfKilled += Math.max(0, cpu);
            peakRssOfKilled = Math.max(peakRssOfKilled, peak);
            child = ChildJvm.start(launch, jvmArgs, workDir, config, echoArgs);
            awaitReady();
            downMs.add((readySince - killedAt) / 1e6);
        } finally {
            restarting = false;
            lock.unlock();
        }
    }

    /** Throws when the running process died on its own (not while a kill test restarts it). */
    void checkAlive() throws IOException {
        ChildJvm c = child;
        // in this order: a kill sets restarting before the SIGKILL, and a finished restart has swapped the child
        if (c.alive() || restarting || c != child) return;
        throw new IOException("the bot under test died:\n" + c.logTail(40));
    }

    boolean restarting() {
        return restarting;
    }

    /** {@link System#nanoTime()} when the running gateway last answered {@code /readyz}. */
    long readySince() {
        return readySince;
    }

    int kills() {
        lock.lock();
        try {
            return downMs.size();
        } finally {
            lock.unlock();
        }
    }

    /** For each kill, from the SIGKILL to the new process answering {@code /readyz}. */
    List<Double> downtimesMs() {
        lock.lock();
        try {
            return List.copyOf(downMs);
        } finally {
            lock.unlock();
        }
    }

    /** CPU time of every process of the run so far (the running one read now), in milliseconds. */
    long cpuMillis() {
        lock.lock();
        try {
            return cpuOfKilled + Math.max(0, new ProcessProbe(child.pid()).cpuMillis());
        } finally {
            lock.unlock();
        }
    }

    /** The highest resident memory any process of the run reached, in KiB; -1 when none can be read. */
    long peakRssKib() {
        lock.lock();
        try {
            return Math.max(peakRssOfKilled, new ProcessProbe(child.pid()).peakRssKib());
        } finally {
            lock.unlock();
        }
    }

    /** Stops the running process as an operator would (SIGTERM). */
    @Override
    public void close() throws InterruptedException {
        lock.lock();
        try {
            child.close();
        } finally {
            lock.unlock();
        }
    }
}

package dev.clawgate.server;

import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.server.config.ConfigException;
import dev.clawgate.server.config.ConfigLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches the config file by modification time and size (SPEC RT-3) and puts each valid change in force with
 * {@link Gateway#reload}, once the file has held still for one interval (an editor's save can pass through a truncated
 * file). A change that does not load is refused with one clear log line, and the config in force stays. Polling, not a
 * file-system watch service: it sees edits through symlinks and editors that replace the file, and costs one stat per
 * interval.
 */
public final class ConfigWatcher implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ConfigWatcher.class);

    private record Stamp(long modified, long size) {}

    private final Path file;
    private final Gateway gateway;
    private final Supplier<Map<String, String>> env;
    private final Duration every;
    private final Thread thread;
    private volatile boolean running = true;
    private volatile String lastRefusal;
    private volatile int reloads;
    private Stamp seen;
    private Stamp settling;

    public ConfigWatcher(Path file, Gateway gateway, Supplier<Map<String, String>> env, Duration every) {
        this.file = Objects.requireNonNull(file, "file");
        this.gateway = Objects.requireNonNull(gateway, "gateway");
        this.env = Objects.requireNonNull(env, "env");
        this.every = Objects.requireNonNull(every, "every");
        this.seen = stamp();
        this.thread = Thread.ofVirtual().name("config-watcher").unstarted(this::loop);
    }

    public ConfigWatcher start() {
        thread.start();
        log.info("watching {} for changes", file);
        return this;
    }

    /** Why the last change was refused, or null when the last change (if any) was put in force. */
    public String lastRefusal() {
        return lastRefusal;
    }

    /** How many changes were put in force. */
    public int reloads() {
        return reloads;
    }

    private Stamp stamp() {
        try {
            BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
            return new Stamp(a.lastModifiedTime().toMillis(), a.size());
        } catch (NoSuchFileException gone) {
            return new Stamp(-1, -1);
        } catch (IOException e) {
            log.warn("cannot read the attributes of {}: {}", file, e.toString());
            return seen;
        }
    }

    private void loop() {
        while (running) {
            try {
                Thread.sleep(every);
            } catch (InterruptedException e) {
                return;
            }
            tick();
        }
    }

    private synchronized void tick() {
        Stamp now = stamp();
        if (now.equals(seen)) {
            settling = null;
            return;
        }
        // a save in progress (truncated, half written) must not be loaded: wait until the file holds still
        if (!now.equals(settling)) {
            settling = now;
            return;
        }
        seen = now;
        settling = null;
        check();
    }

    /** Loads the file and puts it in force, or refuses it; public so a test or a signal can force a check. */
    public synchronized void check() {
        check(true);
    }

    /**
     * Re-reads the file because another node of the cluster reloaded its config (SPEC OP-2): put in force without
     * announcing it again.
     */
    public synchronized void followCluster() {
        seen = stamp();
        settling = null;
        check(false);
    }

    private void check(boolean announce) {
        if (seen.size() < 0) {
            refuse("the file is gone");
            return;
        }
        ClawgateConfig next;
        try {
            next = new ConfigLoader().load(file, env.get());
        } catch (ConfigException e) {
            refuse(e.getMessage());
            return;
        }
        try {
            gateway.reload(next, announce);
        } catch (RuntimeException e) {
            refuse(e.getMessage());
            return;
        }
        lastRefusal = null;
        reloads++;
    }

    private void refuse(String why) {
        lastRefusal = why;
        log.error("config change in {} refused, the running config stays: {}", file, why);
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
    }
}

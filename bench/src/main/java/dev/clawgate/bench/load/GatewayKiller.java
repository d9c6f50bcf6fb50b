package dev.clawgate.bench.load;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongConsumer;

/**
 * The kill test's hand on the gateway during the measured phase (SPEC OUT-7, OUT-12): on its own thread it SIGKILLs the
 * gateway as the {@link KillSchedule} says and starts it again, while the users go on sending. A closed-loop user waits
 * for their reply before the next message, so a reply the kill cut off would stall them for good: {@link #rescue} lets
 * a user go on once the restarted gateway's own store lists that reply {@code unknown_after_send} (read-only, beside
 * the running gateway), and only then.
 */
final class GatewayKiller implements AutoCloseable {
    // no reply for this long after the send, with the gateway up this long: worth asking its store
    private static final Duration STALE = Duration.ofSeconds(2);
    private static final Duration ASK_EVERY = Duration.ofMillis(500);

    private final BotProcess gateway;
    private final KillSchedule schedule;
    private final ReplyLedger ledger;
    private final Path dataDir;
    private final LongConsumer moveOn;
    private final Thread thread;
    private volatile boolean over;
    private volatile Exception failure;
    private long askedAt;
    private int rescued;

    /** @param moveOn called with a message given up on, as the closed loop is called with an answered one */
    GatewayKiller(BotProcess gateway, KillSchedule schedule, ReplyLedger ledger, Path dataDir, LongConsumer moveOn) {
        this.gateway = gateway;
        this.schedule = schedule;
        this.ledger = ledger;
        this.dataDir = dataDir;
        this.moveOn = moveOn;
        this.thread = Thread.ofPlatform().name("load-killer").daemon().unstarted(this::killAsScheduled);
    }

    void start() {
        thread.start();
    }

    private void killAsScheduled() {
        try {
            for (int k = 0; k < schedule.kills(); k++) {
                while (ledger.answered() < schedule.atReplies().get(k)) {
                    if (over) return;
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
                }
                LockSupport.parkNanos(
                        TimeUnit.MICROSECONDS.toNanos(schedule.delayMicros().get(k)));
                if (over) return;
                gateway.killAndRestart();
            }
        } catch (IOException | RuntimeException e) {
            failure = e;
        } catch (InterruptedException e) {
            failure = e;
            Thread.currentThread().interrupt();
        }
    }

    /** Throws what went wrong on the kill thread (a restart that failed). */
    void check() throws IOException {
        Exception e = failure;
        if (e != null)
            throw new IOException("the kill test could not kill and restart the gateway: " + e.getMessage(), e);
    }

    /**
     * Gives up on each message the restarted gateway lists {@code unknown_after_send}, and lets its user go on; at most
     * every {@link #ASK_EVERY}, and only when some message has waited long.
     */
    void rescue() throws IOException {
        long now = System.nanoTime();
        if (now - askedAt < ASK_EVERY.toNanos() || gateway.restarting() || now - gateway.readySince() < STALE.toNanos())
            return;
        List<Long> waiting = ledger.waiting(now - STALE.toNanos());
        if (waiting.isEmpty()) return;
        askedAt = now;
        Map<Long, GatewayAudit.Entry> store;
        try {
            store = GatewayAudit.entries(dataDir);
        } catch (SQLException e) {
            throw new IOException("the running gateway's store could not be read: " + e.getMessage(), e);
        }
        for (long n : waiting) {
            GatewayAudit.Entry e = store.get(n);
            if (e != null && KillTally.listed(e.outboxState()) && ledger.giveUp(n)) {
                rescued++;
                moveOn.accept(n);
            }
        }
    }

    /** Messages given up on so far. */
    int rescued() {
        return rescued;
    }

    /** The phase is over: no further kill starts; a restart under way is finished first. */
    @Override
    public void close() throws InterruptedException {
        over = true;
        thread.join();
    }
}

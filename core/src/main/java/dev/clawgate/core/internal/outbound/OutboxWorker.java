package dev.clawgate.core.internal.outbound;

import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.store.OutboxEntry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends outbox retries when they fall due (SPEC OUT-7): one virtual thread polls the store and hands each due entry to
 * a send of its own, one chat at a time and at most {@link #MAX_SENDS} at once, so a slow send (a platform that takes
 * 35 s to answer) holds up only its own chat, never another chat's retry. Entries of one chat keep their order: the
 * next is taken once the chat's send has ended.
 */
public final class OutboxWorker implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(OutboxWorker.class);
    /** Sends in flight at once, over all chats (DI-2's spirit: bounded). */
    public static final int MAX_SENDS = 8;

    private final Outbox outbox;
    private final Function<String, Optional<MessageAdapter>> adapters;
    private final Pacer pacer;
    private final Duration every;
    private final Semaphore sends;
    /** The chats with a send in flight: a chat's next entry waits for it. */
    private final Set<String> busyChats = ConcurrentHashMap.newKeySet();

    private final Set<Thread> senders = ConcurrentHashMap.newKeySet();
    private volatile boolean running = true;
    private final Thread thread;

    public OutboxWorker(
            Outbox outbox, Function<String, Optional<MessageAdapter>> adapters, Pacer pacer, Duration every) {
        this(outbox, adapters, pacer, every, MAX_SENDS);
    }

    /** @param maxSends sends in flight at once, over all chats */
    public OutboxWorker(
            Outbox outbox,
            Function<String, Optional<MessageAdapter>> adapters,
            Pacer pacer,
            Duration every,
            int maxSends) {
        this.outbox = Objects.requireNonNull(outbox, "outbox");
        this.adapters = Objects.requireNonNull(adapters, "adapters");
        this.pacer = Objects.requireNonNull(pacer, "pacer");
        this.every = Objects.requireNonNull(every, "every");
        if (maxSends < 1) throw new IllegalArgumentException("maxSends must be at least 1, got " + maxSends);
        this.sends = new Semaphore(maxSends);
        this.thread = Thread.ofVirtual().name("outbox-retries").unstarted(this::loop);
    }

    public OutboxWorker start() {
        thread.start();
        return this;
    }

    private void loop() {
        while (running) {
            try {
                dispatchDue();
            } catch (RuntimeException e) {
                // a store hiccup must not end retries for good: log it and try again next round
                log.error("outbox retry pass failed; trying again in {}", every, e);
            }
            try {
                Thread.sleep(every);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Starts a send for each due entry whose chat is idle, while the bound allows. */
    private void dispatchDue() {
        for (OutboxEntry e : outbox.dueForRetry()) {
            if (!running) return;
            Optional<MessageAdapter> adapter = adapters.apply(e.draft().channel());
            if (adapter.isEmpty()) continue;
            String chat = chatOf(e);
            if (!busyChats.add(chat)) continue;
            if (!sends.tryAcquire()) {
                busyChats.remove(chat);
                return;
            }
            MessageAdapter to = adapter.get();
            Thread sender = Thread.ofVirtual().name("outbox-retry-" + e.id()).unstarted(() -> send(e, to, chat));
            senders.add(sender);
            sender.start();
        }
    }

    private void send(OutboxEntry e, MessageAdapter adapter, String chat) {
        try {
            pacer.await(e.draft().channel());
            outbox.deliver(e, adapter, outbox.cancelOf(e.turnId()));
        } catch (RuntimeException failure) {
            log.error("outbox {} (turn {}): retry failed; trying again next round", e.id(), e.turnId(), failure);
        } finally {
            busyChats.remove(chat);
            sends.release();
            senders.remove(Thread.currentThread());
        }
    }

    /** One lane per conversation: channel, account and chat. */
    private static String chatOf(OutboxEntry e) {
        return String.join(
                "\u001f", e.draft().channel(), e.draft().account(), e.draft().replyTarget());
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
        try {
            thread.join(Duration.ofSeconds(5));
            for (Thread s : new ArrayList<>(senders)) s.join(Duration.ofSeconds(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

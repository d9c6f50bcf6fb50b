package dev.clawgate.core.internal.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.clawgate.core.model.Attachment;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.run.Scheduler;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.testing.ManualScheduler;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The debouncer with offers and timers racing, and its scheduler on a real executor. */
class DebouncerConcurrencyTest {

    private final List<List<InboxRecord>> batches = new CopyOnWriteArrayList<>();
    private final AtomicLong ids = new AtomicLong();

    @Test
    void racingOffersAndTimersHandOnEveryRecordExactlyOnceAndInOrder() throws InterruptedException {
        // SPEC IN-2: the scheduler's callback and offer race; no record is lost, doubled or reordered
        ManualScheduler clock = new ManualScheduler();
        Debouncer d = new Debouncer(channel -> 5L, clock, batches::add, Debouncer::isRuntimeCommand, 10_000, 7);
        int senders = 4;
        int perSender = 400;
        AtomicBoolean offering = new AtomicBoolean(true);
        Thread ticker = Thread.ofPlatform().daemon(true).start(() -> {
            while (offering.get()) clock.advanceMillis(1);
        });
        List<Thread> threads = new ArrayList<>();
        for (int s = 0; s < senders; s++) {
            String sender = "user-" + s;
            threads.add(Thread.ofVirtual().start(() -> {
                for (int i = 0; i < perSender; i++) {
                    String text = i % 97 == 0 ? "/status" : sender + " #" + i;
                    d.offer(record(sender, text, i % 50 == 49));
                }
            }));
        }
        for (Thread t : threads) t.join();
        offering.set(false);
        ticker.join();
        d.flushAll();

        List<Long> handedOn =
                batches.stream().flatMap(List::stream).map(InboxRecord::id).toList();
        assertThat(handedOn).hasSize(senders * perSender).doesNotHaveDuplicates();
        assertThat(batches).allSatisfy(batch -> {
            assertThat(batch).isNotEmpty().hasSizeLessThanOrEqualTo(7);
            assertThat(batch)
                    .extracting(r -> r.message().sender())
                    .containsOnly(batch.get(0).message().sender());
        });
        Map<String, List<Long>> textsBySender = new HashMap<>();
        batches.stream()
                .flatMap(List::stream)
                .filter(r -> !Debouncer.isRuntimeCommand(r))
                .forEach(r -> textsBySender
                        .computeIfAbsent(r.message().sender(), k -> new ArrayList<>())
                        .add(r.id()));
        assertThat(textsBySender).hasSize(senders);
        textsBySender.values().forEach(sequence -> assertThat(sequence).isSorted());
        assertThat(d.pendingKeys()).isZero();
    }

    @Test
    void executorSchedulerRunsATaskAfterItsDelayAndNeverACancelledOne() {
        // SPEC IN-2: the production scheduler keeps the quiet-period contract the debouncer relies on
        ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor();
        try {
            Scheduler scheduler = Scheduler.using(executor);
            List<String> ran = new CopyOnWriteArrayList<>();
            Scheduler.Cancellable cancelled = scheduler.schedule(Duration.ofMillis(20), () -> ran.add("cancelled"));
            scheduler.schedule(Duration.ofMillis(60), () -> ran.add("kept"));
            cancelled.cancel();

            await().atMost(Duration.ofSeconds(5)).until(() -> ran.contains("kept"));

            // a single-threaded executor runs due tasks in delay order: had the first run, it would be listed first
            assertThat(ran).containsExactly("kept");
        } finally {
            executor.shutdownNow();
        }
    }

    @Test
    void debouncerOnARealExecutorHandsOnTheBatchAfterTheQuietPeriod() {
        // SPEC IN-2: wired as in production, texts arrive as one batch once the sender is quiet
        ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor();
        try {
            Debouncer d = new Debouncer(channel -> 50L, Scheduler.using(executor), batches::add);
            InboxRecord a = record("alice", "one", false);
            InboxRecord b = record("alice", "two", false);
            d.offer(a);
            d.offer(b);

            await().atMost(Duration.ofSeconds(5)).until(() -> !batches.isEmpty());

            assertThat(batches).containsExactly(List.of(a, b));
        } finally {
            executor.shutdownNow();
        }
    }

    private InboxRecord record(String sender, String text, boolean withFile) {
        List<Attachment> files =
                withFile ? List.of(new Attachment(Attachment.Kind.FILE, "text/plain", "/tmp/notes.txt")) : List.of();
        InboundMessage m = new InboundMessage(
                null,
                "telegram",
                "default",
                sender,
                null,
                "room-1",
                null,
                null,
                ChatType.GROUP,
                true,
                Instant.parse("2025-03-01T10:00:00Z"),
                text,
                files,
                null);
        return new InboxRecord(ids.incrementAndGet(), m, SessionKey.of(m), InboxState.RECEIVED, 0, m.timestamp());
    }
}

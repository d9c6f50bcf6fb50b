package dev.clawgate.core.internal.dispatch;

import dev.clawgate.core.run.BackgroundWork;
import dev.clawgate.core.store.InboxRecord;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Best-effort notices to a record's sender ("queued", "not queued", "denied"): a failed one is logged, never thrown.
 */
final class Notices {
    private static final Logger log = LoggerFactory.getLogger(Notices.class);

    private final BiConsumer<InboxRecord, String> send;
    /** Notices are best-effort: a flood of them waits in a bounded queue, past it they are dropped (logged). */
    private final BackgroundWork senders = new BackgroundWork("clawgate-notice", 8, 1024);

    Notices(BiConsumer<InboxRecord, String> send) {
        this.send = send;
    }

    /** Sends on a background thread: the caller may hold the dispatcher's lock or be its bus loop. */
    void later(InboxRecord r, String text) {
        senders.execute(() -> now(r, text));
    }

    void now(InboxRecord r, String text) {
        try {
            send.accept(r, text);
        } catch (RuntimeException e) {
            log.warn("notice to {} failed: {}", r.message().sender(), e.toString());
        }
    }
}

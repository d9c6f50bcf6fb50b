package dev.clawgate.core.dispatch;

import dev.clawgate.core.channel.InboundSink;
import dev.clawgate.core.cron.CronFire;
import dev.clawgate.core.cron.FireSink;
import dev.clawgate.core.failpoint.Failpoints;
import dev.clawgate.core.inbound.InboundChecks;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.Store;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The channels' {@link InboundSink}: records each message and its dedupe key in one commit, and
 * only then puts it on the dispatcher's bus (SPEC IN-4, IN-1, DI-1). A store failure propagates
 * as {@link dev.clawgate.core.store.StoreException}: the channel must not acknowledge. Cron fires
 * come in the same way, their claim committed with the record ({@link #accept(CronFire)}).
 */
public final class Inbox implements InboundSink, FireSink {
    private static final Logger log = LoggerFactory.getLogger(Inbox.class);
    private static final char SEP = '\u001f';

    private final Store store;
    private final Dispatcher dispatcher;
    private final Function<InboundMessage, SessionKey> sessionOf;
    private final Duration dedupeTtl;

    public Inbox(Store store, Dispatcher dispatcher, Function<InboundMessage, SessionKey> sessionOf, Duration dedupeTtl) {
        this.store = store;
        this.dispatcher = dispatcher;
        this.sessionOf = sessionOf;
        this.dedupeTtl = dedupeTtl;
    }

    @Override
    public Acceptance accept(InboundMessage received) {
        InboundMessage message = InboundChecks.wellFormed(received);
        SessionKey session = sessionOf.apply(message);
        Optional<InboxRecord> recorded = store.recordInbound(message, session, dedupeKey(message, session), dedupeTtl);
        if (recorded.isEmpty()) {
            log.info("duplicate {} message {} from {} dropped", message.channel(), message.id(), message.sender());
            return Acceptance.DUPLICATE;
        }
        Failpoints.hit(Failpoints.INBOX_AFTER_RECORD);
        submit(recorded.get());
        return Acceptance.recorded(recorded.get().id());
    }

    /**
     * Claims a cron fire and records its message in one commit (SPEC AG-5, IN-4, OUT-12), then puts
     * the record on the bus like a channel's message. Empty when another claimer had the fire.
     */
    @Override
    public Optional<InboxRecord> accept(CronFire fire) {
        InboundMessage message = InboundChecks.wellFormed(fire.message());
        SessionKey session = sessionOf.apply(message);
        CronFire checked = new CronFire(fire.jobId(), fire.fireAt(), fire.next(), message);
        Optional<InboxRecord> recorded = store.claimFireAndRecord(checked, session, dedupeKey(message, session), dedupeTtl);
        if (recorded.isEmpty()) return recorded;
        Failpoints.hit(Failpoints.CRON_AFTER_CLAIM);
        submit(recorded.get());
        return recorded;
    }

    private void submit(InboxRecord record) {
        try {
            dispatcher.submit(record);
        } catch (InterruptedException e) {
            // recorded but not queued: it stays received and runs after a restart
            Thread.currentThread().interrupt();
        }
    }

    /** SPEC IN-3: later ack stages are read from the store, never told by the pipeline. */
    @Override
    public Optional<dev.clawgate.core.store.InboxState> recordState(long inboxId) {
        return store.inbox(inboxId).map(InboxRecord::state);
    }

    /**
     * Channel + account + peer + session + platform message id (SPEC IN-1); null when the message
     * has no platform id, so it is never deduplicated. The separator cannot occur in ids.
     */
    static String dedupeKey(InboundMessage m, SessionKey s) {
        if (m.id() == null || m.id().isBlank()) return null;
        return String.join(String.valueOf(SEP), m.channel(), m.account(), m.sender(), s.replyTarget(),
                s.threadId() == null ? "" : s.threadId(), m.id());
    }
}

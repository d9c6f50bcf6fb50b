package dev.clawgate.core.internal.inbound;

import dev.clawgate.core.channel.InboundSink;
import dev.clawgate.core.cron.CronFire;
import dev.clawgate.core.cron.FireSink;
import dev.clawgate.core.failpoint.Failpoints;
import dev.clawgate.core.inspect.TurnInspector;
import dev.clawgate.core.internal.dispatch.Dispatcher;
import dev.clawgate.core.internal.run.InboundChecks;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.Store;
import dev.clawgate.core.store.UnreadableInbound;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.IntSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The channels' {@link InboundSink}: records each message and its dedupe key in one commit, and only then puts it on
 * the dispatcher's bus (SPEC IN-4, IN-1, DI-1). A store failure propagates as
 * {@link dev.clawgate.core.store.StoreException}: the channel must not acknowledge. Cron fires come in the same way,
 * their claim committed with the record ({@link #accept(CronFire)}). A message longer than {@code messages.max_chars}
 * is refused here, before its text is stored (SPEC OP-10): only a bounded refusal is recorded.
 */
public final class Inbox implements InboundSink, FireSink {
    private static final Logger log = LoggerFactory.getLogger(Inbox.class);
    private static final char SEP = '\u001f';

    private final Store store;
    private final Dispatcher dispatcher;
    private final Function<InboundMessage, SessionKey> sessionOf;
    private final Duration dedupeTtl;
    private final IntSupplier maxChars;
    private final Consumer<UnreadableInbound> onUnreadable;
    private final TurnInspector inspector;

    /** With the default {@code messages.max_chars}. */
    public Inbox(
            Store store, Dispatcher dispatcher, Function<InboundMessage, SessionKey> sessionOf, Duration dedupeTtl) {
        this(store, dispatcher, sessionOf, dedupeTtl, () -> InboundChecks.MAX_TEXT_CHARS);
    }

    /** @param maxChars {@code messages.max_chars}, read at each message so a config reload applies */
    public Inbox(
            Store store,
            Dispatcher dispatcher,
            Function<InboundMessage, SessionKey> sessionOf,
            Duration dedupeTtl,
            IntSupplier maxChars) {
        this(store, dispatcher, sessionOf, dedupeTtl, maxChars, u -> {});
    }

    /**
     * @param maxChars {@code messages.max_chars}, read at each message so a config reload applies
     * @param onUnreadable told of each unreadable update when it is first recorded (a redelivery is not told again),
     *     e.g. to count it on {@code /metrics}
     */
    public Inbox(
            Store store,
            Dispatcher dispatcher,
            Function<InboundMessage, SessionKey> sessionOf,
            Duration dedupeTtl,
            IntSupplier maxChars,
            Consumer<UnreadableInbound> onUnreadable) {
        this(store, dispatcher, sessionOf, dedupeTtl, maxChars, onUnreadable, null);
    }

    /** @param inspector records each duplicate delivery dedupe dropped (SPEC OP-8, IN-1); null: none */
    public Inbox(
            Store store,
            Dispatcher dispatcher,
            Function<InboundMessage, SessionKey> sessionOf,
            Duration dedupeTtl,
            IntSupplier maxChars,
            Consumer<UnreadableInbound> onUnreadable,
            TurnInspector inspector) {
        this.inspector = inspector;
        this.store = store;
        this.dispatcher = dispatcher;
        this.sessionOf = sessionOf;
        this.dedupeTtl = dedupeTtl;
        this.maxChars = maxChars;
        this.onUnreadable = onUnreadable;
    }

    @Override
    public Acceptance accept(InboundMessage received) {
        Optional<String> tooLong = InboundChecks.tooLong(received.text(), maxChars.getAsInt());
        if (tooLong.isPresent()) return refuse(received, tooLong.get());
        InboundMessage message = InboundChecks.wellFormed(received);
        SessionKey session = sessionOf.apply(message);
        String key = dedupeKey(message, session);
        Optional<InboxRecord> recorded = store.inbox().record(message, session, key, dedupeTtl);
        if (recorded.isEmpty()) {
            log.info("duplicate {} message {} from {} dropped", message.channel(), message.id(), message.sender());
            if (inspector != null) inspector.duplicate(message, session, key);
            return Acceptance.DUPLICATE;
        }
        if (inspector != null) inspector.recorded(key, recorded.get().id());
        Failpoints.hit(Failpoints.INBOX_AFTER_RECORD);
        submit(recorded.get());
        return Acceptance.recorded(recorded.get().id());
    }

    /**
     * SPEC OP-10: records what {@link InboundChecks#refusalRecord} keeps (its dedupe key too, so a redelivery is a
     * duplicate, not a second notice), fails it and tells the sender; never queued.
     */
    private Acceptance refuse(InboundMessage received, String reason) {
        InboundMessage bounded = InboundChecks.refusalRecord(received);
        SessionKey session = sessionOf.apply(bounded);
        Optional<InboxRecord> recorded = store.inbox().record(bounded, session, dedupeKey(bounded, session), dedupeTtl);
        if (recorded.isEmpty()) return Acceptance.DUPLICATE;
        log.info("{} message {} from {} refused: {}", received.channel(), received.id(), received.sender(), reason);
        dispatcher.refuse(recorded.get(), reason);
        return Acceptance.refused(recorded.get().id(), reason);
    }

    /**
     * Claims a cron fire and records its message in one commit (SPEC AG-5, IN-4, OUT-12), then puts the record on the
     * bus like a channel's message. Empty when another claimer had the fire.
     */
    @Override
    public Optional<InboxRecord> accept(CronFire fire) {
        InboundMessage message = InboundChecks.wellFormed(fire.message());
        SessionKey session = sessionOf.apply(message);
        CronFire checked = new CronFire(fire.jobId(), fire.fireAt(), fire.next(), message);
        Optional<InboxRecord> recorded =
                store.claimFireAndRecord(checked, session, dedupeKey(message, session), dedupeTtl);
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

    /**
     * SPEC IN-4, CH-0: an update its channel could not read is kept as failed (raw payload bounded, {@code clawgate
     * inbox} shows it), never dispatched; the channel acks past it once this returns.
     */
    @Override
    public void unreadable(UnreadableInbound update) {
        boolean fresh = store.inbox().recordUnreadable(update);
        if (fresh) {
            log.warn(
                    "{} [{}]: could not read update {} ({} characters): {}; recorded as failed and skipped"
                            + " (see 'clawgate inbox')",
                    update.channel(),
                    update.account(),
                    update.platformRef(),
                    update.rawLength(),
                    update.reason());
            onUnreadable.accept(update);
        }
    }

    /** SPEC IN-3: later ack stages are read from the store, never told by the pipeline. */
    @Override
    public Optional<dev.clawgate.core.store.InboxState> recordState(long inboxId) {
        return store.inbox().state(inboxId);
    }

    /**
     * Channel + account + peer + session + platform message id (SPEC IN-1); null when the message has no platform id,
     * so it is never deduplicated. The separator cannot occur in ids.
     */
    static String dedupeKey(InboundMessage m, SessionKey s) {
        if (m.id() == null || m.id().isBlank()) return null;
        return String.join(
                String.valueOf(SEP),
                m.channel(),
                m.account(),
                m.sender(),
                s.replyTarget(),
                s.threadId() == null ? "" : s.threadId(),
                m.id());
    }
}

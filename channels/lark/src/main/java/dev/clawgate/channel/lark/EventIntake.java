package dev.clawgate.channel.lark;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.channel.InboundSink;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.store.StoreException;
import dev.clawgate.core.store.UnreadableInbound;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * Takes one proven v2.0 event into the inbox, whichever way it came (the request URL or the long connection; SPEC
 * CH-11, IN-1, IN-3): an {@code im.message.receive_v1} is read and committed, and only then is the event
 * {@link Outcome#TAKEN} (answered 200 / acked). A redelivered event is known by its {@code event_id} (the last 10 000
 * kept) and taken without being read again; the inbox also dedupes its {@code message_id}. A store failure is
 * {@link Outcome#RETRY}: not acked, so the platform pushes it again.
 */
final class EventIntake {
    enum Outcome {
        TAKEN,
        RETRY,
        NOT_STARTED
    }

    private static final int EVENTS_KEPT = 10_000;

    private final MessageReader reader;
    private final Supplier<InboundSink> sink;
    private final ReentrantLock seenLock = new ReentrantLock();
    private final Map<String, Boolean> seen = new LinkedHashMap<>(256, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > EVENTS_KEPT;
        }
    };

    EventIntake(MessageReader reader, Supplier<InboundSink> sink) {
        this.reader = reader;
        this.sink = sink;
    }

    /** @param root a v2.0 event, already proven to come from the platform */
    Outcome take(JsonNode root) {
        InboundSink target = sink.get();
        if (target == null) return Outcome.NOT_STARTED;
        String eventId = root.path("header").path("event_id").asText("");
        if (!eventId.isEmpty() && seen(eventId)) return Outcome.TAKEN;
        try {
            if ("im.message.receive_v1"
                    .equals(root.path("header").path("event_type").asText())) {
                accept(target, root);
            }
        } catch (StoreException | IllegalStateException e) {
            return Outcome.RETRY;
        }
        if (!eventId.isEmpty()) remember(eventId);
        return Outcome.TAKEN;
    }

    private void accept(InboundSink target, JsonNode root) {
        MessageReader.Reading r = reader.read(root);
        switch (r) {
            case MessageReader.Reading.Ignored ignored -> {}
            case MessageReader.Reading.Unreadable u ->
                target.unreadable(UnreadableInbound.of(
                        LarkChannel.NAME, InboundMessage.DEFAULT_ACCOUNT, u.ref(), u.reason(), u.raw()));
            case MessageReader.Reading.Message m -> {
                try {
                    target.accept(m.message());
                } catch (StoreException | IllegalStateException retry) {
                    throw retry;
                } catch (RuntimeException refused) {
                    target.unreadable(UnreadableInbound.of(
                            LarkChannel.NAME,
                            InboundMessage.DEFAULT_ACCOUNT,
                            m.message().id(),
                            "the gateway could not take it: " + refused,
                            m.message().rawPayload()));
                }
            }
        }
    }

    private boolean seen(String eventId) {
        seenLock.lock();
        try {
            return seen.containsKey(eventId);
        } finally {
            seenLock.unlock();
        }
    }

    private void remember(String eventId) {
        seenLock.lock();
        try {
            seen.put(eventId, Boolean.TRUE);
        } finally {
            seenLock.unlock();
        }
    }
}

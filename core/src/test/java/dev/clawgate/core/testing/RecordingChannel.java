package dev.clawgate.core.testing;

import dev.clawgate.core.channel.Channel;
import dev.clawgate.core.channel.InboundSink;
import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.outbound.MessageReceipt;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.outbound.ReplyStream;
import dev.clawgate.core.outbound.TurnOutcome;
import dev.clawgate.core.run.CancelToken;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A channel for core tests that records every send, streamed delta and turn end. */
public final class RecordingChannel implements Channel {
    public record Ended(long turnId, TurnOutcome outcome) {}

    private final String name;
    private final boolean streams;
    public final List<OutboundMessage> sent = new CopyOnWriteArrayList<>();
    public final List<String> deltas = new CopyOnWriteArrayList<>();
    public final List<Ended> ended = new CopyOnWriteArrayList<>();
    /** Each typing indicator the turn asked for (SPEC RP-5). */
    public final List<OutboundTarget> typing = new CopyOnWriteArrayList<>();
    /** Each reply stream (live preview) the turn opened (SPEC OUT-9). */
    public final List<OutboundTarget> streamsOpened = new CopyOnWriteArrayList<>();
    /** Streams the turn discarded before its final reply (SPEC RP-4 on). */
    public final List<OutboundTarget> streamsDiscarded = new CopyOnWriteArrayList<>();
    /** Reasoning deltas the turn streamed into the preview (SPEC RP-4). */
    public final List<String> reasoning = new CopyOnWriteArrayList<>();
    /** What the adapter answers to {@code durability()} (SPEC OUT-6); false plays a connection-bound channel. */
    public volatile boolean durable = true;
    /** What the adapter answers to {@code toolSummaryInTranscript()} (SPEC RP-3). */
    public volatile boolean toolSummary = true;
    /**
     * What the adapter declares (SPEC OUT-4): it records everything, so by default text, quotes, threads, media and
     * hooks.
     */
    public volatile java.util.Set<dev.clawgate.core.outbound.Capability> capabilities = java.util.EnumSet.of(
            dev.clawgate.core.outbound.Capability.TEXT,
            dev.clawgate.core.outbound.Capability.REPLY_TO,
            dev.clawgate.core.outbound.Capability.THREAD,
            dev.clawgate.core.outbound.Capability.MEDIA,
            dev.clawgate.core.outbound.Capability.MESSAGE_SENDING_HOOKS);
    /** When set, the next sends fail with it (then it is cleared): a platform outage. */
    public volatile dev.clawgate.core.outbound.DeliveryException failNext;

    public RecordingChannel(String name, boolean streams) {
        this.name = name;
        this.streams = streams;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void start(InboundSink sink) {}

    @Override
    public void stop() {}

    public List<String> texts(OutboundMessage.Kind kind) {
        return sent.stream()
                .filter(m -> m.kind() == kind)
                .map(OutboundMessage::text)
                .toList();
    }

    @Override
    public MessageAdapter messageAdapter() {
        return new MessageAdapter() {
            @Override
            public MessageReceipt send(OutboundMessage message, CancelToken cancel)
                    throws dev.clawgate.core.outbound.DeliveryException {
                dev.clawgate.core.outbound.DeliveryException failure = failNext;
                if (failure != null) {
                    failNext = null;
                    throw failure;
                }
                sent.add(message);
                return MessageReceipt.of("m" + sent.size());
            }

            @Override
            public boolean toolSummaryInTranscript() {
                return toolSummary;
            }

            @Override
            public java.util.Set<dev.clawgate.core.outbound.Capability> capabilities() {
                return capabilities;
            }

            @Override
            public dev.clawgate.core.outbound.Durability durability() {
                return durable
                        ? dev.clawgate.core.outbound.Durability.BEST_EFFORT
                        : dev.clawgate.core.outbound.Durability.DISABLED;
            }

            @Override
            public ReplyStream openStream(OutboundTarget target) {
                if (!streams) return ReplyStream.NONE;
                streamsOpened.add(target);
                return new ReplyStream() {
                    @Override
                    public void delta(String text) {
                        deltas.add(text);
                    }

                    @Override
                    public void reasoning(String text) {
                        reasoning.add(text);
                    }

                    @Override
                    public void discard() {
                        streamsDiscarded.add(target);
                    }
                };
            }

            @Override
            public void typing(OutboundTarget target) {
                typing.add(target);
            }

            @Override
            public void turnEnded(OutboundTarget target, long turnId, TurnOutcome outcome) {
                ended.add(new Ended(turnId, outcome));
            }
        };
    }
}

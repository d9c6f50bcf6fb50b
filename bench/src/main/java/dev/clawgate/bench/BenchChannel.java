package dev.clawgate.bench;

import dev.clawgate.core.channel.Channel;
import dev.clawgate.core.channel.InboundSink;
import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.outbound.MessageReceipt;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.run.CancelToken;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An in-memory channel: its adapter counts every send and hands each reply to whoever waits for the answer to that
 * inbound message. It keeps only the replies still awaited (SPEC OP-7).
 */
public final class BenchChannel implements Channel {
    public static final String NAME = "bench";

    private final Map<String, CompletableFuture<OutboundMessage>> waiting = new ConcurrentHashMap<>();
    private final Map<OutboundMessage.Kind, AtomicLong> sends = new EnumMap<>(OutboundMessage.Kind.class);
    private final AtomicLong unawaited = new AtomicLong();
    private final MessageAdapter adapter = this::deliver;

    public BenchChannel() {
        for (OutboundMessage.Kind k : OutboundMessage.Kind.values()) sends.put(k, new AtomicLong());
    }

    @Override
    public String name() {
        return NAME;
    }

    /** Nothing to listen to: the benchmark hands messages to the inbox itself. */
    @Override
    public void start(InboundSink sink) {}

    @Override
    public void stop() {
        waiting.values().forEach(f -> f.completeExceptionally(new IllegalStateException("channel stopped")));
        waiting.clear();
    }

    @Override
    public MessageAdapter messageAdapter() {
        return adapter;
    }

    /** Registers interest in the reply to inbound message {@code messageId}; call before the message is accepted. */
    public CompletableFuture<OutboundMessage> expectReply(String messageId) {
        CompletableFuture<OutboundMessage> f = new CompletableFuture<>();
        if (waiting.putIfAbsent(Objects.requireNonNull(messageId, "messageId"), f) != null) {
            throw new IllegalStateException("already waiting for the reply to " + messageId);
        }
        return f;
    }

    /** Stops waiting for a reply that never came. */
    public void forget(String messageId) {
        waiting.remove(messageId);
    }

    /** Sends of one kind so far. */
    public long sends(OutboundMessage.Kind kind) {
        return sends.get(kind).get();
    }

    /** Sends nobody waited for (a second message for one turn, a reply after its waiter gave up). */
    public long unawaitedSends() {
        return unawaited.get();
    }

    private MessageReceipt deliver(OutboundMessage message, CancelToken cancel) {
        sends.get(message.kind()).incrementAndGet();
        String answers = message.target().inReplyToMessageId();
        CompletableFuture<OutboundMessage> f = answers == null ? null : waiting.remove(answers);
        if (f == null) {
            unawaited.incrementAndGet();
        } else {
            f.complete(message);
        }
        return MessageReceipt.of("out-" + message.turnId());
    }
}

package dev.clawgate.core.internal.turn;

import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.internal.outbound.Delivery;
import dev.clawgate.core.internal.outbound.DeliveryOutcome;
import dev.clawgate.core.internal.render.BlockStreaming;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.outbound.ReplyStream;
import dev.clawgate.core.render.BlockChunker;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.run.Scheduler;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Block streaming of one turn's reply (SPEC OUT-2): the sanitised text is fed to a {@link BlockChunker}, and each block
 * it cuts is sent at once, in order, as a {@link OutboundMessage.Kind#BLOCK} through the direct delivery: best-effort,
 * never written to the outbox, never replayed. At the end, {@link #finish} stops the stream and hands back what no
 * block carried, for the final reply.
 */
final class BlockReplies implements ReplyStream {
    private static final Logger log = LoggerFactory.getLogger(BlockReplies.class);
    /** How long the end of a turn waits for blocks still being sent before the final reply goes. */
    private static final Duration DRAIN = Duration.ofSeconds(60);

    private final BlockChunker chunker;
    private final ExecutorService sender = Executors.newSingleThreadExecutor(
            Thread.ofVirtual().name("block-sender").factory());
    private final Delivery delivery;
    private final MessageAdapter adapter;
    private final OutboundTarget target;
    private final ReplyShape shape;
    private final long turnId;
    private final CancelToken cancel;
    /** Blocks handed to the sender; written under the chunker's lock, read after {@link #finish}. */
    private volatile int handedOff;
    /** Whether the reply's first text came (it carries the response prefix); written by the one producer thread. */
    private boolean started;

    private Runnable beforeFirstBlock = () -> {};

    /** What the blocks did not carry, and how many of the turn's messages they were. */
    record Rest(String text, int blocksSent) {}

    BlockReplies(
            BlockStreaming settings,
            Scheduler scheduler,
            Delivery delivery,
            MessageAdapter adapter,
            OutboundTarget target,
            ReplyShape shape,
            long turnId,
            CancelToken cancel) {
        this.delivery = delivery;
        this.adapter = adapter;
        this.target = target;
        this.shape = shape;
        this.turnId = turnId;
        this.cancel = cancel;
        this.chunker = new BlockChunker(settings, adapter.chunkLimits(), scheduler, new Random(), this::handOff);
    }

    /**
     * The first text carries the response prefix (SPEC OUT-3) into the chunker, so the first block is cut with the
     * prefix counted and never outgrows {@code max_chars} or the channel limit.
     */
    @Override
    public void delta(String text) {
        if (!started && text != null && !text.isBlank()) {
            started = true;
            beforeFirstBlock.run();
            text = shape.text(0, text.stripLeading());
        }
        chunker.push(text);
    }

    /**
     * Runs once, on the producer's thread, before the reply's first text can become a block (SPEC RP-4 on: reasoning
     * first).
     */
    void beforeFirstBlock(Runnable action) {
        this.beforeFirstBlock = action;
    }

    /**
     * A model step ended before its tool calls: the model's message (and its text) ended, a boundary in both break
     * modes.
     */
    void stepEnded() {
        chunker.messageEnd();
    }

    /**
     * Ends the stream: nothing more is cut, the blocks already cut are sent (waited for), and the text no block carried
     * comes back for the final reply, which the outbox keeps.
     */
    Rest finish() {
        String rest = chunker.takeUnsent();
        sender.shutdown();
        try {
            if (!sender.awaitTermination(DRAIN.toMillis(), TimeUnit.MILLISECONDS)) {
                log.warn("turn {}: streamed blocks still sending after {}; the final reply goes anyway", turnId, DRAIN);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return new Rest(rest, handedOff);
    }

    /** The run was cancelled: blocks not yet sent are dropped (SPEC OUT-11). */
    void cancel() {
        chunker.cancel();
        sender.shutdownNow();
    }

    /** Called under the chunker's lock: numbers the block and queues it, so sends never hold the lock. */
    private void handOff(String block) {
        int index = handedOff++;
        // the first block already carries the prefix: it came in with the first text
        OutboundMessage message = new OutboundMessage(
                target, block, OutboundMessage.Kind.BLOCK, turnId, List.of(), shape.options(index), 0, "b" + index);
        // the turn's phase listener goes along: the block's send is part of its trace (SPEC OP-9)
        sender.execute(dev.clawgate.core.internal.trace.TurnPhases.carry(() -> {
            DeliveryOutcome outcome = delivery.deliver(message, adapter, cancel);
            if (!(outcome instanceof DeliveryOutcome.Sent))
                log.info("turn {}: block {} not delivered: {}", turnId, index, outcome);
        }));
    }
}

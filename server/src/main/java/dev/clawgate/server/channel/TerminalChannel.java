package dev.clawgate.server.channel;

import dev.clawgate.core.channel.Channel;
import dev.clawgate.core.channel.ChannelHealth;
import dev.clawgate.core.channel.InboundSink;
import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.outbound.MessageReceipt;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.outbound.ReplyStream;
import dev.clawgate.core.outbound.TurnOutcome;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.store.StoreException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Chat in the console (SPEC CH-1). The sender is the OS user, the target {@code local} (SPEC HI-1). Interactive: a
 * prompt, replies streamed as they are written. Piped: one message per line, each reply printed whole; at the end of
 * input it waits until every turn it started has ended and printed, then {@link #finished()} opens.
 */
public final class TerminalChannel implements Channel {
    public static final String NAME = "terminal";
    private final BufferedReader in;
    private final PrintStream out;
    private final boolean interactive;
    private final String user;
    private final ReentrantLock printLock = new ReentrantLock();
    private final Set<String> open = ConcurrentHashMap.newKeySet();
    private final CountDownLatch finished = new CountDownLatch(1);
    private volatile boolean inputEnded;
    private volatile boolean streamedThisTurn;
    private volatile Thread reader;
    private volatile String failure;

    public TerminalChannel(InputStream in, PrintStream out, boolean interactive, String user) {
        this.in = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        this.out = out;
        this.interactive = interactive;
        this.user = user;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean ownerChannel() {
        return true;
    }

    /** SPEC IN-3: standard input has nothing to acknowledge, so no ack policy is declared (and none needs a proof). */
    @Override
    public java.util.Set<dev.clawgate.core.channel.AckPolicy> ackPolicies() {
        return java.util.Set.of();
    }

    @Override
    public boolean requestResponse() {
        return true;
    }

    @Override
    public void start(InboundSink sink) {
        if (interactive) {
            out.println("Clawgate terminal chat. Type a message; /new starts over, /stop stops a reply, Ctrl-D quits.");
            prompt();
        }
        reader = Thread.ofVirtual().name("clawgate-terminal").start(() -> readLoop(sink));
    }

    private void readLoop(InboundSink sink) {
        try {
            String line;
            while ((line = in.readLine()) != null) {
                if (line.isBlank()) {
                    if (interactive) prompt();
                    continue;
                }
                String id = "term-" + UUID.randomUUID();
                open.add(id);
                InboundMessage m = InboundMessage.builder()
                        .id(id)
                        .channel(NAME)
                        .sender(user)
                        .senderName(user)
                        .replyTarget("local")
                        .text(line)
                        .build();
                try {
                    InboundSink.Acceptance accepted = sink.accept(m);
                    // SPEC OP-10: a refused line runs no turn; say why and go on with the next one
                    if (accepted.refused()) {
                        open.remove(id);
                        print("⚠️ I could not take that message: " + accepted.refusal() + ".");
                        if (interactive) prompt();
                    }
                } catch (StoreException e) {
                    open.remove(id);
                    print("⚠️ Could not record your message (" + e.getMessage() + "). Please try again.");
                }
            }
        } catch (IOException e) {
            failure = "reading the terminal failed: " + e.getMessage();
        } finally {
            inputEnded = true;
            maybeFinish();
        }
    }

    private void maybeFinish() {
        if (inputEnded && open.isEmpty()) finished.countDown();
    }

    /** Opens once input has ended and every message read has had its turn end. */
    public void awaitFinished() throws InterruptedException {
        finished.await();
    }

    public boolean finished() {
        return finished.getCount() == 0;
    }

    @Override
    public void stop() {
        finished.countDown();
    }

    @Override
    public ChannelHealth health() {
        return failure == null ? ChannelHealth.UP : ChannelHealth.down(failure);
    }

    /** SPEC SP-1: what this channel renders, for the prompt's Channel Capabilities section. */
    @Override
    public String formatGuidance() {
        return "The terminal shows plain text: no Markdown, no media markers. Keep lines readable.";
    }

    @Override
    public MessageAdapter messageAdapter() {
        return adapter;
    }

    private void prompt() {
        printLock.lock();
        try {
            out.print("> ");
            out.flush();
        } finally {
            printLock.unlock();
        }
    }

    private void print(String text) {
        printLock.lock();
        try {
            out.println(text);
            out.flush();
        } finally {
            printLock.unlock();
        }
    }

    private final MessageAdapter adapter = new MessageAdapter() {
        @Override
        public MessageReceipt send(OutboundMessage message, CancelToken cancel) {
            if (message.kind() == OutboundMessage.Kind.FINAL && streamedThisTurn) {
                print("");
            } else {
                print(message.text());
            }
            return MessageReceipt.of("terminal-" + message.turnId());
        }

        /** SPEC OUT-6: connection-bound, durability disabled: a replayed reply would have no connection to reach. */
        @Override
        public dev.clawgate.core.outbound.Durability durability() {
            return dev.clawgate.core.outbound.Durability.DISABLED;
        }

        @Override
        public int textLimit() {
            return Integer.MAX_VALUE;
        }

        @Override
        public ReplyStream openStream(OutboundTarget target) {
            streamedThisTurn = false;
            if (!interactive) return ReplyStream.NONE;
            return text -> {
                printLock.lock();
                try {
                    streamedThisTurn = true;
                    out.print(text);
                    out.flush();
                } finally {
                    printLock.unlock();
                }
            };
        }

        @Override
        public void turnEnded(OutboundTarget target, long turnId, TurnOutcome outcome) {
            if (outcome == TurnOutcome.CANCELLED && streamedThisTurn) print("");
            streamedThisTurn = false;
            open.remove(String.valueOf(target.inReplyToMessageId()));
            if (interactive && !inputEnded) prompt();
            maybeFinish();
        }
    };
}

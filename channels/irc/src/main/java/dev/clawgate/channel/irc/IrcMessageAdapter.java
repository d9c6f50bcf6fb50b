package dev.clawgate.channel.irc;

import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.outbound.Capability;
import dev.clawgate.core.outbound.DeliveryException;
import dev.clawgate.core.outbound.MessageReceipt;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.render.ChunkLimits;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.run.CancelledException;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Sends replies as PRIVMSG lines (SPEC CH-7, OUT-4): Markdown flattened, code fences as their lines, each line cut so
 * the line the server relays ({@code :nick!user@host PRIVMSG target :text}) stays within 512 bytes, UTF-8 never cut
 * inside a character, every line through flood control.
 *
 * <p>Capabilities: text, sending hooks, and splitsPayloads (one payload is as many PRIVMSG lines as it needs). Plain
 * IRC has no message ids (IRCv3 {@code msgid} needs message-tags, which ngircd lacks and this client does not ask for):
 * a receipt's ids are made from the payload's idempotency key, so the outbox recognises a replay, but IRC itself cannot
 * be asked what arrived, so there is no reconcileUnknownSend, and inbound lines cannot be deduplicated across a
 * reconnect. A send cut after its first line went out is ambiguous: {@code unknown_after_send}, never resent blindly.
 */
final class IrcMessageAdapter implements MessageAdapter {
    static final int MAX_LINE = 512;
    private final Supplier<IrcClient> client;
    private final int textLimit;

    IrcMessageAdapter(Supplier<IrcClient> client, int textLimit) {
        this.client = client;
        this.textLimit = textLimit;
    }

    @Override
    public Set<Capability> capabilities() {
        return EnumSet.of(Capability.TEXT, Capability.MESSAGE_SENDING_HOOKS, Capability.SPLITS_PAYLOADS);
    }

    @Override
    public int textLimit() {
        return textLimit;
    }

    /** Payloads are cut by UTF-8 bytes, as IRC counts; each is then cut into lines. */
    @Override
    public ChunkLimits chunkLimits() {
        return ChunkLimits.utf8Bytes(textLimit, 0);
    }

    /** The IRC lines {@code text} is sent as, to {@code target}, with the client's current prefix. */
    List<String> linesFor(String target, String text) {
        int budget = MAX_LINE - client.get().overhead(target);
        List<String> lines = new ArrayList<>();
        for (String line : IrcText.lines(text)) lines.addAll(IrcText.split(line, budget));
        return lines;
    }

    @Override
    public MessageReceipt send(OutboundMessage message, CancelToken cancel) throws DeliveryException {
        String target = message.target().replyTarget();
        if (target.isBlank() || target.contains(" ") || target.contains(",")) {
            throw new DeliveryException("not an IRC nick or channel: '" + target + "'", true, null);
        }
        List<String> lines = linesFor(target, message.text());
        if (lines.isEmpty())
            throw new DeliveryException("the reply has no text IRC can show (IRC carries no media)", true, null);
        if (!client.get().connected())
            throw new DeliveryException(
                    "not connected to the IRC server; the reply waits for the reconnect", false, null);
        String base = "irc:" + target + ":" + message.idempotencyKey();
        List<String> ids = new ArrayList<>();
        List<MessageReceipt.Part> parts = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (cancel.isCancelled()) {
                if (i == 0) throw new CancelledException(cancel.reason());
                throw cut(i, lines.size(), "the run was aborted", null);
            }
            try {
                client.get().privmsg(target, lines.get(i));
            } catch (IOException e) {
                if (i == 0)
                    throw new DeliveryException(
                            "the IRC connection failed before the reply went out: " + e.getMessage(), false, e);
                throw cut(i, lines.size(), e.getMessage(), e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                if (i == 0) throw new CancelledException("interrupted before the reply went out");
                throw cut(i, lines.size(), "interrupted", e);
            }
            String id = base + "/" + i;
            ids.add(id);
            parts.add(new MessageReceipt.Part(MessageReceipt.PartKind.TEXT, id));
        }
        return new MessageReceipt(ids.getFirst(), ids, parts, null, null, null, null, Instant.now(), null);
    }

    private static DeliveryException cut(int sent, int total, String why, Throwable cause) {
        return new DeliveryException(
                "unknown_after_send: " + sent + " of " + total + " IRC lines went out before the send was cut (" + why
                        + "); IRC has no message ids to check what arrived",
                DeliveryException.Kind.AMBIGUOUS,
                null,
                cause);
    }
}

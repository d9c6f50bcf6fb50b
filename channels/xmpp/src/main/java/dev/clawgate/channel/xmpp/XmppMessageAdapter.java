package dev.clawgate.channel.xmpp;

import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.outbound.Capability;
import dev.clawgate.core.outbound.DeliveryException;
import dev.clawgate.core.outbound.MessageReceipt;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.run.CancelledException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.jivesoftware.smack.SmackException;
import org.jivesoftware.smack.packet.Message;
import org.jivesoftware.smack.packet.StanzaFactory;
import org.jivesoftware.smack.sm.StreamManagementException;
import org.jivesoftware.smack.tcp.XMPPTCPConnection;
import org.jivesoftware.smackx.chatstates.ChatState;
import org.jivesoftware.smackx.chatstates.packet.ChatStateExtension;
import org.jxmpp.jid.EntityBareJid;
import org.jxmpp.jid.impl.JidCreate;
import org.jxmpp.stringprep.XmppStringprepException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends replies as XMPP messages (SPEC CH-8, OUT-4): {@code chat} to a JID, {@code groupchat} to a joined room, plain
 * text, one message per payload (payloads arrive cut to {@code text_limit}). Each message's stanza id follows from the
 * payload's idempotency key, so a replay has the same id and the receipt names it (SPEC OUT-8). With stream management
 * (XEP-0198) a send returns only once the server acknowledged the stanza; one the server has not acknowledged when the
 * connection drops stays in Smack's queue and is sent again after the reconnect, so it is reported
 * {@code unknown_after_send} rather than resent by the outbox. Typing is XEP-0085 {@code composing}.
 */
final class XmppMessageAdapter implements MessageAdapter {
    private static final Logger log = LoggerFactory.getLogger(XmppMessageAdapter.class);
    static final Duration ACK_WAIT = Duration.ofSeconds(20);
    private final Supplier<XmppClient> client;
    private final int textLimit;

    XmppMessageAdapter(Supplier<XmppClient> client, int textLimit) {
        this.client = client;
        this.textLimit = textLimit;
    }

    @Override
    public Set<Capability> capabilities() {
        return EnumSet.of(Capability.TEXT, Capability.MESSAGE_SENDING_HOOKS);
    }

    @Override
    public int textLimit() {
        return textLimit;
    }

    /** The stanza id of a payload: the same for the same payload to the same target (SPEC OUT-8). */
    static String stanzaId(String target, String idempotencyKey) {
        try {
            byte[] h = MessageDigest.getInstance("SHA-256")
                    .digest((target + "\n" + idempotencyKey).getBytes(StandardCharsets.UTF_8));
            return "cg-" + HexFormat.of().formatHex(h, 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JVM", e);
        }
    }

    private static EntityBareJid jid(String target) throws DeliveryException {
        try {
            return JidCreate.entityBareFrom(target);
        } catch (XmppStringprepException | IllegalArgumentException e) {
            throw new DeliveryException("not an XMPP address: '" + target + "'", true, e);
        }
    }

    @Override
    public MessageReceipt send(OutboundMessage message, CancelToken cancel) throws DeliveryException {
        String target = message.target().replyTarget();
        EntityBareJid to = jid(target);
        String text = XmppText.outbound(message.text());
        if (text.isBlank())
            throw new DeliveryException(
                    "the reply has no text XMPP can show (this channel sends no " + "media)", true, null);
        XmppClient c = client.get();
        if (!c.online())
            throw new DeliveryException(
                    "not connected to the XMPP server; the reply waits for the " + "reconnect", false, null);
        if (cancel.isCancelled()) throw new CancelledException(cancel.reason());
        String id = stanzaId(target, message.idempotencyKey());
        boolean room = c.isRoom(target);
        var builder = new StanzaFactory(() -> id)
                .buildMessageStanza()
                .to(to)
                .ofType(room ? Message.Type.groupchat : Message.Type.chat)
                .setBody(text);
        if (!room) builder.addExtension(new ChatStateExtension(ChatState.active));
        Message stanza = builder.build();
        XMPPTCPConnection connection = c.connection();
        CountDownLatch acked = new CountDownLatch(1);
        boolean sm = connection.isSmEnabled();
        try {
            if (sm) connection.addStanzaIdAcknowledgedListener(id, s -> acked.countDown());
            connection.sendStanza(stanza);
            if (sm) connection.requestSmAcknowledgement();
        } catch (SmackException.NotConnectedException
                | StreamManagementException.StreamManagementNotEnabledException e) {
            if (sm) connection.removeStanzaIdAcknowledgedListener(id);
            throw new DeliveryException(
                    "the XMPP connection was lost before the reply went out: " + e.getMessage(), false, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CancelledException("interrupted before the reply went out");
        }
        if (sm) awaitAck(acked, id, cancel);
        return MessageReceipt.of(id);
    }

    private static void awaitAck(CountDownLatch acked, String id, CancelToken cancel) throws DeliveryException {
        long deadline = System.nanoTime() + ACK_WAIT.toNanos();
        try {
            while (!acked.await(100, TimeUnit.MILLISECONDS)) {
                if (cancel.isCancelled()) throw unknown(id, "the run was aborted");
                if (System.nanoTime() > deadline)
                    throw unknown(id, "no acknowledgement within " + ACK_WAIT.toSeconds() + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw unknown(id, "interrupted");
        }
    }

    private static DeliveryException unknown(String id, String why) {
        return new DeliveryException(
                "unknown_after_send: message " + id
                        + " was written but the server has not acknowledged it (" + why
                        + "); Smack sends it again after a reconnect",
                DeliveryException.Kind.AMBIGUOUS,
                null,
                null);
    }

    /** XEP-0085 {@code composing} to a one-to-one chat; rooms are left alone (every occupant would see it). */
    @Override
    public void typing(OutboundTarget target) {
        XmppClient c = client.get();
        String to = target.replyTarget();
        if (!c.online() || c.isRoom(to)) return;
        try {
            Message m = c.connection()
                    .getStanzaFactory()
                    .buildMessageStanza()
                    .to(JidCreate.entityBareFrom(to))
                    .ofType(Message.Type.chat)
                    .addExtension(new ChatStateExtension(ChatState.composing))
                    .build();
            // must not block the turn's timer: a full send queue just skips this refresh
            if (!c.connection().trySendStanza(m)) log.debug("xmpp: typing for {} skipped, the send queue is full", to);
        } catch (XmppStringprepException | IllegalArgumentException | SmackException.NotConnectedException e) {
            log.debug("xmpp: typing for {} not shown: {}", to, e.getMessage());
        }
    }
}

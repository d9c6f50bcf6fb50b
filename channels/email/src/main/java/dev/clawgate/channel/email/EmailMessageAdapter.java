package dev.clawgate.channel.email;

import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.outbound.Capability;
import dev.clawgate.core.outbound.DeliveryException;
import dev.clawgate.core.outbound.MessageReceipt;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.run.CancelledException;
import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.SendFailedException;
import jakarta.mail.Session;
import jakarta.mail.Transport;
import jakarta.mail.internet.AddressException;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeBodyPart;
import jakarta.mail.internet.MimeMessage;
import jakarta.mail.internet.MimeMultipart;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/**
 * Sends replies by SMTP (SPEC CH-9, RFC 5321/5322): to the sender's address, {@code Re:} the thread's subject, with
 * {@code In-Reply-To} (the mail answered) and {@code References} (its chain plus it), a plain text part and a simple
 * HTML alternative. The reply's {@code Message-ID} follows from the payload's idempotency key, so a replay carries the
 * same id and the receipt names it (SPEC OUT-8). No length limit but a size cap ({@link #MAX_BYTES}). A failure before
 * the server took the message is transient; one after DATA began may have been delivered: {@code unknown_after_send}.
 */
final class EmailMessageAdapter implements MessageAdapter {
    /**
     * The size cap of one reply's text; longer replies arrive as several mails (payloads cut to {@link #textLimit()}).
     */
    static final int MAX_BYTES = 512 * 1024;

    static final int TEXT_LIMIT = 100_000;
    private final EmailSettings settings;
    private final Map<String, EmailInbound.ReplyContext> threads;

    EmailMessageAdapter(EmailSettings settings, Map<String, EmailInbound.ReplyContext> threads) {
        this.settings = settings;
        this.threads = threads;
    }

    @Override
    public Set<Capability> capabilities() {
        return EnumSet.of(Capability.TEXT, Capability.MESSAGE_SENDING_HOOKS, Capability.THREAD);
    }

    @Override
    public int textLimit() {
        return TEXT_LIMIT;
    }

    static Properties smtpProperties(EmailSettings s) {
        String proto = s.tls() == EmailSettings.Tls.IMPLICIT ? "smtps" : "smtp";
        Properties p = new Properties();
        p.put("mail.transport.protocol", proto);
        p.put("mail." + proto + ".host", s.smtpHost());
        p.put("mail." + proto + ".port", Integer.toString(s.smtpPort()));
        p.put("mail." + proto + ".auth", Boolean.toString(s.username() != null));
        p.put("mail." + proto + ".connectiontimeout", "15000");
        p.put("mail." + proto + ".timeout", "60000");
        p.put("mail." + proto + ".ssl.checkserveridentity", "true");
        if (s.tls() == EmailSettings.Tls.STARTTLS) {
            p.put("mail.smtp.starttls.enable", "true");
            p.put("mail.smtp.starttls.required", "true");
        }
        return p;
    }

    /** The reply's Message-ID: the same for the same payload (SPEC OUT-8). */
    String messageId(OutboundMessage message) {
        String domain = settings.from().substring(settings.from().indexOf('@') + 1);
        return "<cg-" + EmailInbound.hash(message.target().replyTarget() + "\n" + message.idempotencyKey()) + "@"
                + domain + ">";
    }

    MimeMessage compose(Session session, OutboundMessage message) throws MessagingException, DeliveryException {
        OutboundTarget target = message.target();
        InternetAddress to;
        try {
            to = new InternetAddress(target.replyTarget(), true);
        } catch (AddressException e) {
            throw new DeliveryException("not an e-mail address: '" + target.replyTarget() + "'", true, e);
        }
        // In-Reply-To names the mail answered, else the thread's root; References is that mail's chain. This is mail's
        // threading (RFC 5322 3.6.4), not a quote, so reply_to_mode (which decides quotes) does not turn it off.
        String thread = isMessageId(target.threadId()) ? target.threadId() : null;
        String answered = isMessageId(target.inReplyToMessageId()) ? target.inReplyToMessageId() : null;
        String parent = answered != null ? answered : thread;
        EmailInbound.ReplyContext answeredContext = answered == null ? null : threads.get(answered);
        EmailInbound.ReplyContext context =
                answeredContext != null ? answeredContext : thread == null ? null : threads.get(thread);
        String id = messageId(message);
        MimeMessage m = new MimeMessage(session) {
            @Override
            protected void updateMessageID() throws MessagingException {
                setHeader("Message-ID", id);
            }
        };
        m.setFrom(new InternetAddress(settings.from()));
        m.setRecipient(Message.RecipientType.TO, to);
        m.setSubject(EmailText.replySubject(context == null ? null : context.subject()), "UTF-8");
        if (parent != null) {
            m.setHeader("In-Reply-To", parent);
            String chain = thread != null && !thread.equals(parent) ? thread + " " + parent : parent;
            m.setHeader("References", answeredContext != null ? answeredContext.references() : chain);
        }
        MimeBodyPart plain = new MimeBodyPart();
        plain.setText(message.text(), "UTF-8");
        MimeBodyPart html = new MimeBodyPart();
        html.setText(EmailText.html(message.text()), "UTF-8", "html");
        MimeMultipart alternative = new MimeMultipart("alternative");
        alternative.addBodyPart(plain);
        alternative.addBodyPart(html);
        m.setContent(alternative);
        m.saveChanges();
        return m;
    }

    private static boolean isMessageId(String id) {
        return id != null && id.startsWith("<") && id.endsWith(">") && id.contains("@");
    }

    @Override
    public MessageReceipt send(OutboundMessage message, CancelToken cancel) throws DeliveryException {
        if (message.text().isBlank())
            throw new DeliveryException("the reply has no text (this channel sends no " + "media)", true, null);
        if (message.text().getBytes(StandardCharsets.UTF_8).length > MAX_BYTES) {
            throw new DeliveryException(
                    "the reply is over the " + MAX_BYTES + "-byte size cap of one mail", true, null);
        }
        Session session = Session.getInstance(smtpProperties(settings));
        MimeMessage m;
        try {
            m = compose(session, message);
        } catch (MessagingException e) {
            throw new DeliveryException("the reply could not be composed: " + e.getMessage(), true, e);
        }
        if (cancel.isCancelled()) throw new CancelledException(cancel.reason());
        try (Transport t = session.getTransport()) {
            try {
                if (settings.username() != null)
                    t.connect(settings.smtpHost(), settings.smtpPort(), settings.username(), settings.password());
                else t.connect();
            } catch (MessagingException e) {
                throw new DeliveryException(
                        "cannot reach the SMTP server " + settings.smtpHost() + ":"
                                + settings.smtpPort() + ": "
                                + e.getMessage(),
                        false,
                        e);
            }
            if (cancel.isCancelled()) throw new CancelledException(cancel.reason());
            try {
                t.sendMessage(m, m.getAllRecipients());
            } catch (SendFailedException e) {
                if (e.getValidSentAddresses() == null || e.getValidSentAddresses().length == 0) {
                    throw new DeliveryException(
                            "the SMTP server refused the recipient "
                                    + message.target().replyTarget() + ": "
                                    + e.getMessage(),
                            true,
                            e);
                }
                throw unknown(e);
            } catch (MessagingException e) {
                throw unknown(e);
            }
        } catch (MessagingException closing) {
            // the message was accepted (sendMessage returned); only QUIT failed
            return receipt(message);
        }
        return receipt(message);
    }

    private MessageReceipt receipt(OutboundMessage message) {
        return MessageReceipt.of(messageId(message))
                .in(message.target().threadId(), message.target().inReplyToMessageId());
    }

    private static DeliveryException unknown(MessagingException e) {
        return new DeliveryException(
                "unknown_after_send: the SMTP transaction failed after it began (" + e.getMessage()
                        + "); the mail may have been delivered",
                DeliveryException.Kind.AMBIGUOUS,
                null,
                e);
    }
}

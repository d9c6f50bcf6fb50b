package dev.clawgate.testkit.email;

import com.icegreen.greenmail.store.FolderException;
import com.icegreen.greenmail.store.MailFolder;
import com.icegreen.greenmail.store.StoredMessage;
import com.icegreen.greenmail.user.GreenMailUser;
import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import jakarta.mail.Flags;
import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.Transport;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeBodyPart;
import jakarta.mail.internet.MimeMessage;
import jakarta.mail.internet.MimeMultipart;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * A real IMAP (with IDLE, RFC 2177) and SMTP server for the e-mail tests: GreenMail, in process, on free loopback ports
 * (SPEC CH-9). Accounts are {@code address:password} pairs; the login is the address. {@link #send} is a person's mail
 * client: it submits a mail by SMTP to the server, which delivers it to the recipient's INBOX; {@link #inbox} is what a
 * mailbox holds, with its flags.
 */
public final class MailServer implements AutoCloseable {
    private final GreenMail mail;

    private MailServer(GreenMail mail) {
        this.mail = mail;
    }

    public static MailServer start(String... accounts) {
        GreenMail g = new GreenMail(new ServerSetup[] {
            new ServerSetup(0, "127.0.0.1", ServerSetup.PROTOCOL_SMTP).dynamicPort(),
            new ServerSetup(0, "127.0.0.1", ServerSetup.PROTOCOL_IMAP).dynamicPort()
        });
        g.start();
        for (String a : accounts) {
            int colon = a.indexOf(':');
            String address = a.substring(0, colon);
            g.setUser(address, address, a.substring(colon + 1));
        }
        return new MailServer(g);
    }

    public String host() {
        return "127.0.0.1";
    }

    public int imapPort() {
        return mail.getImap().getPort();
    }

    public int smtpPort() {
        return mail.getSmtp().getPort();
    }

    /** A mail as a person's client writes it. */
    public record Mail(
            String from,
            String to,
            String subject,
            String text,
            String html,
            String messageId,
            String inReplyTo,
            String references,
            byte[] attachment,
            String attachmentName,
            String attachmentType) {
        public static Mail text(String from, String to, String subject, String text) {
            return new Mail(from, to, subject, text, null, null, null, null, null, null, null);
        }

        public Mail withId(String id) {
            return new Mail(
                    from,
                    to,
                    subject,
                    text,
                    html,
                    id,
                    inReplyTo,
                    references,
                    attachment,
                    attachmentName,
                    attachmentType);
        }

        public Mail inReplyTo(String parent, String refs) {
            return new Mail(
                    from, to, subject, text, html, messageId, parent, refs, attachment, attachmentName, attachmentType);
        }

        public Mail withHtml(String body) {
            return new Mail(
                    from,
                    to,
                    subject,
                    text,
                    body,
                    messageId,
                    inReplyTo,
                    references,
                    attachment,
                    attachmentName,
                    attachmentType);
        }

        public Mail withAttachment(String name, String type, byte[] bytes) {
            return new Mail(from, to, subject, text, html, messageId, inReplyTo, references, bytes, name, type);
        }
    }

    /** Submits {@code m} by SMTP; returns its Message-ID. */
    public String send(Mail m) {
        Properties p = new Properties();
        p.put("mail.smtp.host", host());
        p.put("mail.smtp.port", Integer.toString(smtpPort()));
        Session session = Session.getInstance(p);
        try {
            MimeMessage msg = new MimeMessage(session) {
                @Override
                protected void updateMessageID() throws MessagingException {
                    if (m.messageId() != null) setHeader("Message-ID", m.messageId());
                    else super.updateMessageID();
                }
            };
            msg.setFrom(new InternetAddress(m.from()));
            msg.setRecipient(Message.RecipientType.TO, new InternetAddress(m.to()));
            msg.setSubject(m.subject(), "UTF-8");
            if (m.inReplyTo() != null) msg.setHeader("In-Reply-To", m.inReplyTo());
            if (m.references() != null) msg.setHeader("References", m.references());
            MimeMultipart mixed = new MimeMultipart("mixed");
            MimeBodyPart body = new MimeBodyPart();
            if (m.html() != null && m.text() == null) body.setText(m.html(), "UTF-8", "html");
            else body.setText(m.text(), "UTF-8");
            mixed.addBodyPart(body);
            if (m.attachment() != null) {
                MimeBodyPart a = new MimeBodyPart();
                a.setContent(m.attachment(), m.attachmentType());
                a.setFileName(m.attachmentName());
                a.setDisposition(MimeBodyPart.ATTACHMENT);
                mixed.addBodyPart(a);
            }
            msg.setContent(mixed);
            msg.saveChanges();
            Transport.send(msg);
            return msg.getMessageID();
        } catch (MessagingException e) {
            throw new IllegalStateException("cannot send a test mail: " + e, e);
        }
    }

    /** One stored mail of a mailbox: the message and whether it is flagged \Seen. */
    public record Stored(MimeMessage message, boolean seen) {}

    /** What {@code address}'s INBOX holds now, in order. */
    public List<Stored> inbox(String address) {
        try {
            GreenMailUser user = mail.getUserManager().getUserByEmail(address);
            MailFolder inbox = mail.getManagers().getImapHostManager().getInbox(user);
            List<Stored> out = new ArrayList<>();
            for (StoredMessage s : inbox.getMessages())
                out.add(new Stored(s.getMimeMessage(), s.getFlags().contains(Flags.Flag.SEEN)));
            return out;
        } catch (FolderException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        mail.stop();
    }
}

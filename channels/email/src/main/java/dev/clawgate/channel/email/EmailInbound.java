package dev.clawgate.channel.email;

import dev.clawgate.core.model.Attachment;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import jakarta.mail.Address;
import jakarta.mail.BodyPart;
import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.Multipart;
import jakarta.mail.Part;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeUtility;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;

/**
 * One mail as the gateway takes it (SPEC CH-9): the sender's address is the user, the thread ({@code References}' first
 * id, else {@code In-Reply-To}, else its own {@code Message-ID}) is the session, the id is the {@code Message-ID}
 * (dedupe, IN-1), the text is the plain body (or the HTML body flattened) without the quoted part, the subject leading
 * a thread's first mail, and attachments are kept as files under the media dir.
 */
final class EmailInbound {
    /** What a reply needs of the mail it answers: its subject and its References chain. */
    record ReplyContext(String subject, String references) {}

    private final String channelName;
    private final Path mediaDir;

    EmailInbound(String channelName, Path mediaDir) {
        this.channelName = channelName;
        this.mediaDir = mediaDir;
    }

    static String header(Message m, String name) throws MessagingException {
        String[] v = m.getHeader(name);
        return v == null || v.length == 0 ? null : v[0].replaceAll("\\s+", " ").strip();
    }

    /** The ids in a References / In-Reply-To header, in order. */
    static List<String> ids(String header) {
        List<String> ids = new ArrayList<>();
        if (header == null) return ids;
        java.util.regex.Matcher m =
                java.util.regex.Pattern.compile("<[^<>\\s]+>").matcher(header);
        while (m.find()) ids.add(m.group());
        return ids;
    }

    /** The thread a mail belongs to: the first of its References, else its In-Reply-To, else itself. */
    static String threadRoot(String messageId, String references, String inReplyTo) {
        List<String> refs = ids(references);
        if (!refs.isEmpty()) return refs.getFirst();
        List<String> parent = ids(inReplyTo);
        if (!parent.isEmpty()) return parent.getFirst();
        return messageId;
    }

    /** The sender's address, lowercased, or null when the mail names none. */
    static String senderAddress(Message m) throws MessagingException {
        Address[] from = m.getFrom();
        if (from == null || from.length == 0 || !(from[0] instanceof InternetAddress a) || a.getAddress() == null)
            return null;
        return a.getAddress().toLowerCase(Locale.ROOT);
    }

    InboundMessage of(Message m, String fallbackId) throws MessagingException, IOException {
        String sender = senderAddress(m);
        if (sender == null) return null;
        String messageId = header(m, "Message-ID");
        String id = messageId != null ? messageId : fallbackId;
        String references = header(m, "References");
        String inReplyTo = header(m, "In-Reply-To");
        String thread = threadRoot(id, references, inReplyTo);
        String name = m.getFrom()[0] instanceof InternetAddress a ? a.getPersonal() : null;
        Body body = new Body();
        read(m, body, id);
        String text = body.plain != null ? body.plain : body.html != null ? EmailText.flattenHtml(body.html) : "";
        text = EmailText.stripQuoted(text);
        String subject = m.getSubject();
        if (inReplyTo == null && references == null && subject != null && !subject.isBlank()) {
            text = "Subject: " + subject.strip() + (text.isEmpty() ? "" : "\n\n" + text);
        }
        java.util.Date sent = m.getSentDate();
        return new InboundMessage(
                id,
                channelName,
                InboundMessage.DEFAULT_ACCOUNT,
                sender,
                name,
                sender,
                thread,
                null,
                ChatType.DIRECT,
                true,
                sent == null ? null : sent.toInstant(),
                text,
                body.attachments,
                null);
    }

    ReplyContext replyContext(Message m) throws MessagingException {
        String messageId = header(m, "Message-ID");
        List<String> chain = ids(header(m, "References"));
        if (chain.isEmpty()) chain.addAll(ids(header(m, "In-Reply-To")));
        if (messageId != null) chain.add(messageId);
        return new ReplyContext(m.getSubject(), String.join(" ", chain));
    }

    private static final class Body {
        String plain;
        String html;
        final List<Attachment> attachments = new ArrayList<>();
    }

    private void read(Part p, Body body, String id) throws MessagingException, IOException {
        String disposition = p.getDisposition();
        boolean attached = Part.ATTACHMENT.equalsIgnoreCase(disposition)
                || (p.getFileName() != null && !p.isMimeType("multipart/*"));
        if (p.isMimeType("multipart/*")) {
            Multipart mp = (Multipart) p.getContent();
            for (int i = 0; i < mp.getCount(); i++) {
                BodyPart part = mp.getBodyPart(i);
                read(part, body, id);
            }
        } else if (attached) {
            body.attachments.add(save(p, id));
        } else if (p.isMimeType("text/plain") && body.plain == null) {
            body.plain = String.valueOf(p.getContent());
        } else if (p.isMimeType("text/html") && body.html == null) {
            body.html = String.valueOf(p.getContent());
        } else if (p.isMimeType("message/rfc822")
                || p.isMimeType("image/*")
                || p.isMimeType("application/*")
                || p.isMimeType("audio/*")
                || p.isMimeType("video/*")) {
            body.attachments.add(save(p, id));
        }
    }

    private Attachment save(Part p, String id) throws MessagingException, IOException {
        String file = p.getFileName() == null ? "attachment" : MimeUtility.decodeText(p.getFileName());
        file = file.replaceAll("[^A-Za-z0-9._-]", "_");
        if (file.startsWith(".")) file = "_" + file;
        Path dir = mediaDir.resolve(hash(id));
        Files.createDirectories(dir);
        Path target = dir.resolve(file);
        try (InputStream in = p.getInputStream()) {
            Files.copy(in, target, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        String type = p.getContentType() == null
                ? "application/octet-stream"
                : p.getContentType().split(";")[0].strip().toLowerCase(Locale.ROOT);
        Attachment.Kind kind = type.startsWith("image/")
                ? Attachment.Kind.IMAGE
                : type.startsWith("audio/")
                        ? Attachment.Kind.AUDIO
                        : type.startsWith("video/") ? Attachment.Kind.VIDEO : Attachment.Kind.FILE;
        return new Attachment(kind, type, target.toString());
    }

    static String hash(String s) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)), 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JVM", e);
        }
    }
}

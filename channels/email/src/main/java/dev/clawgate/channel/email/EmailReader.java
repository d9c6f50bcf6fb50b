package dev.clawgate.channel.email;

import dev.clawgate.core.channel.ChannelHealth;
import dev.clawgate.core.channel.InboundSink;
import dev.clawgate.core.model.InboundMessage;
import jakarta.mail.Flags;
import jakarta.mail.Folder;
import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.Store;
import jakarta.mail.search.FlagTerm;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.angus.mail.imap.IMAPFolder;
import org.eclipse.angus.mail.imap.IMAPMessage;
import org.eclipse.angus.mail.imap.IMAPStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the mailbox over IMAP (SPEC CH-9, RFC 3501/9051): every unseen mail in the folder is handed to the inbox and
 * only then flagged {@code \Seen}, so a mail the gateway had not committed is read again after a crash or a lost
 * connection (the inbox deduplicates by {@code Message-ID}). Between passes it waits in IMAP IDLE (RFC 2177), re-issued
 * every {@code idleRenewal} (29 minutes: the RFC's server may end an IDLE after 30), or polls every
 * {@code pollInterval} when the server has no IDLE. A lost connection is made again with backoff (1 s doubling to 60 s)
 * on its own virtual thread (SPEC CH-0).
 */
final class EmailReader {
    private static final Logger log = LoggerFactory.getLogger(EmailReader.class);
    static final Duration IDLE_RENEWAL = Duration.ofMinutes(29);
    static final Duration POLL_INTERVAL = Duration.ofMinutes(1);
    static final Duration FIRST_BACKOFF = Duration.ofSeconds(1);
    static final Duration MAX_BACKOFF = Duration.ofSeconds(60);

    private final EmailSettings settings;
    private final EmailInbound parser;
    private final Map<String, EmailInbound.ReplyContext> threads;
    private final Duration idleRenewal;
    private final Duration pollInterval;
    private final boolean useIdle;
    private volatile InboundSink sink;
    private volatile Thread loop;
    private volatile Store store;
    private volatile IMAPFolder folder;
    private volatile ChannelHealth health = ChannelHealth.down("not started");
    private final AtomicInteger connections = new AtomicInteger();
    private final AtomicInteger idles = new AtomicInteger();

    EmailReader(
            EmailSettings settings,
            EmailInbound parser,
            Map<String, EmailInbound.ReplyContext> threads,
            Duration idleRenewal,
            Duration pollInterval,
            boolean useIdle) {
        this.settings = settings;
        this.parser = parser;
        this.threads = threads;
        this.idleRenewal = idleRenewal;
        this.pollInterval = pollInterval;
        this.useIdle = useIdle;
    }

    static Properties imapProperties(EmailSettings s, Duration readTimeout) {
        String proto = s.tls() == EmailSettings.Tls.IMPLICIT ? "imaps" : "imap";
        Properties p = new Properties();
        p.put("mail.store.protocol", proto);
        p.put("mail." + proto + ".host", s.imapHost());
        p.put("mail." + proto + ".port", Integer.toString(s.imapPort()));
        p.put("mail." + proto + ".connectiontimeout", "15000");
        p.put("mail." + proto + ".timeout", Long.toString(readTimeout.toMillis()));
        p.put("mail." + proto + ".peek", "true");
        p.put("mail." + proto + ".ssl.checkserveridentity", "true");
        if (s.tls() == EmailSettings.Tls.STARTTLS) {
            p.put("mail.imap.starttls.enable", "true");
            p.put("mail.imap.starttls.required", "true");
        }
        return p;
    }

    void start(InboundSink inboundSink) {
        if (loop != null) throw new IllegalStateException("email channel already started");
        sink = inboundSink;
        health = ChannelHealth.down("connecting to " + settings.imapHost() + ":" + settings.imapPort());
        Thread t = Thread.ofVirtual().name("email-imap-" + settings.username()).unstarted(this::run);
        loop = t;
        t.start();
    }

    void stop() {
        Thread t = loop;
        loop = null;
        sink = null;
        closeStore();
        if (t != null) {
            t.interrupt();
            try {
                t.join(Duration.ofSeconds(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        health = ChannelHealth.down("stopped");
    }

    ChannelHealth health() {
        return health;
    }

    int connections() {
        return connections.get();
    }

    /** IDLE commands issued so far (each renewal is one). */
    int idles() {
        return idles.get();
    }

    private void run() {
        Duration backoff = FIRST_BACKOFF;
        while (loop == Thread.currentThread()) {
            try {
                connect();
                backoff = FIRST_BACKOFF;
                watch();
            } catch (MessagingException | IOException | IllegalStateException e) {
                health = ChannelHealth.down("IMAP: " + e.getMessage());
                if (loop != Thread.currentThread()) return;
                log.warn(
                        "email {}:{}: {}; reconnecting in {} ms",
                        settings.imapHost(),
                        settings.imapPort(),
                        e.toString(),
                        backoff.toMillis());
            } catch (InterruptedException stopped) {
                return;
            } finally {
                closeStore();
            }
            try {
                Thread.sleep(backoff);
            } catch (InterruptedException stopped) {
                return;
            }
            backoff = backoff.multipliedBy(2).compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : backoff.multipliedBy(2);
        }
    }

    private void connect() throws MessagingException {
        Duration longest = (useIdle ? idleRenewal : pollInterval).plus(Duration.ofMinutes(2));
        Session session = Session.getInstance(imapProperties(settings, longest));
        Store s = session.getStore();
        store = s;
        s.connect(settings.imapHost(), settings.imapPort(), settings.username(), settings.password());
        IMAPFolder f = (IMAPFolder) s.getFolder(settings.folder());
        if (!f.exists())
            throw new MessagingException(
                    "the folder '" + settings.folder() + "' does not exist (channels.email.folder)");
        f.open(Folder.READ_WRITE);
        folder = f;
        connections.incrementAndGet();
        health = ChannelHealth.UP;
        log.info(
                "email: reading {} on {}:{} ({})",
                settings.folder(),
                settings.imapHost(),
                settings.imapPort(),
                idleSupported(s) ? "IDLE" : "polling every " + pollInterval.toSeconds() + " s");
    }

    private boolean idleSupported(Store s) throws MessagingException {
        return useIdle && s instanceof IMAPStore imap && imap.hasCapability("IDLE");
    }

    /**
     * Reads what is unseen, then waits (IDLE or a poll) and reads again, until the connection fails or the channel
     * stops.
     */
    private void watch() throws MessagingException, IOException, InterruptedException {
        IMAPFolder f = folder;
        boolean idle = idleSupported(store);
        while (loop == Thread.currentThread()) {
            // getMessageCount on an open folder sends a NOOP, which brings in any EXISTS the server held back: a mail
            // that
            // came between the search and the IDLE would otherwise wait for the renewal
            int known = f.getMessageCount();
            readUnseen(f);
            if (f.getMessageCount() != known) continue;
            if (idle) {
                idleOnce(f);
            } else {
                Thread.sleep(pollInterval);
            }
        }
    }

    /**
     * One IDLE, ended by the server's news or, at the renewal time, by a NOOP from a timer (which the folder sends
     * after DONE).
     */
    private void idleOnce(IMAPFolder f) throws MessagingException {
        Thread renew = Thread.ofVirtual().name("email-idle-renewal").start(() -> {
            try {
                Thread.sleep(idleRenewal);
                f.doCommand(p -> {
                    p.simpleCommand("NOOP", null);
                    return null;
                });
            } catch (InterruptedException done) {
                Thread.currentThread().interrupt();
            } catch (MessagingException | IllegalStateException lost) {
                log.debug("email: IDLE renewal found the connection gone: {}", lost.toString());
            }
        });
        try {
            idles.incrementAndGet();
            f.idle(true);
        } finally {
            renew.interrupt();
        }
    }

    private void readUnseen(IMAPFolder f) throws MessagingException, IOException {
        Message[] unseen = f.search(new FlagTerm(new Flags(Flags.Flag.SEEN), false));
        for (Message m : unseen) {
            InboundSink s = sink;
            if (s == null) return;
            if (m instanceof IMAPMessage im) im.setPeek(true);
            String fallback = "imap:" + f.getUIDValidity() + ":" + f.getUID(m);
            InboundMessage in = parser.of(m, fallback);
            if (in != null) {
                if (in.id() != null) threads.put(in.id(), parser.replyContext(m));
                InboundSink.Acceptance a = s.accept(in);
                if (a.refused()) log.info("email: mail from {} refused: {}", in.sender(), a.refusal());
            } else {
                log.warn("email: mail {} has no sender address; marked seen and skipped", fallback);
            }
            // only now, with the mail in the inbox (or a duplicate of one that is), does the server learn it was read
            m.setFlag(Flags.Flag.SEEN, true);
        }
    }

    private void closeStore() {
        Store s = store;
        store = null;
        folder = null;
        if (s == null) return;
        try {
            s.close();
        } catch (MessagingException e) {
            log.debug("email: closing the IMAP connection: {}", e.toString());
        }
    }
}

package dev.clawgate.channel.email;

import dev.clawgate.core.channel.Channel;
import dev.clawgate.core.channel.ChannelHealth;
import dev.clawgate.core.channel.InboundSink;
import dev.clawgate.core.channel.MessageAdapter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The e-mail channel (SPEC CH-9): IMAP in (IDLE, poll fallback), SMTP out; each sender's address is a user, each thread
 * a session. {@link #start} returns at once; the IMAP connection is made, and made again after every loss, on its own
 * thread (SPEC CH-0). Restartable: a new reader each start.
 */
public final class EmailChannel implements Channel {
    public static final String NAME = "email";
    private static final int THREADS_KEPT = 10_000;

    private final EmailSettings settings;
    private final EmailInbound parser;
    private final Duration idleRenewal;
    private final Duration pollInterval;
    private final boolean useIdle;
    /** What a reply needs of the mails read (subject, References), by Message-ID, the oldest dropped first. */
    private final Map<String, EmailInbound.ReplyContext> threads =
            Collections.synchronizedMap(new LinkedHashMap<>(256, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<String, EmailInbound.ReplyContext> eldest) {
                    return size() > THREADS_KEPT;
                }
            });

    private final EmailMessageAdapter adapter;
    private volatile EmailReader reader;

    EmailChannel(EmailSettings settings, Path mediaDir) {
        this(settings, mediaDir, EmailReader.IDLE_RENEWAL, EmailReader.POLL_INTERVAL, true);
    }

    EmailChannel(EmailSettings settings, Path mediaDir, Duration idleRenewal, Duration pollInterval, boolean useIdle) {
        this.settings = settings;
        this.parser = new EmailInbound(NAME, mediaDir);
        this.idleRenewal = idleRenewal;
        this.pollInterval = pollInterval;
        this.useIdle = useIdle;
        this.adapter = new EmailMessageAdapter(settings, threads);
        this.reader = newReader();
    }

    private EmailReader newReader() {
        return new EmailReader(settings, parser, threads, idleRenewal, pollInterval, useIdle);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void start(InboundSink sink) {
        EmailReader fresh = newReader();
        fresh.start(sink);
        reader = fresh;
    }

    @Override
    public void stop() {
        reader.stop();
    }

    @Override
    public ChannelHealth health() {
        return reader.health();
    }

    EmailReader reader() {
        return reader;
    }

    @Override
    public MessageAdapter messageAdapter() {
        return adapter;
    }

    /** SPEC SP-1: what a mail reply looks like, for the prompt's Channel Capabilities section. */
    @Override
    public String formatGuidance() {
        return "Replies are e-mails: plain text paragraphs (a simple HTML copy is made from them), no Markdown tables "
                + "or headings. "
                + "Write a complete answer in one message; the subject and greeting lines are handled for you.";
    }
}

package dev.clawgate.channel.matrix;

import dev.clawgate.core.channel.AckPolicy;
import dev.clawgate.core.channel.Channel;
import dev.clawgate.core.channel.ChannelHealth;
import dev.clawgate.core.channel.InboundSink;
import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.run.Scheduler;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Matrix channel (SPEC CH-6): the bot's {@code /sync} long poll ({@link SyncLoop}) and its
 * {@link MatrixMessageAdapter}. Rooms are reply targets ({@code matrix:!room:server}, SPEC MD-3). Receive ack policy
 * (IN-3): the sync token is stored once the batch's events are recorded ({@code after_receive_record}). Restartable:
 * the {@code ChannelSupervisor} may stop and start it while the gateway runs (SPEC CH-0).
 */
public final class MatrixChannel implements Channel {
    private static final Logger log = LoggerFactory.getLogger(MatrixChannel.class);
    public static final String NAME = "matrix";
    static final Duration PREVIEW_INTERVAL = Duration.ofMillis(1500);

    private final MatrixBot bot;
    private final Rooms rooms = new Rooms();
    private final EventReader reader;
    private final SyncToken token;
    private final EncryptionNotice encryption;
    private final MatrixMessageAdapter adapter;
    private final Duration poll;
    private final AtomicReference<SyncLoop> loop = new AtomicReference<>();

    public MatrixChannel(MatrixAccount account, Path dataDir) {
        this(
                account,
                dataDir,
                task -> Thread.ofVirtual().name("matrix-io").start(task),
                Timers.PREVIEW,
                PREVIEW_INTERVAL,
                SyncLoop.POLL);
    }

    private static final class Timers {
        static final Scheduler PREVIEW = Scheduler.daemon("matrix-preview-timer");
    }

    /**
     * @param io where reaction, typing and preview calls run
     * @param previewTimer times the live previews' edits
     * @param poll how long one {@code /sync} waits for news
     */
    MatrixChannel(
            MatrixAccount account,
            Path dataDir,
            Executor io,
            Scheduler previewTimer,
            Duration previewInterval,
            Duration poll) {
        Path dir = dataDir.resolve(NAME).resolve(account.id());
        this.bot = new MatrixBot(
                account,
                new MatrixApi(account.homeserver(), account.accessToken(), MatrixApi.client(), account.callTimeout()),
                dir);
        this.reader = new EventReader(bot, rooms, dir.resolve("media"));
        this.token = new SyncToken(dir);
        this.encryption = new EncryptionNotice(bot);
        this.adapter = new MatrixMessageAdapter(
                bot, io, MatrixMessageAdapter.MAX_INLINE_RATE_WAIT, previewTimer, previewInterval);
        this.poll = poll;
    }

    /** A room id as the client-server API names rooms: {@code !opaque:server}. */
    static boolean roomId(String s) {
        return s != null
                && s.startsWith("!")
                && s.indexOf(':') > 1
                && s.length() < 256
                && s.chars().noneMatch(c -> c <= ' ');
    }

    @Override
    public String name() {
        return NAME;
    }

    /**
     * Learns who the bot is ({@code whoami}), then starts syncing. A token the homeserver refuses, or a {@code user_id}
     * it does not belong to, stops the start with the fix in the message; an unreachable homeserver is logged and
     * retried by the sync loop, which shows unhealthy meanwhile (SPEC CH-0).
     */
    @Override
    public void start(InboundSink sink) {
        try {
            bot.identify();
            log.info("matrix [{}]: connected as {} on {}", bot.account.id(), bot.userId(), bot.account.homeserver());
        } catch (MatrixApiException e) {
            if (e.authRefused()) {
                String fix = "matrix [" + bot.account.id() + "]: the homeserver refuses the access token ("
                        + e.errcode() + "); set "
                        + "channels.matrix.access_token to a valid token of the bot "
                        + "(e.g. access_token = \"${MATRIX_ACCESS_TOKEN}\")";
                log.error(fix);
                throw new IllegalStateException(fix);
            }
            log.error(
                    "matrix [{}]: cannot reach the homeserver at {} ({}); retrying in the background",
                    bot.account.id(),
                    bot.account.homeserver(),
                    bot.api.redact(e.getMessage()));
        }
        SyncLoop l = new SyncLoop(bot, reader, rooms, sink, token, encryption, poll);
        if (!loop.compareAndSet(null, l)) throw new IllegalStateException("matrix channel already started");
        l.start();
    }

    @Override
    public void stop() {
        SyncLoop l = loop.getAndSet(null);
        if (l != null) l.stop();
    }

    @Override
    public ChannelHealth health() {
        SyncLoop l = loop.get();
        return l == null ? ChannelHealth.down("not started") : l.health();
    }

    /** SPEC SP-1: what Matrix clients render, for the prompt's Channel Capabilities section. */
    @Override
    public String formatGuidance() {
        return "Matrix clients render Markdown sent as HTML: **bold**, _italic_, ~~strike~~, `code`, "
                + "```code blocks```, "
                + "[links](url) and # headings. No tables. Long replies are split into several messages. "
                + dev.clawgate.core.prompt.ChannelGuidance.MEDIA_MARKERS;
    }

    @Override
    public MessageAdapter messageAdapter() {
        return adapter;
    }

    /** SPEC IN-3: the sync token moves past a batch only once its events are recorded. */
    @Override
    public Set<AckPolicy> ackPolicies() {
        return Set.of(AckPolicy.AFTER_RECEIVE_RECORD);
    }
}

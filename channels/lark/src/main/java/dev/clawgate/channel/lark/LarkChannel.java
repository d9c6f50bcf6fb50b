package dev.clawgate.channel.lark;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.channel.AckPolicy;
import dev.clawgate.core.channel.Channel;
import dev.clawgate.core.channel.ChannelHealth;
import dev.clawgate.core.channel.InboundSink;
import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.channel.WebhookRoute;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.run.Scheduler;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Lark/Feishu channel (SPEC CH-11), events over the long connection ({@link LongConnection}, {@code mode =
 * "websocket"}, the default) or by HTTP event subscription ({@link EventReceiver} at {@code webhook_path}), replies by
 * the open platform's im/v1 API ({@link LarkMessageAdapter}). The bot's own open id (for {@code require_mention}) is
 * read once from {@code bot/v3/info}.
 */
public final class LarkChannel implements Channel {
    private static final Logger log = LoggerFactory.getLogger(LarkChannel.class);
    public static final String NAME = "lark";

    private final LarkAccount account;
    private final LarkApi api;
    private final AtomicReference<InboundSink> sink = new AtomicReference<>();
    private final AtomicReference<String> botOpenId = new AtomicReference<>();
    private final EventIntake intake;
    private final EventReceiver receiver;
    private final LarkMessageAdapter adapter;
    private final Duration reconnectBackoff;
    private volatile LongConnection connection;

    static final Duration PREVIEW_INTERVAL = Duration.ofSeconds(1);
    private static final Scheduler PREVIEW = Scheduler.daemon("lark-preview-timer");

    public LarkChannel(LarkAccount account, Path dataDir) {
        this(
                account,
                dataDir,
                Clock.systemUTC(),
                task -> Thread.ofVirtual().name("lark-io").start(task),
                PREVIEW,
                PREVIEW_INTERVAL,
                LongConnection.FIRST_BACKOFF);
    }

    LarkChannel(LarkAccount account, Path dataDir, Clock clock, Executor io) {
        this(account, dataDir, clock, io, PREVIEW, PREVIEW_INTERVAL, LongConnection.FIRST_BACKOFF);
    }

    /**
     * @param io runs reactions and preview edits off the caller's thread
     * @param previewTimer times the live previews' edits
     * @param reconnectBackoff the first pause after a failed open of the long connection
     */
    LarkChannel(
            LarkAccount account,
            Path dataDir,
            Clock clock,
            Executor io,
            Scheduler previewTimer,
            Duration previewInterval,
            Duration reconnectBackoff) {
        this.account = account;
        this.api = new LarkApi(account, LarkApi.client(), clock);
        this.reconnectBackoff = reconnectBackoff;
        MediaStore media = new MediaStore(api, dataDir.resolve(NAME).resolve("media"));
        this.intake = new EventIntake(new MessageReader(media, this::botOpenId), sink::get);
        this.receiver = account.longConnection() ? null : new EventReceiver(account, intake, clock);
        this.adapter = new LarkMessageAdapter(account, api, io, previewTimer, previewInterval);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void start(InboundSink inboundSink) {
        if (!sink.compareAndSet(null, inboundSink)) throw new IllegalStateException("lark channel already started");
        if (receiver != null) {
            log.info("lark: taking events of app {} at {}", account.appId(), account.webhookPath());
            return;
        }
        log.info("lark: taking events of app {} over the long connection to {}", account.appId(), account.apiBase());
        LongConnection c = new LongConnection(account, LarkApi.client(), intake, reconnectBackoff);
        connection = c;
        c.start();
    }

    /** The request URL in webhook mode; none over the long connection. */
    @Override
    public List<WebhookRoute> webhookRoutes() {
        return receiver == null ? List.of() : List.of(new WebhookRoute("POST", account.webhookPath(), receiver));
    }

    @Override
    public void stop() {
        LongConnection c = connection;
        connection = null;
        if (c != null) c.stop();
        sink.set(null);
    }

    @Override
    public ChannelHealth health() {
        if (sink.get() == null) return ChannelHealth.down("not started");
        LongConnection c = connection;
        return c == null ? ChannelHealth.UP : c.health();
    }

    /** SPEC SP-1: what Lark renders, for the prompt's Channel Capabilities section. */
    @Override
    public String formatGuidance() {
        return "Lark/Feishu: plain text shows as written; Markdown (**bold**, *italic*, `code`, ```code blocks```, "
                + "[links](url), - lists, headings) is rendered in a rich-text message. No tables. Long replies are "
                + "split into several messages. To send an image, put [IMAGE:/absolute/path.png] on its own line.";
    }

    @Override
    public MessageAdapter messageAdapter() {
        return adapter;
    }

    /** SPEC IN-3: an event is answered 200 (acked, over the long connection) once its message is recorded. */
    @Override
    public Set<AckPolicy> ackPolicies() {
        return Set.of(AckPolicy.AFTER_RECEIVE_RECORD);
    }

    /** Event requests refused (signature, decryption, token; SPEC IN-5: counted). */
    @Override
    public long rejectedRequests() {
        return receiver == null ? 0 : receiver.rejected();
    }

    /** The bot's open id from {@code bot/v3/info}, read once; null while it cannot be read. */
    String botOpenId() {
        String known = botOpenId.get();
        if (known != null) return known;
        try {
            JsonNode info = api.call("GET", "bot/v3/info", null, CancelToken.none());
            String id = info.path("bot").path("open_id").asText("");
            if (!id.isEmpty()) botOpenId.compareAndSet(null, id);
        } catch (LarkApiException e) {
            log.warn("lark: could not read the bot's open id (group mentions are not recognized): {}", e.getMessage());
        }
        return botOpenId.get();
    }
}

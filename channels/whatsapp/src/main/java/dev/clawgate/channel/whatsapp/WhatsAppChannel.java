package dev.clawgate.channel.whatsapp;

import dev.clawgate.core.channel.AckPolicy;
import dev.clawgate.core.channel.Channel;
import dev.clawgate.core.channel.ChannelHealth;
import dev.clawgate.core.channel.InboundSink;
import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.channel.WebhookRoute;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The WhatsApp Cloud API channel (SPEC CH-12): Meta's signed webhook in ({@link WebhookReceiver}), the Graph API out
 * ({@link WhatsAppMessageAdapter}). It holds no connection of its own: {@link #start} only opens the webhook.
 */
public final class WhatsAppChannel implements Channel {
    private static final Logger log = LoggerFactory.getLogger(WhatsAppChannel.class);
    public static final String NAME = "whatsapp";
    static final Duration RATE_BACKOFF = Duration.ofSeconds(2);

    private final WhatsAppAccount account;
    private final AtomicReference<InboundSink> sink = new AtomicReference<>();
    private final WebhookReceiver receiver;
    private final WhatsAppMessageAdapter adapter;
    private final DeliveryStatuses statuses;

    public WhatsAppChannel(WhatsAppAccount account, Path dataDir) {
        this(
                account,
                dataDir,
                Clock.systemUTC(),
                task -> Thread.ofVirtual().name("whatsapp-io").start(task),
                RATE_BACKOFF,
                WhatsAppMessageAdapter.MAX_INLINE_WAIT);
    }

    /**
     * @param io runs reactions and typing indicators off the caller's thread
     * @param rateBackoff the first inline wait after a rate limit
     */
    WhatsAppChannel(
            WhatsAppAccount account,
            Path dataDir,
            Clock clock,
            Executor io,
            Duration rateBackoff,
            Duration maxInlineWait) {
        this.account = account;
        GraphApi api = new GraphApi(account.apiBase(), account.accessToken(), GraphApi.client(), account.callTimeout());
        this.statuses = new DeliveryStatuses(clock);
        MediaFetcher media = new MediaFetcher(api, dataDir.resolve(NAME).resolve("media"));
        this.receiver = new WebhookReceiver(
                account, new MessageReader(account.phoneNumberId(), media), statuses, sink::get, clock);
        this.adapter = new WhatsAppMessageAdapter(account, api, statuses, io, rateBackoff, maxInlineWait);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void start(InboundSink inboundSink) {
        if (!sink.compareAndSet(null, inboundSink)) throw new IllegalStateException("whatsapp channel already started");
        log.info(
                "whatsapp: taking Meta's notifications for phone number {} at {}",
                account.phoneNumberId(),
                account.webhookPath());
    }

    /** Meta's notifications (POST) and its subscription check, a GET on the same URL answered by its query. */
    @Override
    public List<WebhookRoute> webhookRoutes() {
        return List.of(
                new WebhookRoute("POST", account.webhookPath(), receiver),
                new WebhookRoute("GET", account.webhookPath(), request -> verifySubscription(request.query())));
    }

    /** Meta's {@code GET ?hub.mode=subscribe&hub.verify_token=...&hub.challenge=...}, by its query parameters. */
    public WebhookRoute.Response verifySubscription(Map<String, String> query) {
        return receiver.verify(query);
    }

    @Override
    public void stop() {
        sink.set(null);
    }

    @Override
    public ChannelHealth health() {
        return sink.get() == null ? ChannelHealth.down("not started") : ChannelHealth.UP;
    }

    /** SPEC SP-1: what WhatsApp renders, for the prompt's Channel Capabilities section. */
    @Override
    public String formatGuidance() {
        return "WhatsApp renders its own formatting; write Markdown: **bold**, *italic*, ~~strike~~, `code` and "
                + "```code blocks``` are converted, - lists and > quotes are kept, [links](url) become text (url). "
                + "No tables and no headings (they become bold lines). Replies longer than 4096 characters are split "
                + "into several messages.";
    }

    @Override
    public MessageAdapter messageAdapter() {
        return adapter;
    }

    /** SPEC IN-3: a notification is answered 200 once its messages are recorded: the only policy a webhook allows. */
    @Override
    public Set<AckPolicy> ackPolicies() {
        return Set.of(AckPolicy.AFTER_RECEIVE_RECORD);
    }

    /** Webhook requests refused for a missing or wrong {@code X-Hub-Signature-256} (SPEC IN-5: counted). */
    @Override
    public long rejectedRequests() {
        return receiver.rejected();
    }

    /** What Meta's status notifications said of a sent message (SPEC OUT-8), by its wamid. */
    public java.util.Optional<String> deliveryStatus(String wamid) {
        return statuses.status(wamid).map(DeliveryStatuses.Status::status);
    }
}

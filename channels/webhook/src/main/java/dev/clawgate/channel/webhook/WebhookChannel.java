package dev.clawgate.channel.webhook;

import dev.clawgate.core.channel.AckPolicy;
import dev.clawgate.core.channel.Channel;
import dev.clawgate.core.channel.ChannelHealth;
import dev.clawgate.core.channel.InboundSink;
import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.channel.WebhookRoute;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A generic chat platform that talks signed JSON over HTTP: it posts each inbound message to {@code path} and receives
 * replies at its {@code callback_url}. Its receive ack policy is {@code after_receive_record} (SPEC IN-3): the 200 is
 * the ack, sent after the inbox commit.
 */
public final class WebhookChannel implements Channel {
    public static final String NAME = "webhook";
    /** At most one log line per this interval about rejected requests (SPEC IN-5). */
    static final Duration REJECTION_LOG_INTERVAL = Duration.ofSeconds(10);

    private final WebhookChannelSettings settings;
    private final AtomicReference<InboundSink> sink = new AtomicReference<>();
    private final RejectionLog rejections;
    private final WebhookRoute route;
    private final WebhookMessageAdapter adapter;

    public WebhookChannel(WebhookChannelSettings settings) {
        this(settings, Clock.systemUTC());
    }

    WebhookChannel(WebhookChannelSettings settings, Clock clock) {
        this(settings, clock, WebhookMessageAdapter.REQUEST_TIMEOUT);
    }

    /** {@code requestTimeout}: how long a callback may take to answer before the send is ambiguous. */
    WebhookChannel(WebhookChannelSettings settings, Clock clock, Duration requestTimeout) {
        this.settings = settings;
        WebhookSignature signature = new WebhookSignature(settings.secret());
        this.rejections = new RejectionLog(REJECTION_LOG_INTERVAL, clock);
        WebhookReceiver receiver = new WebhookReceiver(NAME, settings.path(), signature, sink::get, rejections, clock);
        this.route = new WebhookRoute("POST", settings.path(), receiver, receiver::oversized);
        HttpClient http = HttpClient.newBuilder()
                .connectTimeout(WebhookMessageAdapter.CONNECT_TIMEOUT)
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
        this.adapter = new WebhookMessageAdapter(
                URI.create(settings.callbackUrl()),
                signature,
                http,
                settings.reconcile(),
                requestTimeout,
                clock,
                settings.textLimit());
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void start(InboundSink inboundSink) {
        if (!sink.compareAndSet(null, inboundSink)) throw new IllegalStateException("webhook channel already started");
    }

    @Override
    public List<WebhookRoute> webhookRoutes() {
        return List.of(route);
    }

    @Override
    public void stop() {
        // the client stays open: the gateway stops channels before runs in flight have sent their replies
        sink.set(null);
    }

    @Override
    public ChannelHealth health() {
        return sink.get() == null ? ChannelHealth.down("not started") : ChannelHealth.UP;
    }

    /** The 200 is the ack and is sent only after the inbox commit (SPEC IN-3, IN-4): webhooks can defer no further. */
    @Override
    public Set<AckPolicy> ackPolicies() {
        return Set.of(AckPolicy.AFTER_RECEIVE_RECORD);
    }

    @Override
    public MessageAdapter messageAdapter() {
        return adapter;
    }

    /** Requests refused for a missing or bad signature since start (SPEC IN-5: counted). */
    @Override
    public long rejectedRequests() {
        return rejections.total();
    }

    public WebhookChannelSettings settings() {
        return settings;
    }
}

package dev.clawgate.channel.qq;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.channel.AckPolicy;
import dev.clawgate.core.channel.Channel;
import dev.clawgate.core.channel.ChannelHealth;
import dev.clawgate.core.channel.InboundSink;
import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.channel.WebhookRoute;
import dev.clawgate.core.channel.socket.SessionFile;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.store.StoreException;
import dev.clawgate.core.store.UnreadableInbound;
import java.nio.file.Path;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The QQ official bot channel (SPEC CH-13): group @-messages and direct (C2C) messages, from the WebSocket gateway
 * ({@link QqGateway}, the default) or pushed to {@code webhook_path} ({@link QqWebhook}); replies by the OpenAPI
 * ({@link QqMessageAdapter}). Restartable: the supervisor may stop and start it (SPEC CH-0); the gateway session is
 * kept under the data dir, so a start resumes it and what was dispatched meanwhile is replayed.
 */
public final class QqChannel implements Channel {
    private static final Logger log = LoggerFactory.getLogger(QqChannel.class);
    public static final String NAME = "qq";
    /** Message ids remembered to drop a replayed dispatch early (the inbox dedupes too, IN-1). */
    private static final int REMEMBERED = 10_000;

    private final QqAccount account;
    private final QqApi api;
    private final ReplyLedger ledger;
    private final QqMessageAdapter adapter;
    private final QqGateway gateway;
    private final QqWebhook webhook;
    private final AtomicReference<InboundSink> sink = new AtomicReference<>();
    private final ReentrantLock seenLock = new ReentrantLock();
    private final Map<String, Boolean> seen = new LinkedHashMap<>(256, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > REMEMBERED;
        }
    };

    /** @param dataDir keeps the gateway session and the reply ledger across restarts; null: in memory */
    public QqChannel(QqAccount account, Path dataDir) {
        this(account, dataDir, Clock.systemUTC(), QqGateway.Timing.QQ);
    }

    QqChannel(QqAccount account, Path dataDir, Clock clock, QqGateway.Timing timing) {
        this.account = account;
        this.api = new QqApi(account, QqApi.client(), clock);
        Path dir = dataDir == null ? null : dataDir.resolve(NAME);
        this.ledger = new ReplyLedger(dir == null ? null : dir.resolve("replies"), clock.instant());
        this.adapter = new QqMessageAdapter(account, api, ledger, clock);
        if (account.webhook()) {
            this.gateway = null;
            this.webhook = new QqWebhook(new QqSigner(account.clientSecret()), this::dispatch, clock);
        } else {
            this.webhook = null;
            this.gateway = new QqGateway(
                    account,
                    api,
                    this::dispatch,
                    timing,
                    dir == null ? null : new SessionFile(dir.resolve("gateway.session"), "QQ"));
        }
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void start(InboundSink inboundSink) {
        if (!sink.compareAndSet(null, inboundSink)) throw new IllegalStateException("qq channel already started");
        if (gateway != null) {
            gateway.start();
            log.info("qq: bot {} on the WebSocket gateway", account.appId());
        } else {
            log.info("qq: bot {} taking callbacks at {}", account.appId(), account.webhookPath());
        }
    }

    @Override
    public List<WebhookRoute> webhookRoutes() {
        return webhook == null ? List.of() : List.of(new WebhookRoute("POST", account.webhookPath(), webhook));
    }

    @Override
    public void stop() {
        sink.set(null);
        if (gateway != null) gateway.stop();
    }

    @Override
    public ChannelHealth health() {
        if (sink.get() == null) return ChannelHealth.down("not started");
        return gateway == null ? ChannelHealth.UP : gateway.health();
    }

    /** One dispatch: read, recorded once, remembered; a store failure propagates (nothing is acknowledged). */
    private void dispatch(String type, JsonNode payload) {
        InboundSink to = sink.get();
        if (to == null) throw new IllegalStateException("qq channel stopped");
        String id = payload.path("d").path("id").asText("");
        if (!id.isEmpty() && known(id)) return;
        switch (MessageReader.read(type, payload)) {
            case MessageReader.Ignored ignored -> {}
            case MessageReader.Unreadable u ->
                to.unreadable(UnreadableInbound.of(NAME, InboundMessage.DEFAULT_ACCOUNT, u.ref(), u.reason(), u.raw()));
            case MessageReader.Message m -> {
                ledger.received(m.message().id(), m.message().timestamp());
                try {
                    to.accept(m.message());
                } catch (StoreException | IllegalStateException retry) {
                    throw retry;
                } catch (RuntimeException refused) {
                    to.unreadable(UnreadableInbound.of(
                            NAME,
                            InboundMessage.DEFAULT_ACCOUNT,
                            m.message().id(),
                            "the gateway could not take it: " + refused,
                            m.message().rawPayload()));
                }
            }
        }
        if (!id.isEmpty()) remember(id);
    }

    private boolean known(String id) {
        seenLock.lock();
        try {
            return seen.containsKey(id);
        } finally {
            seenLock.unlock();
        }
    }

    private void remember(String id) {
        seenLock.lock();
        try {
            seen.put(id, Boolean.TRUE);
        } finally {
            seenLock.unlock();
        }
    }

    /** SPEC SP-1: what QQ shows, for the prompt's Channel Capabilities section. */
    @Override
    public String formatGuidance() {
        return "QQ shows plain text: no Markdown rendering (write lists and emphasis in plain words). A message "
                + "can be answered only a few times, so keep replies to one or two messages. To send an image, put "
                + "[IMAGE:/absolute/path.png] on its own line.";
    }

    @Override
    public MessageAdapter messageAdapter() {
        return adapter;
    }

    /**
     * SPEC IN-3: the gateway's sequence advances, and a callback is answered, only once the message is in the inbox.
     */
    @Override
    public Set<AckPolicy> ackPolicies() {
        return Set.of(AckPolicy.AFTER_RECEIVE_RECORD);
    }

    /** Callback requests refused for their signature (SPEC IN-5: counted). */
    @Override
    public long rejectedRequests() {
        return webhook == null ? 0 : webhook.rejected();
    }

    /** Gateway connections opened so far (for tests). */
    int connectionsOpened() {
        return gateway == null ? 0 : gateway.connections();
    }
}

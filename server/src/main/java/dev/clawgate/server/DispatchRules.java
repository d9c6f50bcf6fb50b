package dev.clawgate.server;

import dev.clawgate.core.channel.Channel;
import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.config.DropPolicy;
import dev.clawgate.core.config.QueueMode;
import dev.clawgate.core.config.QueueSettings;
import dev.clawgate.core.internal.access.AccessGate;
import dev.clawgate.core.internal.access.Decision;
import dev.clawgate.core.internal.dispatch.Admission;
import dev.clawgate.core.internal.dispatch.Dispatcher;
import dev.clawgate.core.internal.dispatch.QueuePolicy;
import dev.clawgate.core.internal.turn.QueueDirective;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.outbound.DeliveryException;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.Store;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The dispatcher's policy as the gateway reads it from the config in force, the session's directives and its channels:
 * queue modes (SPEC DI-3), admission (IN-5, IN-6), "queued" notices (OUT-12), the turn budget and debouncing.
 */
final class DispatchRules {
    private static final Logger log = LoggerFactory.getLogger(Gateway.class);
    private static final Duration QUEUED_NOTICE_AFTER = Duration.ofSeconds(2);

    private final AtomicReference<ClawgateConfig> config;
    private final Store store;
    private final Map<String, Channel> channels;
    private final AccessGate access;

    DispatchRules(
            AtomicReference<ClawgateConfig> config, Store store, Map<String, Channel> channels, AccessGate access) {
        this.config = config;
        this.store = store;
        this.channels = channels;
        this.access = access;
    }

    /** The policy the dispatcher asks, per record and per channel, while the gateway runs. */
    Dispatcher.Policy policy() {
        return Dispatcher.Policy.builder()
                .queue(this::queuePolicy)
                .requestResponse(r -> requestResponse(r.message().channel()))
                .turnBudget(this::turnBudget)
                .notices(this::notice, QUEUED_NOTICE_AFTER)
                .admission(this::admit)
                // request/response channels answer each request on its own connection: never batched
                .debounceMs(channel ->
                        requestResponse(channel) ? 0L : config.get().inbound().debounceMsFor(channel))
                .build();
    }

    /** SPEC DI-3 precedence: the session's /queue directive, then the channel's mode, then the global one. */
    private QueuePolicy queuePolicy(InboxRecord r) {
        QueueSettings q = config.get().queue();
        SessionKey s = r.session();
        QueueMode mode = store.transcripts()
                .setting(s, QueueDirective.MODE)
                .flatMap(QueueMode::parse)
                .orElse(q.modeFor(r.message().channel()));
        long quietMs = store.transcripts()
                .setting(s, QueueDirective.DEBOUNCE_MS)
                .map(Long::parseLong)
                .orElse(q.debounceMs());
        int cap = store.transcripts()
                .setting(s, QueueDirective.CAP)
                .map(Integer::parseInt)
                .orElse(q.cap());
        DropPolicy drop = store.transcripts()
                .setting(s, QueueDirective.DROP)
                .flatMap(DropPolicy::parse)
                .orElse(q.drop());
        return new QueuePolicy(mode, Duration.ofMillis(quietMs), cap, drop);
    }

    /** SPEC IN-5 access control, IN-6 group triggers; owner channels are exempt. */
    private Admission.Verdict admit(InboxRecord r) {
        boolean owner = Optional.ofNullable(channels.get(r.message().channel()))
                .map(Channel::ownerChannel)
                .orElse(false);
        return switch (access.decide(r.message(), owner, config.get())) {
            case Decision.Admit a -> Admission.ADMIT;
            case Decision.Deny d -> new Admission.Deny(d.reason(), null);
            case Decision.Buffer b -> new Admission.Buffer(b.reason());
            case Decision.Pair p -> new Admission.Deny("pairing code sent", p.replyText());
        };
    }

    /** Best-effort notices ("queued"): never replayed, never fatal (SPEC OUT-12). */
    private void notice(InboxRecord r, String text) {
        Channel ch = channels.get(r.message().channel());
        if (ch == null) return;
        try {
            ch.messageAdapter()
                    .send(
                            new OutboundMessage(
                                    OutboundTarget.replyTo(r.message()), text, OutboundMessage.Kind.NOTICE, r.id()),
                            CancelToken.none());
        } catch (DeliveryException e) {
            log.info("notice to {} on {} not delivered: {}", r.message().sender(), ch.name(), e.getMessage());
        }
    }

    /** Whether {@code channel} answers each request on its own connection (the API, web chat). */
    private boolean requestResponse(String channel) {
        return Optional.ofNullable(channels.get(channel))
                .map(Channel::requestResponse)
                .orElse(false);
    }

    Duration turnBudget() {
        return Duration.ofSeconds(config.get().agent().turnBudgetSecs());
    }
}

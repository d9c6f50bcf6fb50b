package dev.clawgate.server;

import dev.clawgate.core.channel.Channel;
import dev.clawgate.core.internal.outbound.OutboxObserver;
import dev.clawgate.core.store.OutboxState;
import dev.clawgate.core.store.Store;
import dev.clawgate.core.store.StoreException;
import dev.clawgate.core.store.UnreadableInbound;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.Collection;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateway's meters, scraped at {@code /metrics} in Prometheus' text format (SPEC OP-3, OP-5):
 * {@code clawgate_outbox_entries{state}} (entries per outbox state, read from the store),
 * {@code clawgate_outbox_recorded_total{state}} (states the outbox recorded since start) and
 * {@code clawgate_outbox_unknown_after_send_total} (sends whose outcome could not be told, SPEC OUT-7: reported, never
 * resent) and {@code clawgate_webhook_rejected_total{channel}} (webhook requests a channel refused for a missing or
 * wrong secret or signature, SPEC IN-5: counted, not stored) and {@code clawgate_inbound_unreadable_total{channel}}
 * (updates a channel could not read, recorded as failed and acknowledged past, SPEC IN-4: a poison message shows here
 * before anyone runs {@code clawgate inbox}) and {@code clawgate_model_attempts_total{provider,outcome}} (every model
 * call attempt, retries and fallback steps included, SPEC SP-4).
 */
public final class GatewayMetrics {
    private static final Logger log = LoggerFactory.getLogger(GatewayMetrics.class);
    /** One scrape reads all state gauges: they share one store query, taken at most this often. */
    private static final Duration COUNTS_FRESH_FOR = Duration.ofSeconds(1);

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final Store store;
    private final Map<OutboxState, Counter> recorded = new EnumMap<>(OutboxState.class);
    private final Counter unknownAfterSend;
    private final ReentrantLock countsLock = new ReentrantLock();
    private Map<OutboxState, Long> counts = Map.of();
    private long countsAt = Long.MIN_VALUE;

    public GatewayMetrics(Store store) {
        this.store = store;
        for (OutboxState s : OutboxState.values()) {
            Gauge.builder("clawgate.outbox.entries", this, m -> m.count(s))
                    .tag("state", s.wireName())
                    .description("Outbox entries in this state")
                    .register(registry);
            recorded.put(
                    s,
                    Counter.builder("clawgate.outbox.recorded")
                            .tag("state", s.wireName())
                            .description("States the outbox recorded since the gateway started")
                            .register(registry));
        }
        unknownAfterSend = Counter.builder("clawgate.outbox.unknown_after_send")
                .description(
                        "Sends whose outcome could not be told (a crash or an ambiguous failure): reported, not resent")
                .register(registry);
    }

    /**
     * Counts the refused webhook requests of each channel that mounts webhook routes (SPEC IN-5), read at each scrape,
     * and shows every channel's unreadable count from 0 (SPEC IN-4).
     */
    public void watchChannels(Collection<Channel> channels) {
        for (Channel channel : channels) {
            unreadableCounter(channel.name());
            if (channel.webhookRoutes().isEmpty()) continue;
            FunctionCounter.builder("clawgate.webhook.rejected", channel, Channel::rejectedRequests)
                    .tag("channel", channel.name())
                    .description("Webhook requests refused for a missing or wrong secret or signature (not stored)")
                    .register(registry);
        }
    }

    /** What the outbox tells as it records states (SPEC OUT-7: unknown_after_send is counted, not only logged). */
    public OutboxObserver outboxObserver() {
        return (entry, state) -> {
            recorded.get(state).increment();
            if (state == OutboxState.UNKNOWN_AFTER_SEND) unknownAfterSend.increment();
        };
    }

    /** Counts each model call attempt by provider and outcome (SPEC SP-4: every fallback step is visible). */
    public dev.clawgate.core.internal.agent.ModelAttempts modelAttempts() {
        return (provider, model, outcome) -> Counter.builder("clawgate.model.attempts")
                .tag("provider", provider)
                .tag("outcome", outcome)
                .description("Model call attempts, retries and fallback steps included")
                .register(registry)
                .increment();
    }

    /** Counts an update its channel could not read, once when it is first recorded (SPEC IN-4). */
    public void unreadable(UnreadableInbound update) {
        unreadableCounter(update.channel()).increment();
    }

    private Counter unreadableCounter(String channel) {
        // registering again returns the meter already there
        return Counter.builder("clawgate.inbound.unreadable")
                .tag("channel", channel)
                .description(
                        "Updates a channel could not read: recorded as failed (clawgate inbox) and acknowledged past")
                .register(registry);
    }

    /** The meters in Prometheus' text exposition format. */
    public String scrape() {
        return registry.scrape();
    }

    private double count(OutboxState state) {
        countsLock.lock();
        try {
            long now = System.nanoTime();
            if (countsAt == Long.MIN_VALUE || now - countsAt > COUNTS_FRESH_FOR.toNanos()) {
                counts = store.outbox().counts();
                countsAt = now;
            }
            return counts.getOrDefault(state, 0L);
        } catch (StoreException e) {
            // a scrape must not fail the gateway: the gauge reads as unknown until the store answers again
            log.warn("outbox counts for /metrics unavailable: {}", e.getMessage());
            return Double.NaN;
        } finally {
            countsLock.unlock();
        }
    }
}

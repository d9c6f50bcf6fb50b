package dev.clawgate.server.control;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.core.internal.dispatch.Dispatcher;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.store.OutboxState;
import dev.clawgate.core.store.Store;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * {@code /api/status} and {@code /api/channels} (SPEC OP-3, OP-5, CH-0): the gateway's version and uptime, each channel
 * and account with its health and last error, the queue depths, the outbox and inbox counts and memory recall (ME-5).
 */
final class StatusView {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String VERSION_RESOURCE = "/dev/clawgate/server/version.properties";

    private final Store store;
    private final Dispatcher dispatcher;
    private final ChannelWatch channels;
    private final Instant startedAt;
    private final Clock clock;
    private final TurnsView turns;
    private final String version = version();
    /** The model latency of the newest turns, read at most every {@link #LATENCY_FRESH_FOR}: it takes a few queries. */
    private volatile Latency latency = new Latency(Instant.MIN, null);

    private record Latency(Instant at, Double ms) {}

    private static final Duration LATENCY_FRESH_FOR = Duration.ofSeconds(2);
    private static final int LATENCY_TURNS = 20;

    private final ControlSources sources;

    StatusView(ControlSources sources, ChannelWatch channels, TurnsView turns, Clock clock) {
        this.sources = sources;
        this.store = sources.store();
        this.dispatcher = sources.dispatcher();
        this.channels = channels;
        this.turns = turns;
        this.startedAt = sources.startedAt();
        this.clock = clock;
    }

    ObjectNode status() {
        ObjectNode body = JSON.createObjectNode();
        Instant now = clock.instant();
        body.put("version", version)
                .put("started_at", startedAt.toString())
                .put("now", now.toString())
                .put("uptime_seconds", Duration.between(startedAt, now).toSeconds());
        ArrayNode list = channelsJson();
        boolean healthy = true;
        for (var ch : list) healthy &= ch.path("healthy").asBoolean();
        body.put("healthy", healthy && store.healthy());
        body.put("store", store.healthy() ? "ok" : "unavailable");
        body.set("channels", list);
        body.putObject("queues")
                .put("bus", dispatcher.busDepth())
                .put("active_runs", dispatcher.activeRuns())
                .put("runs_started", dispatcher.runsStarted());
        body.putObject("model").put("latency_ms", modelLatency(now)).put("over_turns", LATENCY_TURNS);
        ObjectNode outbox = body.putObject("outbox");
        for (Map.Entry<OutboxState, Long> c : store.outbox().counts().entrySet())
            outbox.put(c.getKey().wireName(), c.getValue());
        ObjectNode inbox = body.putObject("inbox");
        for (Map.Entry<InboxState, Long> c : store.inbox().counts().entrySet())
            inbox.put(c.getKey().name().toLowerCase(Locale.ROOT), c.getValue());
        memory(body.putObject("memory"));
        return body;
    }

    /**
     * SPEC ME-5: the recall mode, the vectors embedded of all memories, and each scope at or over
     * {@code memory.ann_threshold} with how it is searched now (index ready or being built, or exact).
     */
    private void memory(ObjectNode m) {
        m.put("recall", sources.recall().mode());
        String model = sources.recall().modelId().orElse(null);
        if (model == null) return;
        int threshold = sources.config().get().memory().embedding().annThreshold();
        var progress = store.memory().vectors().progress(model);
        m.put("model", model)
                .put("embedded", progress.embedded())
                .put("entries", progress.entries())
                .put("ann_threshold", threshold);
        ArrayNode large = m.putArray("large_scopes");
        for (var s : store.memory().vectors().largeScopes(model, threshold))
            large.addObject()
                    .put("scope", s.scope())
                    .put("vectors", s.vectors())
                    .put("search", s.search().name().toLowerCase(Locale.ROOT));
    }

    private Double modelLatency(Instant now) {
        Latency l = latency;
        if (Duration.between(l.at(), now).compareTo(LATENCY_FRESH_FOR) > 0) {
            l = new Latency(now, turns.modelLatencyMs(LATENCY_TURNS));
            latency = l;
        }
        return l.ms();
    }

    ObjectNode channels() {
        ObjectNode body = JSON.createObjectNode();
        body.set("channels", channelsJson());
        return body;
    }

    private ArrayNode channelsJson() {
        ArrayNode out = JSON.createArrayNode();
        for (ChannelWatch.ChannelView c : channels.channels()) {
            ObjectNode n = out.addObject()
                    .put("name", c.name())
                    .put("running", c.running())
                    .put("healthy", c.healthy())
                    .put("detail", c.detail());
            lastError(n, c.lastError());
            ArrayNode accounts = n.putArray("accounts");
            for (ChannelWatch.AccountView a : c.accounts()) {
                ObjectNode an = accounts.addObject()
                        .put("id", a.id())
                        .put("healthy", a.healthy())
                        .put("detail", a.detail());
                lastError(an, a.lastError());
            }
        }
        return out;
    }

    private static void lastError(ObjectNode n, ChannelWatch.LastError e) {
        n.put("last_error", e == null ? null : e.detail());
        n.put("last_error_at", e == null ? null : e.at().toString());
    }

    static String version() {
        try (InputStream in = StatusView.class.getResourceAsStream(VERSION_RESOURCE)) {
            if (in == null) return "unknown";
            Properties p = new Properties();
            p.load(in);
            String v = p.getProperty("version", "unknown");
            return v.startsWith("${") ? "unknown" : v;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + VERSION_RESOURCE, e);
        }
    }
}

package dev.clawgate.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.store.OutboundDraft;
import dev.clawgate.core.store.OutboxEntry;
import dev.clawgate.core.store.Store;
import dev.clawgate.store.Stores;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code /metrics} in Prometheus' text format (SPEC OP-3, OP-5): outbox entries per state and the unknown_after_send
 * count (OUT-7).
 */
class MetricsEndpointTest {
    private static final String TOKEN = "metrics-test-token-0123";

    @TempDir
    Path dir;

    private static OutboxEntry committedReply(Store store, String channel, String id) {
        InboundMessage m = new InboundMessage(
                id,
                channel,
                null,
                "alice",
                null,
                "alice",
                null,
                null,
                ChatType.DIRECT,
                true,
                Instant.now(),
                "question " + id,
                List.of(),
                null);
        long turn = store.inbox()
                .record(m, SessionKey.of(m), null, Duration.ZERO)
                .orElseThrow()
                .id();
        return store.outbox()
                .completeTurnWithReply(
                        SessionKey.of(m),
                        turn,
                        "reply " + id,
                        InboxState.DONE,
                        OutboundDraft.of(OutboundTarget.replyTo(m), "reply " + id, OutboundMessage.Kind.FINAL))
                .orElseThrow();
    }

    /** The value of the sample whose name and labels are {@code series}, as the scrape shows it. */
    private static Optional<Double> sample(String scrape, String series) {
        return scrape.lines()
                .filter(l -> l.startsWith(series + " "))
                .findFirst()
                .map(l -> Double.parseDouble(l.substring(series.length() + 1).strip()));
    }

    @Test
    void theScrapeCountsOutboxStatesAndTheSendsAStartFoundUnknown() throws Exception {
        // SPEC OUT-7: an unknown_after_send is reported as a metric, not only in the log and `clawgate outbox`; OP-3
        // /metrics
        ClawgateConfig base = GatewayHarness.config(dir, null, TOKEN);
        try (Store before = Stores.open(null, base.gateway().dataDir())) {
            // a dead process left this send on the wire: the restart cannot tell whether it arrived
            assertThat(before.outbox()
                            .claim(committedReply(before, "gone", "m1").id()))
                    .isTrue();
            // a reply for a channel this gateway does not run waits
            committedReply(before, "elsewhere", "m2");
        }
        try (Gateway g = Gateway.start(base, GatewayOptions.server())) {
            HttpResponse<String> refused = GatewayHarness.get(g.httpPort(), "/metrics", null);
            HttpResponse<String> scrape = GatewayHarness.get(g.httpPort(), "/metrics", TOKEN);

            assertThat(refused.statusCode())
                    .as("the metrics need the gateway token")
                    .isEqualTo(401);
            assertThat(scrape.statusCode()).isEqualTo(200);
            assertThat(scrape.headers().firstValue("content-type").orElse("")).startsWith("text/plain");
            String text = scrape.body();
            assertThat(sample(text, "clawgate_outbox_unknown_after_send_total")).contains(1.0);
            assertThat(sample(text, "clawgate_outbox_recorded_total{state=\"unknown_after_send\"}"))
                    .contains(1.0);
            assertThat(sample(text, "clawgate_outbox_entries{state=\"unknown_after_send\"}"))
                    .contains(1.0);
            assertThat(sample(text, "clawgate_outbox_entries{state=\"pending\"}"))
                    .contains(1.0);
            assertThat(sample(text, "clawgate_outbox_entries{state=\"sending\"}"))
                    .contains(0.0);
            assertThat(text).contains("# TYPE clawgate_outbox_unknown_after_send_total counter");
        }
    }
}

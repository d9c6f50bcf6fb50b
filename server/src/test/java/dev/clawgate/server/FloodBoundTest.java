package dev.clawgate.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.testkit.openai.FakeOpenAiServer;
import dev.clawgate.testkit.openai.Reply;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A flood to one session through the real dispatcher and SQLite store stays within its bounds (SPEC DI-3, OP-7). */
class FloodBoundTest {
    @TempDir
    Path dir;

    private static long liveHeapAfterGc() {
        for (int i = 0; i < 3; i++) System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    @Test
    void aFloodToOneBusySessionNeverQueuesPastTheCapAndKeepsTheHeapFlat() throws Exception {
        // SPEC DI-3: no flood grows memory without bound; SPEC OP-7: every queue has a bound
        int flood = 5_000;
        try (FakeOpenAiServer model = FakeOpenAiServer.start()) {
            model.enqueue(Reply.text("slow first answer").delayBefore(Duration.ofSeconds(30)));
            InboundBadInputTest.ProbeChannel probe = new InboundBadInputTest.ProbeChannel();
            try (Gateway g =
                    Gateway.start(GatewayHarness.config(dir, model.baseUrl(), null), GatewayOptions.with(probe))) {
                SessionKey session = new SessionKey("probe", null, ChatType.DIRECT, "flooder", null, "flooder");
                probe.sink.accept(msg(0));
                await().until(() -> model.chatRequests().size() == 1);
                for (int i = 1; i <= 200; i++) probe.sink.accept(msg(i));
                long before = liveHeapAfterGc();
                int maxQueued = 0;
                for (int i = 201; i <= flood; i++) {
                    probe.sink.accept(msg(i));
                    if (i % 50 == 0)
                        maxQueued = Math.max(
                                maxQueued, g.dispatcher().status(session).queued());
                }
                await().until(() -> g.dispatcher().busDepth() == 0);
                maxQueued = Math.max(maxQueued, g.dispatcher().status(session).queued());
                long after = liveHeapAfterGc();
                int cap = GatewayHarness.config(dir, null, null).queue().cap();
                assertThat(maxQueued).isLessThanOrEqualTo(cap);
                assertThat(g.store().inbox().counts().get(InboxState.DROPPED_BY_QUEUE))
                        .isGreaterThanOrEqualTo(flood - 2L * cap - 1);
                assertThat(after - before).as("live heap growth in bytes").isLessThan(10L * 1024 * 1024);
            }
        }
    }

    private static InboundMessage msg(int i) {
        return new InboundMessage(
                "f" + i,
                "probe",
                null,
                "flooder",
                null,
                "flooder",
                null,
                null,
                ChatType.DIRECT,
                true,
                Instant.now(),
                "message number " + i,
                List.of(),
                null);
    }
}

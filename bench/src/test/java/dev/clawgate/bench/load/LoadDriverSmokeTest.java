package dev.clawgate.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A short run of the load driver in {@code verify}: the real gateway in its own JVM (its
 * {@code Main} on this module's test classpath, so the code under test is this build's, whether
 * or not the jar was packaged), polling the fake Telegram Bot API over loopback HTTP and answered
 * by the fake OpenAI server. A correctness check, not a speed one: no figure is asserted.
 */
class LoadDriverSmokeTest {
    private static final Path WORK = Path.of("target", "load-smoke").toAbsolutePath();

    private static LoadPlan plan(ChildJvm.Launch launch, String name) {
        return new LoadPlan(launch, List.of("-Xmx256m", "-XX:TieredStopAtLevel=1"), "", 200, 20, 0, 0, Duration.ZERO,
                Duration.ofMillis(200), Duration.ofSeconds(60), Duration.ofMillis(500), 0, false, null, WORK.resolve(name), name, KillSchedule.none());
    }

    @Test
    void everyOneOf200MessagesFrom20UsersGetsExactlyOneReplyThroughTheGatewayProcess() throws Exception {
        // SPEC CH-3 (long polling with offset acks), IN-4 (nothing recorded is lost), OUT-12 (one final reply per turn)
        LoadResult r = new LoadRun(plan(new ChildJvm.Launch.GatewayClasspath(ChildJvm.ownClasspath()), "gateway")).run();

        ReplyLedger.Outcome o = r.outcome();
        assertThat(o.missing()).as("sent, never answered; the gateway's store says: %s", r.audit()).isEmpty();
        assertThat(o.unsent()).isEmpty();
        assertThat(o.duplicated()).as("answered more than once: %s", r.audit()).isEmpty();
        assertThat(o.strays()).as("replies that name no message").isZero();
        assertThat(o.latenciesNanos()).hasSize(200);
        assertThat(r.startToFirstPollMs()).isPositive();
        assertThat(r.idleRssMib()).isPositive();
    }

    @Test
    void theEchoBotCeilingAnswersEveryMessageOnceToo() throws Exception {
        // SPEC CH-3: the driver and the fake on their own, the ceiling the gateway's figures are read against
        LoadResult r = new LoadRun(plan(new ChildJvm.Launch.Echo(ChildJvm.ownClasspath()), "echo")).run();

        assertThat(r.passed()).as(r.outcome().problems()).isTrue();
        assertThat(r.outcome().latenciesNanos()).hasSize(200);
    }
}

package dev.clawgate.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A short run of the load driver in {@code verify}: the real gateway in its own JVM (its {@code Main} on this module's
 * test classpath, so the code under test is this build's, whether or not the jar was packaged), polling the fake
 * Telegram Bot API over loopback HTTP and answered by the fake OpenAI server. A correctness check, not a speed one: no
 * figure is asserted.
 */
class LoadDriverSmokeTest {
    private static final Path WORK = Path.of("target", "load-smoke").toAbsolutePath();

    private static LoadPlan plan(ChildJvm.Launch launch, String name) {
        return plan(launch, name, 200, 20, KillSchedule.none());
    }

    private static LoadPlan plan(ChildJvm.Launch launch, String name, int messages, int users, KillSchedule kills) {
        return new LoadPlan(
                launch,
                List.of("-Xmx256m", "-XX:TieredStopAtLevel=1"),
                "",
                messages,
                users,
                0,
                0,
                Duration.ZERO,
                Duration.ofMillis(200),
                Duration.ofSeconds(60),
                Duration.ofMillis(500),
                0,
                false,
                null,
                WORK.resolve(name),
                name,
                kills);
    }

    @Test
    void everyOneOf200MessagesFrom20UsersGetsExactlyOneReplyThroughTheGatewayProcess() throws Exception {
        // SPEC CH-3 (long polling with offset acks), IN-4 (nothing recorded is lost), OUT-12 (one final reply per turn)
        LoadResult r =
                new LoadRun(plan(new ChildJvm.Launch.GatewayClasspath(ChildJvm.ownClasspath()), "gateway")).run();

        ReplyLedger.Outcome o = r.outcome();
        assertThat(o.missing())
                .as("sent, never answered; the gateway's store says: %s", r.audit())
                .isEmpty();
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

    @Test
    void aGatewayKilledTwiceMidRunAnswersNoMessageTwiceAndListsEveryReplyItLost() throws Exception {
        // SPEC OUT-12 (never two final replies for one turn, across SIGKILL and restart), OUT-7 (a send the kill cut is
        // unknown_after_send, listed for `clawgate outbox`, not resent), IN-4 (no recorded update lost)
        long seed = Long.getLong("kill.seed", new Random().nextLong());
        LoadRun run = new LoadRun(plan(
                new ChildJvm.Launch.GatewayClasspath(ChildJvm.ownClasspath()),
                "kill",
                300,
                30,
                KillSchedule.draw(2, 300, seed)));

        LoadResult r = run.run();
        System.out.print(LoadReport.text(r));

        String replay = "replay with -Dkill.seed=" + seed + "; " + LoadReport.text(r);
        KillTally k = r.kills();
        assertThat(k.kills()).as(replay).isEqualTo(2);
        assertThat(k.duplicated()).as("answered more than once; %s", replay).isEmpty();
        assertThat(k.unlisted())
                .as("no reply and not listed in the store; %s", replay)
                .isEmpty();
        assertThat(k.answeredOnce() + k.listedUnknown() + k.listedOtherCount())
                .as(replay)
                .isEqualTo(300);
        assertThat(k.unsent()).as(replay).isZero();
        assertThat(k.strays()).as(replay).isZero();
        assertThat(r.passed()).as(replay).isTrue();
    }
}

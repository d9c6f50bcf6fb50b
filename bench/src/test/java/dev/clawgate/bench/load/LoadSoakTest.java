package dev.clawgate.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The soak of SPEC OP-7, only with {@code -Psoak}: 100,000 messages ({@code -Dsoak.messages}) from 200 users through
 * the gateway jar of this build at {@code -Xmx256m}, a full GC and the live heap every 10,000 replies. Bounded
 * resources means: every message answered once, the live heap never more than 64 MiB above its first sample (a leak of
 * 1 KB per message would add about 95 MiB), and RSS never more than 10 % above its first sample. Memory auto-save is
 * off: its recall cost grows with all users' memories (bench/RESULTS.md), which is a speed problem, not a leak.
 */
@EnabledIfSystemProperty(named = "clawgate.soak", matches = "true")
class LoadSoakTest {
    private static final Path JAR =
            Path.of("..", "server", "target", "clawgate.jar").toAbsolutePath().normalize();

    @Test
    void aHundredThousandMessagesLeaveTheLiveHeapAndRssFlat() throws Exception {
        // SPEC OP-7 (bounded resources), OUT-12 (one reply per message)
        int messages = Integer.getInteger("soak.messages", 100_000);
        ChildJvm.Launch launch = Files.isRegularFile(JAR)
                ? new ChildJvm.Launch.GatewayJar(JAR)
                : new ChildJvm.Launch.GatewayClasspath(ChildJvm.ownClasspath());
        String noAutoSave = "[memory]\nauto_save = false\n";
        LoadPlan plan = new LoadPlan(
                launch,
                List.of("-Xmx256m"),
                noAutoSave,
                messages,
                200,
                0,
                5000,
                Duration.ZERO,
                Duration.ofSeconds(2),
                Duration.ofSeconds(60),
                Duration.ofSeconds(1),
                Math.max(1, messages / 10),
                true,
                null,
                Path.of("target", "soak-run").toAbsolutePath(),
                "soak (mvn -Psoak), -Xmx256m, auto-save off",
                KillSchedule.none());

        LoadResult r = new LoadRun(plan).run();
        System.out.print(LoadReport.text(r));
        LoadReport.append(
                Path.of("target", "load-results", "soak.md"), LoadReport.markdownRow(r), LoadReport.TABLE_HEADER);

        assertThat(r.passed()).as(r.outcome().problems() + " " + r.audit()).isTrue();
        List<LoadResult.SoakSample> samples = r.samples();
        assertThat(samples).hasSizeGreaterThanOrEqualTo(2);
        LoadResult.SoakSample first = samples.getFirst();
        assertThat(samples).allSatisfy(s -> {
            assertThat(s.liveHeapMib())
                    .as("live heap after a full GC at %d replies", s.answered())
                    .isLessThanOrEqualTo(first.liveHeapMib() + 64);
            assertThat(s.rssMib()).as("RSS at %d replies", s.answered()).isLessThanOrEqualTo(first.rssMib() * 1.10);
        });
    }
}

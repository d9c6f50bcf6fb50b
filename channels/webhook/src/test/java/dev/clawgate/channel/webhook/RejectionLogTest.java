package dev.clawgate.channel.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.testing.ManualClock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

// Rejected webhook requests are counted, and logged rate-limited (SPEC IN-5).
class RejectionLogTest {
    @Test
    void onlyTheFirstRejectionOfEachIntervalIsLoggedButAllAreCounted() {
        // SPEC IN-5: a flood of forged requests cannot flood the log
        ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
        RejectionLog log = new RejectionLog(Duration.ofSeconds(10), clock);
        assertThat(log.reject("/w", "1.2.3.4", "bad signature")).isTrue();
        for (int i = 0; i < 500; i++)
            assertThat(log.reject("/w", "1.2.3.4", "bad signature")).isFalse();
        clock.advance(Duration.ofSeconds(9));
        assertThat(log.reject("/w", "1.2.3.4", "bad signature")).isFalse();
        clock.advance(Duration.ofSeconds(1));
        assertThat(log.reject("/w", "1.2.3.4", "bad signature")).isTrue();
        assertThat(log.total()).isEqualTo(503);
    }
}

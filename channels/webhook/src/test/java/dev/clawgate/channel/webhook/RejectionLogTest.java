package dev.clawgate.channel.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

// Rejected webhook requests are counted, and logged rate-limited (SPEC IN-5).
class RejectionLogTest {

    /** A clock the test moves. */
    static final class SteppedClock extends Clock {
        Instant now = Instant.parse("2026-01-01T00:00:00Z");

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    @Test
    void onlyTheFirstRejectionOfEachIntervalIsLoggedButAllAreCounted() {
        // SPEC IN-5: a flood of forged requests cannot flood the log
        SteppedClock clock = new SteppedClock();
        RejectionLog log = new RejectionLog(Duration.ofSeconds(10), clock);
        assertThat(log.reject("/w", "1.2.3.4", "bad signature")).isTrue();
        for (int i = 0; i < 500; i++) assertThat(log.reject("/w", "1.2.3.4", "bad signature")).isFalse();
        clock.now = clock.now.plusSeconds(9);
        assertThat(log.reject("/w", "1.2.3.4", "bad signature")).isFalse();
        clock.now = clock.now.plusSeconds(1);
        assertThat(log.reject("/w", "1.2.3.4", "bad signature")).isTrue();
        assertThat(log.total()).isEqualTo(503);
    }
}

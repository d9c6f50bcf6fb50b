package dev.clawgate.channel.irc;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Flood control (SPEC CH-7), on a manual clock: no wall-clock assert. */
class TokenBucketTest {
    private long now;
    private final List<Long> waits = new ArrayList<>();

    private TokenBucket bucket() {
        return new TokenBucket(IrcChannel.BURST, IrcChannel.LINE_INTERVAL, () -> now, nanos -> {
            waits.add(nanos);
            now += nanos;
        });
    }

    @Test
    void aBurstGoesAtOnceThenOneLinePerInterval() throws Exception {
        TokenBucket b = bucket();
        for (int i = 0; i < IrcChannel.BURST; i++) b.take();
        assertThat(waits).isEmpty();
        long start = now;
        for (int i = 0; i < 10; i++) b.take();
        // ten more lines take ten intervals: never faster than one per interval after the burst
        assertThat(now - start).isEqualTo(IrcChannel.LINE_INTERVAL.toNanos() * 10);
        assertThat(waits).hasSize(10).allSatisfy(w -> assertThat(w).isEqualTo(IrcChannel.LINE_INTERVAL.toNanos()));
    }

    @Test
    void idleTimeRefillsTheBurstButNeverBeyondIt() throws Exception {
        TokenBucket b = bucket();
        for (int i = 0; i < IrcChannel.BURST; i++) b.take();
        now += Duration.ofHours(1).toNanos();
        for (int i = 0; i < IrcChannel.BURST; i++) b.take();
        assertThat(waits).isEmpty();
        b.take();
        assertThat(waits).containsExactly(IrcChannel.LINE_INTERVAL.toNanos());
    }
}

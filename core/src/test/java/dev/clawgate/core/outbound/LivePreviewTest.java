package dev.clawgate.core.outbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.clawgate.core.testing.ManualScheduler;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The live preview's timing (SPEC OUT-9, RP-4) on a manual clock: the draft at once, then at most one platform call per
 * interval however many deltas come, and nothing after {@link LivePreview#finish}. The surface is the boundary: it
 * records every draft the platform would get.
 */
class LivePreviewTest {
    private static final Duration INTERVAL = Duration.ofMillis(1000);
    private static final Executor DIRECT = Runnable::run;

    private final ManualScheduler clock = new ManualScheduler();
    private final List<LivePreview.Draft> shown = new CopyOnWriteArrayList<>();
    private final AtomicReference<LivePreview.Shown> answer = new AtomicReference<>(LivePreview.Shown.OK);
    private final LivePreview preview = new LivePreview(
            d -> {
                shown.add(d);
                return answer.get();
            },
            INTERVAL,
            clock,
            DIRECT);

    @Test
    void theDraftIsShownAtStartBeforeAnyText() {
        // SPEC OUT-9: a draft (...) at once
        preview.start();
        assertThat(shown).singleElement().satisfies(d -> {
            assertThat(d.empty()).isTrue();
            assertThat(d.text()).isEmpty();
        });
    }

    @Test
    void twentyDeltasInsideOneIntervalMakeOneEditOnceItPassesAndTheNextWaitsForTheNextInterval() {
        // SPEC OUT-9: edits rate-limited per channel; without the limit each delta would be a call
        preview.start();
        for (int i = 0; i < 20; i++) preview.delta("w" + i + " ");
        assertThat(shown).hasSize(1);
        clock.advance(INTERVAL.toMillis() - 1);
        assertThat(shown).hasSize(1);
        clock.advance(1);
        assertThat(shown).hasSize(2);
        assertThat(shown.get(1).text()).startsWith("w0 w1 ").endsWith("w19 ");
        for (int i = 20; i < 40; i++) preview.delta("w" + i + " ");
        clock.advance(INTERVAL.toMillis() - 1);
        assertThat(shown).hasSize(2);
        clock.advance(1);
        assertThat(shown).hasSize(3);
        assertThat(shown.get(2).text()).endsWith("w39 ");
    }

    @Test
    void aDeltaAfterAQuietIntervalIsShownAtOnce() {
        // SPEC OUT-9: the limit spaces calls; it does not delay a lone update
        preview.start();
        clock.advance(INTERVAL.toMillis());
        assertThat(clock.live()).isZero();
        preview.delta("late");
        assertThat(shown).extracting(LivePreview.Draft::text).containsExactly("", "late");
    }

    @Test
    void finishDropsThePendingUpdateAndNoCallFollows() {
        // SPEC OUT-9 discardPending
        preview.start();
        preview.delta("pending");
        assertThat(preview.finish(Duration.ofSeconds(1))).isTrue();
        clock.advance(10 * INTERVAL.toMillis());
        preview.delta("after");
        preview.reasoning("after");
        assertThat(shown).hasSize(1);
        assertThat(clock.live()).isZero();
    }

    @Test
    void reasoningRidesAlongInTheSameDraft() {
        // SPEC RP-4 stream: reasoning streamed into the draft preview
        preview.start();
        preview.reasoning("Think");
        preview.reasoning("ing.");
        preview.delta("Answer");
        preview.delta("");
        preview.delta(null);
        clock.advance(INTERVAL.toMillis());
        assertThat(shown).hasSize(2);
        assertThat(shown.get(1)).isEqualTo(new LivePreview.Draft("Answer", "Thinking."));
        assertThat(shown.get(1).empty()).isFalse();
        assertThat(new LivePreview.Draft(" ", "\n").empty()).isTrue();
    }

    @Test
    void aRefusedCallStopsThePreview() {
        // SPEC OUT-9: a draft the platform refused is not updated again; the final reply goes out normally
        answer.set(LivePreview.Shown.STOP);
        preview.start();
        preview.delta("more");
        clock.advance(10 * INTERVAL.toMillis());
        assertThat(shown).hasSize(1);
        assertThat(preview.finish(Duration.ofSeconds(1))).isFalse();
    }

    @Test
    void aPlatformRetryAfterHoldsTheNextCallBackLongerThanTheInterval() {
        // SPEC OUT-9, OUT-7: never sooner than the platform's retry-after
        answer.set(LivePreview.Shown.retryAfter(Duration.ofSeconds(5)));
        preview.start();
        answer.set(LivePreview.Shown.OK);
        preview.delta("x");
        clock.advance(4_999);
        assertThat(shown).hasSize(1);
        clock.advance(1);
        assertThat(shown).hasSize(2);
    }

    @Test
    void aDraftRefusedForNowIsShownAgainAfterTheRetryAfterEvenWithoutNewText() {
        // SPEC OUT-9: the draft appears although the platform rate-limited its first call and no delta followed
        answer.set(LivePreview.Shown.retryAfter(Duration.ofSeconds(3)));
        preview.start();
        answer.set(LivePreview.Shown.OK);
        clock.advance(2_999);
        assertThat(shown).hasSize(1);
        clock.advance(1);
        assertThat(shown).hasSize(2);
        clock.advance(10 * INTERVAL.toMillis());
        assertThat(shown).hasSize(2);
    }

    @Test
    void aSurfaceThatThrowsStopsThePreview() {
        // SPEC OUT-9: a broken preview never breaks the turn
        LivePreview broken = new LivePreview(
                d -> {
                    throw new IllegalStateException("platform down");
                },
                INTERVAL,
                clock,
                DIRECT);
        broken.start();
        broken.delta("x");
        clock.advance(INTERVAL.toMillis());
        assertThat(broken.finish(Duration.ofSeconds(1))).isFalse();
        assertThat(clock.live()).isZero();
    }

    @Test
    void finishWaitsForACallInFlightSoNoUpdateLandsAfterTheFinalReply() throws Exception {
        // SPEC OUT-9: the final edit comes after the last preview call, never before it
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean inCall = new AtomicBoolean();
        LivePreview slow = new LivePreview(
                d -> {
                    inCall.set(true);
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    shown.add(d);
                    return LivePreview.Shown.OK;
                },
                INTERVAL,
                clock,
                task -> Thread.ofVirtual().start(task));
        slow.start();
        await().untilTrue(inCall);
        AtomicBoolean finished = new AtomicBoolean();
        Thread finisher = Thread.ofVirtual().start(() -> finished.set(slow.finish(Duration.ofSeconds(30))));
        await().during(Duration.ofMillis(200)).until(() -> !finished.get());
        release.countDown();
        finisher.join();
        assertThat(finished).isTrue();
        assertThat(shown).hasSize(1);
        assertThat(clock.live()).isZero();
    }
}

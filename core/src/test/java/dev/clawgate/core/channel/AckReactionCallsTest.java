package dev.clawgate.core.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.clawgate.core.store.InboxState;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class AckReactionCallsTest {
    private final ExecutorService io = Executors.newVirtualThreadPerTaskExecutor();

    @AfterEach
    void stop() {
        io.shutdownNow();
    }

    // SPEC RP-5: one message's reaction calls run in the order they were made, even when an earlier one is slow
    @Test
    void oneMessagesCallsRunInOrderAndAFailingCallDoesNotStopTheNext() throws Exception {
        AckReactionCalls<String> calls = new AckReactionCalls<>(io);
        List<String> log = new CopyOnWriteArrayList<>();
        CountDownLatch slowSeen = new CountDownLatch(1);
        calls.inOrder("m1", () -> {
            waitFor(slowSeen);
            log.add("m1 seen");
        });
        calls.inOrder("m1", () -> {
            log.add("m1 remove seen");
            throw new IllegalStateException("the platform refused");
        });
        calls.inOrder("m1", () -> log.add("m1 done"));
        // another message is not held up by the first one's slow call
        calls.inOrder("m2", () -> log.add("m2 seen"));
        await().atMost(Duration.ofSeconds(10)).until(() -> log.contains("m2 seen"));
        assertThat(log).containsExactly("m2 seen");
        slowSeen.countDown();
        await().atMost(Duration.ofSeconds(10)).until(() -> log.size() == 4);
        assertThat(log.subList(1, 4)).containsExactly("m1 seen", "m1 remove seen", "m1 done");
        await().atMost(Duration.ofSeconds(10)).until(() -> calls.pending() == 0);
    }

    // SPEC RP-5: done for answered, failed for failed or expired, nothing more for the other final states
    @Test
    void eachFinalStateHasItsOutcome() {
        for (InboxState s : InboxState.values()) {
            AckReactionCalls.Outcome o = AckReactionCalls.outcome(s);
            switch (s) {
                case DONE -> assertThat(o).isEqualTo(AckReactionCalls.Outcome.DONE);
                case FAILED, EXPIRED -> assertThat(o).isEqualTo(AckReactionCalls.Outcome.FAILED);
                default -> assertThat(o).as(s.name()).isNull();
            }
        }
    }

    private static void waitFor(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

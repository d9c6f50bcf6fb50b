package dev.clawgate.core.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class BackgroundWorkTest {

    @Test
    void aFloodPastTheThreadsAndTheQueueIsDroppedNotHeld() throws InterruptedException {
        // SPEC OP-7: fire-and-forget work is bounded: 2 threads and 3 waiting tasks, the rest of 50 dropped
        BackgroundWork work = new BackgroundWork("test-flood", 2, 3);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger ran = new AtomicInteger();
        for (int i = 0; i < 50; i++) {
            work.execute(() -> {
                try {
                    release.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                ran.incrementAndGet();
            });
        }
        assertThat(work.pending()).isLessThanOrEqualTo(5);
        release.countDown();
        await().atMost(10, TimeUnit.SECONDS).until(() -> ran.get() == 5);
        assertThat(ran.get()).isEqualTo(5);
    }

    @Test
    void tasksRunOnVirtualThreadsNamedForTheirWork() {
        // SPEC OP-7: the threads are virtual and named, so a thread dump says whose work they do
        BackgroundWork work = new BackgroundWork("test-named", 1, 1);
        AtomicInteger virtualAndNamed = new AtomicInteger();
        work.execute(() -> {
            if (Thread.currentThread().isVirtual()
                    && Thread.currentThread().getName().startsWith("test-named-")) {
                virtualAndNamed.incrementAndGet();
            }
        });
        await().atMost(10, TimeUnit.SECONDS).until(() -> virtualAndNamed.get() == 1);
    }
}

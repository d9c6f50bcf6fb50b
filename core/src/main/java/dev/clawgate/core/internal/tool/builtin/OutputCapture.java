package dev.clawgate.core.internal.tool.builtin;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Drains a process's output on a virtual thread, keeping at most {@code keepBytes} of it and counting the rest, so a
 * chatty process can neither block on a full pipe nor fill the heap; once more than {@code stopAfterBytes} came,
 * {@code stop} runs (once) to end the process (SPEC AG-8).
 */
final class OutputCapture {
    private final ReentrantLock lock = new ReentrantLock();
    private final ByteArrayOutputStream kept = new ByteArrayOutputStream();
    private final int keepBytes;
    private final CountDownLatch done = new CountDownLatch(1);
    private volatile long totalBytes;
    private volatile IOException failure;
    private final long stopAfterBytes;
    private final Runnable stop;
    private volatile boolean overflowed;

    private OutputCapture(int keepBytes, long stopAfterBytes, Runnable stop) {
        this.keepBytes = keepBytes;
        this.stopAfterBytes = stopAfterBytes;
        this.stop = stop;
    }

    static OutputCapture start(InputStream in, int keepBytes, long stopAfterBytes, Runnable stop) {
        OutputCapture capture = new OutputCapture(keepBytes, stopAfterBytes, stop);
        Thread.ofVirtual().name("shell-output").start(() -> capture.drain(in));
        return capture;
    }

    private void drain(InputStream in) {
        byte[] buf = new byte[8192];
        try (in) {
            int r;
            while ((r = in.read(buf)) != -1) {
                lock.lock();
                try {
                    int room = keepBytes - kept.size();
                    if (room > 0) kept.write(buf, 0, Math.min(room, r));
                } finally {
                    lock.unlock();
                }
                totalBytes += r;
                if (!overflowed && totalBytes > stopAfterBytes) {
                    overflowed = true;
                    stop.run();
                }
            }
        } catch (IOException e) {
            failure = e;
        } finally {
            done.countDown();
        }
    }

    /** Waits for the end of the stream; false if a grandchild still holds it open after {@code millis}. */
    boolean awaitEnd(long millis) throws InterruptedException {
        return done.await(millis, TimeUnit.MILLISECONDS);
    }

    byte[] bytes() {
        lock.lock();
        try {
            return kept.toByteArray();
        } finally {
            lock.unlock();
        }
    }

    long totalBytes() {
        return totalBytes;
    }

    /** Whether the output passed {@code stopAfterBytes}, so the process was stopped. */
    boolean overflowed() {
        return overflowed;
    }

    IOException failure() {
        return failure;
    }
}

package dev.clawgate.core.run;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Cooperative cancellation for one run (SPEC AG-2, DI-5). The agent loop checks it before every model and tool call; a
 * provider registers a listener that aborts its HTTP exchange.
 */
public final class CancelToken {
    private final AtomicReference<String> reason = new AtomicReference<>();
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    private final CountDownLatch cancelled = new CountDownLatch(1);

    /** A token that is never cancelled, for work that has no run around it. */
    public static CancelToken none() {
        return new CancelToken();
    }

    public boolean isCancelled() {
        return reason.get() != null;
    }

    /** Why it was cancelled, or null. */
    public String reason() {
        return reason.get();
    }

    /** Cancels once; later calls keep the first reason. Listeners run on the caller's thread. */
    public void cancel(String why) {
        if (!reason.compareAndSet(null, why == null ? "cancelled" : why)) return;
        cancelled.countDown();
        for (Runnable l : listeners) {
            try {
                l.run();
            } catch (RuntimeException e) {
                org.slf4j.LoggerFactory.getLogger(CancelToken.class).warn("cancel listener failed: {}", e.toString());
            }
        }
    }

    public void throwIfCancelled() {
        String r = reason.get();
        if (r != null) throw new CancelledException(r);
    }

    /**
     * Runs {@code listener} when the token is cancelled (at once if it already is). The returned handle removes it;
     * close it when the guarded work ends.
     */
    public AutoCloseable onCancel(Runnable listener) {
        listeners.add(listener);
        if (isCancelled()) {
            listeners.remove(listener);
            listener.run();
        }
        return () -> listeners.remove(listener);
    }

    /** Waits up to {@code timeout} for cancellation; true if cancelled. */
    public boolean await(long timeout, TimeUnit unit) throws InterruptedException {
        return cancelled.await(timeout, unit);
    }
}

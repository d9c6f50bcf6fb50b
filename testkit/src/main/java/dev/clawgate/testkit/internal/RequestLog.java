package dev.clawgate.testkit.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/** What a fake server saw: requests in arrival order and clients that hung up, awaitable. */
public final class RequestLog<R> {
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final List<R> requests = new ArrayList<>();
    private int disconnects;

    public void add(R request) {
        lock.lock();
        try {
            requests.add(request);
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    public void disconnected() {
        lock.lock();
        try {
            disconnects++;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    public List<R> requests() {
        lock.lock();
        try {
            return List.copyOf(requests);
        } finally {
            lock.unlock();
        }
    }

    public int disconnects() {
        lock.lock();
        try {
            return disconnects;
        } finally {
            lock.unlock();
        }
    }

    public boolean awaitRequests(int n, Duration timeout) {
        return awaitUntil(() -> requests.size() >= n, timeout);
    }

    public boolean awaitDisconnect(Duration timeout) {
        return awaitUntil(() -> disconnects > 0, timeout);
    }

    public void clear() {
        lock.lock();
        try {
            requests.clear();
            disconnects = 0;
        } finally {
            lock.unlock();
        }
    }

    // the condition is evaluated with the lock held
    private boolean awaitUntil(BooleanSupplier condition, Duration timeout) {
        long remaining = timeout.toNanos();
        lock.lock();
        try {
            while (!condition.getAsBoolean()) {
                if (remaining <= 0) return false;
                remaining = changed.awaitNanos(remaining);
            }
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return condition.getAsBoolean();
        } finally {
            lock.unlock();
        }
    }
}

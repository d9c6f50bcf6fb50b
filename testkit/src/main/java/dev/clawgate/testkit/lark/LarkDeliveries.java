package dev.clawgate.testkit.lark;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * Every event the platform has to deliver, by delivery id, whichever way it goes (the request URL or the long
 * connection): its plain JSON, how often it was pushed, and whether the gateway accepted it (answered 200 / acked with
 * code 200).
 */
final class LarkDeliveries {
    private final ReentrantLock lock = new ReentrantLock();
    private final Map<String, String> events = new LinkedHashMap<>();
    private final Map<String, Integer> attempts = new HashMap<>();
    private final Set<String> accepted = new HashSet<>();

    void add(String id, String json) {
        locked(() -> events.put(id, json));
    }

    String json(String id) {
        return locked(() -> events.get(id));
    }

    void attempted(String id) {
        locked(() -> attempts.merge(id, 1, Integer::sum));
    }

    void accepted(String id) {
        locked(() -> accepted.add(id));
    }

    boolean isAccepted(String id) {
        return locked(() -> accepted.contains(id));
    }

    int attempts(String id) {
        return locked(() -> attempts.getOrDefault(id, 0));
    }

    List<String> ids() {
        return locked(() -> List.copyOf(events.keySet()));
    }

    List<String> unaccepted() {
        return locked(() ->
                events.keySet().stream().filter(id -> !accepted.contains(id)).toList());
    }

    private <T> T locked(Supplier<T> s) {
        lock.lock();
        try {
            return s.get();
        } finally {
            lock.unlock();
        }
    }
}

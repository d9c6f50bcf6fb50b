package dev.clawgate.channel.whatsapp;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What Meta's status notifications said about the messages the business sent (SPEC CH-12, OUT-8): {@code sent},
 * {@code delivered}, {@code read} or {@code failed} with its error, per wamid (bounded: the newest {@link #MAX_KEPT}).
 * A status never starts a turn. A {@code failed} 131047 (the customer-service window closed before the message went
 * out) closes the window for that customer here: later sends to them fail at once, permanently, until they write again
 * ({@link #customerWrote}), so no retry loop hits a closed window.
 */
final class DeliveryStatuses {
    private static final Logger log = LoggerFactory.getLogger(DeliveryStatuses.class);
    static final int MAX_KEPT = 10_000;
    /** The customer-service window: 24 hours from the customer's last message. */
    static final Duration WINDOW = Duration.ofHours(24);

    /** The latest status of one sent message; {@code errorCode} is 0 unless it failed. */
    record Status(String wamid, String recipient, String status, int errorCode, String errorTitle, Instant at) {}

    private final ReentrantLock lock = new ReentrantLock();
    private final Map<String, Status> byWamid = new LinkedHashMap<>(256, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Status> eldest) {
            return size() > MAX_KEPT;
        }
    };
    private final Map<String, Instant> windowClosed = new LinkedHashMap<>(64, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Instant> eldest) {
            return size() > MAX_KEPT;
        }
    };
    private final Clock clock;

    DeliveryStatuses(Clock clock) {
        this.clock = clock;
    }

    /** One entry of a notification's {@code statuses}. */
    void update(JsonNode s) {
        String wamid = s.path("id").asText("");
        String status = s.path("status").asText("");
        if (wamid.isEmpty() || status.isEmpty()) return;
        String recipient = s.path("recipient_id").asText("");
        JsonNode error = s.path("errors").path(0);
        int code = error.path("code").asInt(0);
        String title = error.path("title").asText(error.path("message").asText(""));
        Status now = new Status(wamid, recipient, status, code, title, clock.instant());
        lock.lock();
        try {
            Status before = byWamid.get(wamid);
            // statuses can arrive out of order: read never goes back to delivered, nor failed to sent
            if (before != null && rank(before.status()) > rank(status)) return;
            byWamid.put(wamid, now);
            if (status.equals("failed")
                    && code == GraphApiException.RE_ENGAGEMENT
                    && !"group".equals(s.path("recipient_type").asText())) {
                windowClosed.put(recipient, now.at());
            }
        } finally {
            lock.unlock();
        }
        if (status.equals("failed")) {
            log.warn(
                    "whatsapp: message {} was not delivered: error {} ({}){}",
                    wamid,
                    code,
                    title,
                    code == GraphApiException.RE_ENGAGEMENT
                            ? "; the customer-service window is closed: more than 24 h "
                                    + "since the customer last wrote, only a template message can reach them"
                            : "");
        }
    }

    /** The customer {@code waId} wrote: their window is open again. */
    void customerWrote(String waId) {
        lock.lock();
        try {
            windowClosed.remove(waId);
        } finally {
            lock.unlock();
        }
    }

    /** Whether Meta said the window of {@code waId} closed (within the last 24 h, and they have not written since). */
    boolean windowClosed(String waId) {
        lock.lock();
        try {
            Instant at = windowClosed.get(waId);
            return at != null && clock.instant().isBefore(at.plus(WINDOW));
        } finally {
            lock.unlock();
        }
    }

    Optional<Status> status(String wamid) {
        lock.lock();
        try {
            return Optional.ofNullable(byWamid.get(wamid));
        } finally {
            lock.unlock();
        }
    }

    private static int rank(String status) {
        return switch (status) {
            case "sent" -> 1;
            case "delivered" -> 2;
            case "read" -> 3;
            case "failed" -> 4;
            default -> 0;
        };
    }
}

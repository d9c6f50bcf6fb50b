package dev.clawgate.testkit.telegram;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.testkit.telegram.BotRequest.BadRequest;
import dev.clawgate.testkit.telegram.FakeTelegramServer.WebhookPush;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * How updates reach the bot in the fake Telegram: queued for {@code getUpdates} long polling until an offset confirms
 * them, or pushed to the webhook set by {@code setWebhook} (with its secret header, retried while the bot answers
 * non-2xx), never both. Guarded by the server's lock: every method but {@link #pushes()} is called holding it (the
 * pushes run on their own threads).
 */
final class UpdateFeed {
    private static final long MAX_POLL_SECONDS = 50;

    private final ReentrantLock lock;
    private long pollGeneration;
    private int waitingPolls;
    private long conflicts;
    private final Condition updatesArrived;
    private final ExecutorService executor;
    private final HttpClient pusher =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final TreeMap<Long, ObjectNode> pending = new TreeMap<>();
    private final Map<Long, ObjectNode> all = new HashMap<>();
    private final List<WebhookPush> pushes = new CopyOnWriteArrayList<>();
    private long nextUpdateId = 100_001;
    private long confirmedOffset;
    private String webhookUrl = "";
    private String webhookSecret;
    private volatile boolean closed;

    UpdateFeed(ReentrantLock lock, ExecutorService executor) {
        this.lock = lock;
        this.updatesArrived = lock.newCondition();
        this.executor = executor;
    }

    long nextId() {
        return nextUpdateId++;
    }

    long lastId() {
        return nextUpdateId - 1;
    }

    /** Keeps the update for redelivery and delivers it; under the lock that gave its id, so none overtakes another. */
    void add(long updateId, ObjectNode update) {
        all.put(updateId, update);
        deliver(updateId, update);
    }

    ObjectNode get(long updateId) {
        return all.get(updateId);
    }

    void deliver(long updateId, ObjectNode update) {
        if (webhookUrl.isEmpty()) {
            pending.put(updateId, update);
            updatesArrived.signalAll();
        } else {
            String url = webhookUrl;
            executor.submit(() -> push(url, updateId, update));
        }
    }

    /** Pushes to the webhook, retried like Telegram does while the bot answers non-2xx (a few times, here quickly). */
    private void push(String url, long updateId, ObjectNode update) {
        for (int attempt = 0; attempt < 5 && !closed; attempt++) {
            int status;
            try {
                HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url))
                        .timeout(Duration.ofSeconds(30))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(update.toString()));
                String secret = secret();
                if (secret != null) b.header("X-Telegram-Bot-Api-Secret-Token", secret);
                status = pusher.send(b.build(), HttpResponse.BodyHandlers.discarding())
                        .statusCode();
            } catch (IOException e) {
                status = -1;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            pushes.add(new WebhookPush(updateId, status));
            if (status >= 200 && status < 300) return;
            try {
                Thread.sleep(100L << attempt);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private String secret() {
        lock.lock();
        try {
            return webhookSecret;
        } finally {
            lock.unlock();
        }
    }

    JsonNode setWebhook(BotRequest r) throws BadRequest {
        String url = r.get("url") == null ? "" : r.get("url");
        String secret = r.get("secret_token");
        if (secret != null && !secret.matches("[A-Za-z0-9_-]{1,256}")) {
            throw new BadRequest("Bad Request: secret token contains unallowed characters");
        }
        if (!url.isEmpty() && !url.startsWith("https://") && !url.startsWith("http://127.0.0.1")) {
            throw new BadRequest("Bad Request: bad webhook: An HTTPS URL must be provided for webhook");
        }
        webhookUrl = url;
        webhookSecret = secret;
        List<Map.Entry<Long, ObjectNode>> queued = List.copyOf(pending.entrySet());
        pending.clear();
        if (!url.isEmpty()) for (var q : queued) executor.submit(() -> push(url, q.getKey(), q.getValue()));
        return BotRequest.JSON.getNodeFactory().booleanNode(true);
    }

    JsonNode deleteWebhook(BotRequest r) {
        webhookUrl = "";
        webhookSecret = null;
        if (r.flag("drop_pending_updates")) pending.clear();
        return BotRequest.JSON.getNodeFactory().booleanNode(true);
    }

    JsonNode webhookInfo() {
        return BotRequest.JSON.createObjectNode().put("url", webhookUrl).put("pending_update_count", pending.size());
    }

    /**
     * Long polling: confirms updates below {@code offset}, then answers at once or when one arrives, within
     * {@code timeout}.
     */
    JsonNode poll(BotRequest r) throws BadRequest, InterruptedException {
        Long offset = r.optionalLong("offset");
        Long limit = r.optionalLong("limit");
        Long timeout = r.optionalLong("timeout");
        long wait = TimeUnit.SECONDS.toNanos(Math.min(MAX_POLL_SECONDS, timeout == null ? 0 : timeout));
        long deadline = System.nanoTime() + wait;
        if (!webhookUrl.isEmpty()) {
            throw new BadRequest(
                    409,
                    "Conflict: can't use getUpdates method while webhook is active;"
                            + " use deleteWebhook to delete the webhook first",
                    null);
        }
        if (offset != null && offset > 0) {
            pending.headMap(offset).clear();
            confirmedOffset = Math.max(confirmedOffset, offset);
        }
        long from = offset == null ? 0 : offset;
        // Telegram's rule: a newer getUpdates ends one still waiting with 409 (two bot instances polling)
        long mine = ++pollGeneration;
        if (waitingPolls > 0) {
            conflicts++;
            updatesArrived.signalAll();
        }
        waitingPolls++;
        try {
            while (pending.tailMap(from).isEmpty() && !closed) {
                long left = deadline - System.nanoTime();
                if (left <= 0) break;
                updatesArrived.awaitNanos(left);
                if (pollGeneration != mine) {
                    throw new BadRequest(
                            409,
                            "Conflict: terminated by other getUpdates request; make sure that only one bot instance"
                                    + " is running",
                            null);
                }
            }
        } finally {
            waitingPolls--;
        }
        ArrayNode out = BotRequest.JSON.createArrayNode();
        int max = limit == null || limit <= 0 ? 100 : (int) Math.min(100, limit);
        for (ObjectNode u : pending.tailMap(from).values()) {
            if (out.size() >= max) break;
            out.add(u);
        }
        return out;
    }

    /** Forgets updates already confirmed and the push log. */
    void forgetConfirmed() {
        all.keySet().removeIf(id -> id < confirmedOffset);
        pushes.clear();
    }

    /** How many getUpdates calls arrived while another was still waiting (Telegram answers the older one 409). */
    long pollConflicts() {
        return conflicts;
    }

    long confirmedOffset() {
        return confirmedOffset;
    }

    int pendingCount() {
        return pending.size();
    }

    String webhookUrl() {
        return webhookUrl;
    }

    List<WebhookPush> pushes() {
        return List.copyOf(pushes);
    }

    void close() {
        closed = true;
        updatesArrived.signalAll();
    }
}

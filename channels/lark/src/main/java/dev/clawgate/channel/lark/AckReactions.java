package dev.clawgate.channel.lark;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.store.InboxState;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ack reactions on a user's message (SPEC RP-5, {@code ack_reactions = true}): {@code OnIt} when received, removed when
 * the message is settled, then {@code DONE} or {@code CrossMark}. Run on {@code io}, off the caller's thread; a
 * reaction that fails is only logged.
 */
final class AckReactions {
    private static final Logger log = LoggerFactory.getLogger(AckReactions.class);
    static final String RECEIVED = "OnIt";
    static final String DONE = "DONE";
    static final String FAILED = "CrossMark";
    private static final Duration RECEIPT_WAIT = Duration.ofSeconds(10);

    private final LarkApi api;
    private final Executor io;
    /** The receipt reaction's id per message, once shown: settled waits for it (both run on {@code io}). */
    private final ConcurrentHashMap<String, CompletableFuture<String>> receiptReactions = new ConcurrentHashMap<>();

    AckReactions(LarkApi api, Executor io) {
        this.api = api;
        this.io = io;
    }

    void received(String id) {
        CompletableFuture<String> shown = new CompletableFuture<>();
        CompletableFuture<String> old = receiptReactions.put(id, shown);
        if (old != null) old.complete(null);
        io.execute(() -> shown.complete(react(id, RECEIVED)));
    }

    void settled(String id, InboxState state) {
        CompletableFuture<String> shown = receiptReactions.remove(id);
        io.execute(() -> {
            String receipt = receiptId(shown);
            if (receipt != null) {
                try {
                    api.call("DELETE", "im/v1/messages/" + id + "/reactions/" + receipt, null, CancelToken.none());
                } catch (LarkApiException e) {
                    log.debug("lark: receipt reaction not removed: {}", e.getMessage());
                }
            }
            switch (state) {
                case DONE -> react(id, DONE);
                case FAILED, EXPIRED -> react(id, FAILED);
                default -> {}
            }
        });
    }

    private static String receiptId(CompletableFuture<String> shown) {
        if (shown == null) return null;
        try {
            return shown.get(RECEIPT_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } catch (ExecutionException | TimeoutException e) {
            return null;
        }
    }

    private String react(String messageId, String emoji) {
        ObjectNode body = LarkApi.JSON.createObjectNode();
        body.putObject("reaction_type").put("emoji_type", emoji);
        try {
            return api.call("POST", "im/v1/messages/" + messageId + "/reactions", body, CancelToken.none())
                    .path("data")
                    .path("reaction_id")
                    .asText(null);
        } catch (LarkApiException e) {
            log.debug("lark: reaction {} not shown: {}", emoji, e.getMessage());
            return null;
        }
    }
}

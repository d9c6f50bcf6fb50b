package dev.clawgate.testkit.lark;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * What the fake platform keeps of its chats: the bot's messages (a repeated {@code uuid} gives the first message back,
 * no second one), their edits and recalls, uploaded images, users' message resources and the bot's reactions.
 */
final class LarkChats {
    private final ReentrantLock lock = new ReentrantLock();
    private final List<FakeLark.Sent> sent = new ArrayList<>();
    private final Map<String, String> byUuid = new HashMap<>();
    private final Map<String, String> chatOfMessage = new HashMap<>();
    private final Map<String, byte[]> images = new HashMap<>();
    private final Map<String, byte[]> resources = new HashMap<>();
    private final List<FakeLark.Reaction> reactions = new ArrayList<>();
    private final Set<String> recalled = new HashSet<>();
    private final AtomicLong ids = new AtomicLong();

    /** A user's message in {@code chatId}, so replies to it land there. */
    void userMessage(String messageId, String chatId) {
        locked(() -> chatOfMessage.put(messageId, chatId));
    }

    void resource(String messageId, String key, byte[] bytes) {
        locked(() -> resources.put(messageId + "/" + key, bytes));
    }

    byte[] resource(String messageId, String key) {
        return locked(() -> resources.get(messageId + "/" + key));
    }

    String chatOf(String messageId) {
        return locked(() -> chatOfMessage.get(messageId));
    }

    FakeLark.Sent record(String chatId, String type, String content, String parentId, String uuid) {
        return locked(() -> {
            if (uuid != null && byUuid.containsKey(uuid)) {
                String known = byUuid.get(uuid);
                return sent.stream()
                        .filter(s -> s.messageId().equals(known))
                        .findFirst()
                        .orElseThrow();
            }
            String id = "om_" + UUID.randomUUID().toString().replace("-", "");
            FakeLark.Sent s =
                    new FakeLark.Sent(id, chatId, type, content, parentId, uuid, new CopyOnWriteArrayList<>());
            sent.add(s);
            chatOfMessage.put(id, chatId);
            if (uuid != null) byUuid.put(uuid, id);
            return s;
        });
    }

    /**
     * 200, 404 (no such message of the bot, or not of {@code type}) or 429 (text and post: edited
     * {@value LarkOpenApi#MAX_EDITS} times already; a card has no such budget).
     */
    int edit(String messageId, String type, String content) {
        return locked(() -> {
            FakeLark.Sent s = sent.stream()
                    .filter(x -> x.messageId().equals(messageId))
                    .findFirst()
                    .orElse(null);
            if (s == null || !s.msgType().equals(type) || recalled.contains(messageId)) return 404;
            if (!type.equals("interactive") && s.edits().size() >= LarkOpenApi.MAX_EDITS) return 429;
            s.edits().add(content);
            return 200;
        });
    }

    /** False when the bot sent no such message (or it is recalled already). */
    boolean recall(String messageId) {
        return locked(() -> sent.stream().anyMatch(s -> s.messageId().equals(messageId)) && recalled.add(messageId));
    }

    String storeImage(byte[] bytes) {
        String key = "img_v3_" + UUID.randomUUID().toString().replace("-", "");
        locked(() -> images.put(key, bytes));
        return key;
    }

    byte[] image(String imageKey) {
        return locked(() -> images.get(imageKey));
    }

    String react(String messageId, String emoji) {
        String id = "rc_" + ids.incrementAndGet();
        locked(() -> reactions.add(new FakeLark.Reaction(id, messageId, emoji, false)));
        return id;
    }

    void unreact(String messageId, String reactionId) {
        locked(() -> reactions.replaceAll(
                r -> r.reactionId().equals(reactionId) && r.messageId().equals(messageId)
                        ? new FakeLark.Reaction(r.reactionId(), r.messageId(), r.emojiType(), true)
                        : r));
    }

    List<FakeLark.Sent> sent() {
        return locked(() -> List.copyOf(sent));
    }

    List<String> visible(String chatId) {
        return locked(() -> sent.stream()
                .filter(s -> s.chatId().equals(chatId) && !recalled.contains(s.messageId()))
                .map(s -> s.edits().isEmpty() ? s.content() : s.edits().getLast())
                .toList());
    }

    List<FakeLark.Reaction> reactions() {
        return locked(() -> List.copyOf(reactions));
    }

    private void locked(Runnable r) {
        locked(() -> {
            r.run();
            return null;
        });
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

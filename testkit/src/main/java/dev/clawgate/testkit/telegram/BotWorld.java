package dev.clawgate.testkit.telegram;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.testkit.telegram.BotRequest.BadRequest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The fake's chats, messages and files, and the Bot API methods that change them. Not thread-safe:
 * {@link FakeTelegramServer} holds its lock around every call.
 */
final class BotWorld {
    static final int TEXT_LIMIT = 4096;
    static final int CAPTION_LIMIT = 1024;
    private static final Pattern MENTION = Pattern.compile("@[A-Za-z0-9_]{3,}");
    /** The emoji a bot may react with (Bot API ReactionTypeEmoji); others are REACTION_INVALID. */
    static final Set<String> REACTIONS = Set.of(
            "👍", "👎", "❤", "🔥", "🥰", "👏", "😁", "🤔", "🤯", "😱", "🤬", "😢", "🎉", "🤩", "🤮", "💩", "🙏", "👌",
            "🕊", "🤡", "🥱", "🥴", "😍", "🐳", "💯", "🤣", "⚡", "🍌", "🏆", "💔", "🤨", "😐", "🍓", "🍾", "💋", "😈",
            "😴", "😭", "🤓", "👻", "👀", "🎃", "🙈", "😇", "😨", "🤝", "✍", "🤗", "🫡", "🎅", "🎄", "☃", "💅", "🤪",
            "🗿", "🆒", "💘", "🙉", "🦄", "😘", "💊", "🙊", "😎", "👾", "🤷", "😡");

    final TelegramUser bot;
    final Map<Long, TelegramChat> chats = new LinkedHashMap<>();
    final Set<Long> blockedBy = new HashSet<>();
    /** chat id → message id → the message JSON as Telegram would return it. */
    final Map<Long, Map<Long, ObjectNode>> messages = new HashMap<>();

    final Map<String, SentMessage> sent = new LinkedHashMap<>();
    final Map<String, List<String>> reactions = new HashMap<>();
    final Map<String, String> chatActions = new LinkedHashMap<>();
    final List<String> chatActionLog = new ArrayList<>();
    final Map<String, byte[]> fileBytes = new HashMap<>();
    final Map<String, ObjectNode> files = new HashMap<>();
    final Map<Long, Set<Long>> topics = new HashMap<>();
    private final Map<Long, AtomicLong> nextMessageId = new HashMap<>();
    private final AtomicLong nextFile = new AtomicLong(1);
    /** Unix seconds, as Telegram's {@code date}: the wall clock, never going back. */
    private final AtomicLong clock = new AtomicLong(System.currentTimeMillis() / 1000);

    BotWorld(TelegramUser bot) {
        this.bot = bot;
    }

    static String key(long chatId, long messageId) {
        return chatId + ":" + messageId;
    }

    long nextId(long chatId) {
        return nextMessageId.computeIfAbsent(chatId, c -> new AtomicLong(1)).getAndIncrement();
    }

    ObjectNode userJson(TelegramUser u) {
        ObjectNode n = BotRequest.JSON
                .createObjectNode()
                .put("id", u.id())
                .put("is_bot", u.isBot())
                .put("first_name", u.firstName());
        if (u.username() != null) n.put("username", u.username());
        return n;
    }

    ObjectNode chatJson(TelegramChat c) {
        ObjectNode n = BotRequest.JSON.createObjectNode().put("id", c.id()).put("type", c.type());
        if (c.isPrivate()) {
            n.put("first_name", c.peer().firstName());
            if (c.peer().username() != null) n.put("username", c.peer().username());
        } else {
            n.put("title", c.title());
            if (c.forum()) n.put("is_forum", true);
        }
        return n;
    }

    private long now() {
        return clock.accumulateAndGet(System.currentTimeMillis() / 1000, Math::max);
    }

    /** A new message in {@code chat}, stored so replies, edits and reactions can find it. */
    ObjectNode newMessage(TelegramChat chat, TelegramUser from, Long threadId, boolean topicMessage) {
        long id = nextId(chat.id());
        ObjectNode m = BotRequest.JSON.createObjectNode().put("message_id", id);
        m.set("from", userJson(from));
        m.set("chat", chatJson(chat));
        m.put("date", now());
        if (threadId != null) m.put("message_thread_id", threadId);
        if (topicMessage) m.put("is_topic_message", true);
        messages.computeIfAbsent(chat.id(), c -> new HashMap<>()).put(id, m);
        return m;
    }

    /** Text with the mention entities Telegram computes for it (offsets in UTF-16 units). */
    void setText(ObjectNode m, String field, String entitiesField, String text) {
        m.put(field, text);
        ArrayNode entities = BotRequest.JSON.createArrayNode();
        Matcher mm = MENTION.matcher(text);
        while (mm.find())
            entities.addObject()
                    .put("type", "mention")
                    .put("offset", mm.start())
                    .put("length", mm.end() - mm.start());
        if (!entities.isEmpty()) m.set(entitiesField, entities);
    }

    String registerFile(byte[] bytes, String pathPrefix, String name) {
        String id = "file-" + nextFile.getAndIncrement();
        String path = pathPrefix + "/" + id + "_" + name;
        fileBytes.put(path, bytes);
        files.put(
                id,
                BotRequest.JSON
                        .createObjectNode()
                        .put("file_id", id)
                        .put("file_unique_id", "u" + id)
                        .put("file_size", bytes.length)
                        .put("file_path", path));
        return id;
    }

    TelegramChat chat(BotRequest r) throws BadRequest {
        String raw = r.get("chat_id");
        if (raw == null || raw.isBlank()) throw new BadRequest("Bad Request: chat_id is empty");
        long id;
        try {
            id = Long.parseLong(raw.strip());
        } catch (NumberFormatException e) {
            throw new BadRequest("Bad Request: chat not found");
        }
        TelegramChat c = chats.get(id);
        if (c == null) throw new BadRequest("Bad Request: chat not found");
        if (c.isPrivate() && blockedBy.contains(c.peer().id()))
            throw new BadRequest(403, "Forbidden: bot was blocked by the user", null);
        return c;
    }

    /** {@code sendMessage}, {@code sendPhoto}, {@code sendDocument}: the shared part of a new bot message. */
    ObjectNode send(BotRequest r, String kind, String text, String parseMode, String fileName, byte[] bytes)
            throws BadRequest {
        TelegramChat chat = chat(r);
        String visible = TelegramMarkup.visibleText(text, parseMode);
        int limit = kind.equals("text") ? TEXT_LIMIT : CAPTION_LIMIT;
        if (kind.equals("text") && visible.isBlank()) throw new BadRequest("Bad Request: message text is empty");
        if (visible.length() > limit)
            throw new BadRequest(
                    kind.equals("text")
                            ? "Bad Request: message is too long"
                            : "Bad Request: message caption is too long");
        Long thread = r.optionalLong("message_thread_id");
        if (thread != null
                && chat.forum()
                && !topics.getOrDefault(chat.id(), Set.of()).contains(thread)) {
            throw new BadRequest("Bad Request: message thread not found");
        }
        if (!chat.forum()) thread = null; // outside forums Telegram ignores it for sends
        Long replyTo = replyTarget(r, chat);
        ObjectNode m = newMessage(chat, bot, thread, thread != null);
        if (replyTo != null)
            m.set("reply_to_message", messages.get(chat.id()).get(replyTo).deepCopy());
        if (kind.equals("text")) m.put("text", visible);
        else if (!visible.isEmpty()) m.put("caption", visible);
        long id = m.get("message_id").asLong();
        sent.put(
                key(chat.id(), id),
                new SentMessage(
                        chat.id(),
                        id,
                        kind,
                        visible,
                        text,
                        parseMode,
                        thread,
                        replyTo,
                        r.flag("disable_notification"),
                        0,
                        false,
                        fileName,
                        bytes));
        return m;
    }

    private Long replyTarget(BotRequest r, TelegramChat chat) throws BadRequest {
        JsonNode params = r.json("reply_parameters");
        Long id = params != null ? (Long) params.path("message_id").asLong() : r.optionalLong("reply_to_message_id");
        if (id == null) return null;
        boolean lenient =
                params != null && params.path("allow_sending_without_reply").asBoolean(false);
        if (!messages.getOrDefault(chat.id(), Map.of()).containsKey(id)) {
            if (lenient) return null;
            throw new BadRequest("Bad Request: message to be replied not found");
        }
        return id;
    }

    ObjectNode edit(BotRequest r) throws BadRequest {
        TelegramChat chat = chat(r);
        long id = r.requiredLong("message_id");
        SentMessage old = sent.get(key(chat.id(), id));
        if (old == null || old.deleted()) throw new BadRequest("Bad Request: message to edit not found");
        String text = r.get("text") == null ? "" : r.get("text");
        String parseMode = r.get("parse_mode");
        String visible = TelegramMarkup.visibleText(text, parseMode);
        if (visible.isBlank()) throw new BadRequest("Bad Request: message text is empty");
        if (visible.length() > TEXT_LIMIT) throw new BadRequest("Bad Request: MESSAGE_TOO_LONG");
        if (visible.equals(old.text()) && text.equals(old.rawText())) {
            throw new BadRequest(
                    "Bad Request: message is not modified: specified new message content and reply markup are exactly "
                            + "the same as a current content and reply markup of the message");
        }
        sent.put(key(chat.id(), id), old.edited(visible, text, parseMode));
        ObjectNode m = messages.get(chat.id()).get(id);
        m.put("text", visible).put("edit_date", now());
        return m;
    }

    void delete(BotRequest r) throws BadRequest {
        TelegramChat chat = chat(r);
        long id = r.requiredLong("message_id");
        Map<Long, ObjectNode> inChat = messages.getOrDefault(chat.id(), Map.of());
        if (!inChat.containsKey(id)) throw new BadRequest("Bad Request: message to delete not found");
        inChat.remove(id);
        SentMessage s = sent.get(key(chat.id(), id));
        if (s != null) sent.put(key(chat.id(), id), s.asDeleted());
    }

    void react(BotRequest r) throws BadRequest {
        TelegramChat chat = chat(r);
        long id = r.requiredLong("message_id");
        if (!messages.getOrDefault(chat.id(), Map.of()).containsKey(id))
            throw new BadRequest("Bad Request: message to react not found");
        JsonNode list = r.json("reaction");
        List<String> emoji = new ArrayList<>();
        if (list != null) {
            for (JsonNode n : list) {
                String e = n.path("emoji").asText();
                if (!"emoji".equals(n.path("type").asText()) || !REACTIONS.contains(e))
                    throw new BadRequest("Bad Request: REACTION_INVALID");
                emoji.add(e);
            }
        }
        reactions.computeIfAbsent(key(chat.id(), id), k -> new ArrayList<>()).addAll(emoji);
    }

    void chatAction(BotRequest r) throws BadRequest {
        TelegramChat chat = chat(r);
        String action = r.get("action");
        if (action == null
                || !Set.of(
                                "typing",
                                "upload_photo",
                                "record_video",
                                "upload_video",
                                "record_voice",
                                "upload_voice",
                                "upload_document",
                                "choose_sticker",
                                "find_location",
                                "record_video_note",
                                "upload_video_note")
                        .contains(action)) {
            throw new BadRequest("Bad Request: wrong parameter action in request");
        }
        chatActionLog.add(chat.id() + ":" + action);
    }

    /**
     * Drops all but the newest {@code keep} messages of each chat, with their sent entries and reactions, and the
     * typing log.
     */
    void forgetBefore(int keep) {
        Map<Long, Long> firstKept = new HashMap<>();
        nextMessageId.forEach((chat, next) -> firstKept.put(chat, next.get() - keep));
        messages.forEach((chat, inChat) ->
                inChat.keySet().removeIf(id -> id < firstKept.getOrDefault(chat, Long.MIN_VALUE)));
        sent.values().removeIf(m -> m.messageId() < firstKept.getOrDefault(m.chatId(), Long.MIN_VALUE));
        reactions.keySet().removeIf(k -> {
            int colon = k.lastIndexOf(':');
            return Long.parseLong(k.substring(colon + 1))
                    < firstKept.getOrDefault(Long.parseLong(k.substring(0, colon)), Long.MIN_VALUE);
        });
        chatActionLog.clear();
    }

    ObjectNode file(BotRequest r) throws BadRequest {
        ObjectNode f = files.get(r.get("file_id"));
        if (f == null) throw new BadRequest("Bad Request: invalid file_id");
        return f;
    }
}

package dev.clawgate.testkit.telegram;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import dev.clawgate.testkit.contract.PlatformCall;
import dev.clawgate.testkit.contract.PlatformCallLog;
import dev.clawgate.testkit.telegram.BotRequest.BadRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A fake Telegram Bot API on a free loopback port: {@code POST /bot<token>/<method>} with JSON, form or multipart
 * bodies, answered {@code {"ok":true,"result":...}} or
 * {@code {"ok":false,"error_code":...,"description":...,"parameters":{...}}} like the real one, and files at {@code GET
 * /file/bot<token>/<path>}. Tests create users and chats, write messages as users ({@code getUpdates} long polling, or
 * pushed to the webhook with its secret header), inject failures, and read what the bot sent; every call is logged for
 * the capability harness.
 */
public final class FakeTelegramServer implements PlatformCallLog, AutoCloseable {
    private final HttpServer http;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final ReentrantLock lock = new ReentrantLock();
    private final UpdateFeed feed = new UpdateFeed(lock, executor);
    private final BotWorld world;
    private final BotApi api;

    /** One webhook POST the fake made: the update and the status the bot answered (or -1 when unreachable). */
    public record WebhookPush(long updateId, int status) {}

    /**
     * Told of every call the fake answered with {@code "ok":true}, on the request's thread, before the answer is
     * written.
     */
    @FunctionalInterface
    public interface CallObserver {
        /** @param result the call's {@code result}, e.g. the sent message of a {@code sendMessage}; do not modify it */
        void answered(String method, JsonNode result);
    }

    private FakeTelegramServer(String token, String botUsername) throws IOException {
        long botId = Long.parseLong(token.substring(0, token.indexOf(':')));
        this.world = new BotWorld(new TelegramUser(botId, botUsername, "Claw", true));
        this.api = new BotApi(token, lock, world, feed);
        http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 256);
        http.setExecutor(executor);
        http.createContext("/", api);
        http.start();
    }

    /** Starts the fake for a bot whose token is {@code <bot id>:<secret>} and whose username is {@code botUsername}. */
    public static FakeTelegramServer start(String token, String botUsername) {
        if (!token.matches("\\d+:[A-Za-z0-9_-]+"))
            throw new IllegalArgumentException("a bot token looks like 123456:ABC-def");
        try {
            return new FakeTelegramServer(token, botUsername);
        } catch (IOException e) {
            throw new UncheckedIOException("could not start the fake Telegram server", e);
        }
    }

    /** {@code http://127.0.0.1:PORT}: the {@code api_base} a client configures. */
    public String apiBase() {
        return "http://127.0.0.1:" + http.getAddress().getPort();
    }

    public TelegramUser bot() {
        return world.bot;
    }

    // ---- the world --------------------------------------------------------------------------

    public TelegramUser user(long id, String username) {
        return new TelegramUser(id, username, Character.toUpperCase(username.charAt(0)) + username.substring(1), false);
    }

    /** The private chat of {@code user} with the bot (its id is the user's id, as on Telegram). */
    public TelegramChat privateChat(TelegramUser user) {
        return addChat(new TelegramChat(user.id(), "private", null, user, false));
    }

    public TelegramChat group(long id, String title) {
        return addChat(new TelegramChat(id, "supergroup", title, null, false));
    }

    public TelegramChat forum(long id, String title) {
        return addChat(new TelegramChat(id, "supergroup", title, null, true));
    }

    /** Opens a forum topic; returns its {@code message_thread_id} (the id of the topic's service message). */
    public long createTopic(TelegramChat forum, String name) {
        return locked(() -> {
            long id = world.newMessage(forum, world.bot, null, false)
                    .put("forum_topic_created", name)
                    .get("message_id")
                    .asLong();
            world.topics
                    .computeIfAbsent(forum.id(), c -> new java.util.HashSet<>())
                    .add(id);
            return id;
        });
    }

    /** The user blocked the bot: sends to their private chat now fail with 403. */
    public void blockBot(TelegramUser user) {
        locked(() -> world.blockedBy.add(user.id()));
    }

    private TelegramChat addChat(TelegramChat chat) {
        return locked(() -> {
            world.chats.put(chat.id(), chat);
            return chat;
        });
    }

    // ---- what users write: each returns the new message's id ---------------------------------

    public long sendText(TelegramChat chat, TelegramUser from, String text) {
        return inject(chat, from, null, false, null, m -> world.setText(m, "text", "entities", text));
    }

    /**
     * A reply to one of the bot's (or anyone's) messages; outside forums it carries the thread of replies, not a topic.
     */
    public long replyTo(TelegramChat chat, TelegramUser from, long messageId, String text) {
        return inject(
                chat,
                from,
                chat.forum() ? null : messageId,
                false,
                messageId,
                m -> world.setText(m, "text", "entities", text));
    }

    public long sendTopicText(TelegramChat forum, long threadId, TelegramUser from, String text) {
        return inject(forum, from, threadId, true, null, m -> world.setText(m, "text", "entities", text));
    }

    public long sendPhoto(TelegramChat chat, TelegramUser from, byte[] jpeg, String caption) {
        return inject(chat, from, null, false, null, m -> {
            String id = world.registerFile(jpeg, "photos", "photo.jpg");
            ArrayNode sizes = m.putArray("photo");
            sizes.addObject()
                    .put("file_id", id)
                    .put("file_unique_id", "u" + id)
                    .put("width", 90)
                    .put("height", 90)
                    .put("file_size", jpeg.length);
            if (caption != null) world.setText(m, "caption", "caption_entities", caption);
        });
    }

    public long sendDocument(
            TelegramChat chat, TelegramUser from, String fileName, String mimeType, byte[] bytes, String caption) {
        return inject(chat, from, null, false, null, m -> {
            String id = world.registerFile(bytes, "documents", fileName);
            m.putObject("document")
                    .put("file_id", id)
                    .put("file_unique_id", "u" + id)
                    .put("file_name", fileName)
                    .put("mime_type", mimeType)
                    .put("file_size", bytes.length);
            if (caption != null) world.setText(m, "caption", "caption_entities", caption);
        });
    }

    /**
     * Delivers an update exactly as {@code build} writes it, given the next update id, which it may use as
     * {@code update_id} or not: a malformed update, to test that a poison message never blocks the stream. It is queued
     * under that id (getUpdates) or pushed (webhook) like any other.
     *
     * @return the update id it was given
     */
    public long sendRawUpdate(java.util.function.LongFunction<ObjectNode> build) {
        return locked(() -> {
            long id = feed.nextId();
            feed.add(id, build.apply(id));
            return id;
        });
    }

    /** A message of {@code from} in {@code chat} as Telegram writes it, to corrupt for {@link #sendRawUpdate}. */
    public ObjectNode messageJson(TelegramChat chat, TelegramUser from, String text) {
        return locked(() -> {
            ObjectNode m = world.newMessage(chat, from, null, false);
            world.setText(m, "text", "entities", text);
            return m.deepCopy();
        });
    }

    /** Delivers update {@code updateId} once more, as Telegram does after a lost acknowledgement. */
    public void redeliver(long updateId) {
        locked(() -> {
            ObjectNode u = feed.get(updateId);
            if (u == null) throw new IllegalArgumentException("no update " + updateId);
            feed.deliver(updateId, u);
            return null;
        });
    }

    /** The id of the last update made. */
    public long lastUpdateId() {
        return locked(feed::lastId);
    }

    private long inject(
            TelegramChat chat,
            TelegramUser from,
            Long threadId,
            boolean topic,
            Long replyTo,
            java.util.function.Consumer<ObjectNode> content) {
        ObjectNode update = locked(() -> {
            ObjectNode m = world.newMessage(chat, from, threadId, topic);
            if (replyTo != null)
                m.set(
                        "reply_to_message",
                        world.messages.get(chat.id()).get(replyTo).deepCopy());
            content.accept(m);
            long id = feed.nextId();
            ObjectNode u = BotRequest.JSON.createObjectNode().put("update_id", id);
            u.set("message", m);
            // under the same lock as the id: a poll must never see update N+1 before N (its offset would skip N for
            // good)
            feed.add(id, u);
            return u;
        });
        return update.get("message").get("message_id").asLong();
    }

    /** Watches every successful call as it happens (load drivers time replies with it); null stops watching. */
    public void observe(CallObserver callObserver) {
        api.observe(callObserver);
    }

    /**
     * Forgets what a long run piles up, so the fake's memory stays flat: the call log, updates already confirmed by an
     * offset, the typing log, and all but the newest {@code keepPerChat} messages of each chat (with what the bot sent
     * and reacted there). A later reply to a forgotten message fails as on Telegram ("message to be replied not
     * found").
     */
    public void forgetHistory(int keepPerChat) {
        if (keepPerChat < 1) throw new IllegalArgumentException("keepPerChat must be at least 1");
        api.forgetCalls();
        locked(() -> {
            feed.forgetConfirmed();
            world.forgetBefore(keepPerChat);
            return null;
        });
    }

    // ---- failures -----------------------------------------------------------------------------

    /** The next call of {@code method} fails with {@code code} (429 carries {@code retry_after}). */
    public void failNext(String method, int code, int retryAfter) {
        String description = switch (code) {
            case 429 -> "Too Many Requests: retry after " + retryAfter;
            case 403 -> "Forbidden: bot was blocked by the user";
            case 400 -> "Bad Request: chat not found";
            case 401 -> "Unauthorized";
            case 502 -> "Bad Gateway";
            default -> "Internal Server Error";
        };
        failNext(method, code, description, code == 429 ? retryAfter : null);
    }

    /** The next call of {@code method} fails with exactly this answer. */
    public void failNext(String method, int code, String description, Integer retryAfter) {
        api.failNext(method, new BadRequest(code, description, retryAfter));
    }

    /**
     * The next call of {@code method} is processed, then answered only after {@code delay} (a client timeout is
     * ambiguous).
     */
    public void stallNext(String method, Duration delay) {
        api.stallNext(method, delay);
    }

    /** Like {@link #stallNext(String, Duration)}, for the next call of {@code method} to {@code chat} only. */
    public void stallNext(String method, TelegramChat chat, Duration delay) {
        api.stallNext(method + ":" + chat.id(), delay);
    }

    // ---- what the bot did ---------------------------------------------------------------------

    @Override
    public List<PlatformCall> calls() {
        return api.calls();
    }

    /** The calls of one method, their bodies parsed (uploads summarised as {@code {"file_name","size"}}). */
    public List<JsonNode> calls(String method) {
        List<JsonNode> out = new ArrayList<>();
        for (PlatformCall c : api.calls()) {
            if (!c.method().equals(method)) continue;
            try {
                out.add(BotRequest.JSON.readTree(c.body()));
            } catch (IOException e) {
                throw new IllegalStateException("the call log holds JSON only", e);
            }
        }
        return out;
    }

    /** When each call of {@code method} arrived, in order. */
    public List<java.time.Instant> callTimes(String method) {
        var both = api.callsWithTimes();
        List<PlatformCall> all = both.getKey();
        List<java.time.Instant> times = both.getValue();
        List<java.time.Instant> out = new ArrayList<>();
        for (int i = 0; i < Math.min(all.size(), times.size()); i++)
            if (all.get(i).method().equals(method)) out.add(times.get(i));
        return out;
    }

    /** Every message the bot sent, in order, as it stands now. */
    public List<SentMessage> sent() {
        return locked(() -> List.copyOf(world.sent.values()));
    }

    public List<SentMessage> sentTo(TelegramChat chat) {
        return sent().stream()
                .filter(m -> m.chatId() == chat.id() && !m.deleted())
                .toList();
    }

    /** The reactions the bot set on a message, in order. */
    public List<String> reactions(TelegramChat chat, long messageId) {
        return locked(() -> List.copyOf(world.reactions.getOrDefault(BotWorld.key(chat.id(), messageId), List.of())));
    }

    /** {@code chat:action} for every sendChatAction, in order. */
    public List<String> chatActions() {
        return locked(() -> List.copyOf(world.chatActionLog));
    }

    /**
     * How many getUpdates calls came while another was still waiting: two pollers of one bot at once (Telegram ends the
     * older call with 409 Conflict). A poller that died mid-call counts once when its successor starts.
     */
    public long pollConflicts() {
        return locked(feed::pollConflicts);
    }

    /** The highest offset a getUpdates call confirmed: updates below it are gone for good. */
    public long confirmedOffset() {
        return locked(feed::confirmedOffset);
    }

    /** Updates not yet confirmed by an offset. */
    public int pendingUpdates() {
        return locked(feed::pendingCount);
    }

    public String webhookUrl() {
        return locked(feed::webhookUrl);
    }

    public List<WebhookPush> webhookPushes() {
        return feed.pushes();
    }

    @Override
    public void close() {
        locked(() -> {
            feed.close();
            return null;
        });
        http.stop(0);
        executor.shutdownNow();
        try {
            executor.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private <T, E extends Exception> T locked(BotApi.Locked<T, E> action) throws E {
        return api.locked(action);
    }

    @Override
    public String toString() {
        return "FakeTelegramServer[" + apiBase() + ", bot=@" + world.bot.username() + "]";
    }
}

package dev.clawgate.testkit.slack;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The fake workspace: people, the bot, conversations, messages (keyed by {@code ts}), reactions and files. Not
 * thread-safe: {@link FakeSlack} holds its lock around every use.
 */
final class SlackWorld {
    static final ObjectMapper JSON = new ObjectMapper();

    /** A conversation and what was said in it. */
    static final class Conversation {
        final SlackChannel channel;
        boolean botMember;
        boolean archived;
        final NavigableMap<String, Post> posts = new TreeMap<>();

        Conversation(SlackChannel channel, boolean botMember) {
            this.channel = channel;
            this.botMember = botMember;
        }
    }

    /** One message; {@code threadTs} is its root's ts in a thread (a root carries its own once replied to). */
    static final class Post {
        final String channel;
        final String ts;
        String threadTs;
        final String user;
        final String botId;
        String text;
        JsonNode blocks;
        JsonNode metadata;
        final String clientMsgId;
        final List<String> fileIds = new ArrayList<>();
        final Map<String, Set<String>> reactions = new LinkedHashMap<>();
        final List<String> reactionLog = new ArrayList<>();
        final List<String> replies = new ArrayList<>();
        String editedTs;
        int edits;
        boolean deleted;

        Post(String channel, String ts, String user, String botId, String clientMsgId) {
            this.channel = channel;
            this.ts = ts;
            this.user = user;
            this.botId = botId;
            this.clientMsgId = clientMsgId;
        }
    }

    /** A file: uploaded by a person, or by the bot through the external upload flow. */
    static final class StoredFile {
        final String id;
        final String name;
        String title;
        final String mimetype;
        final long declaredLength;
        final String user;
        byte[] bytes;
        boolean completed;

        StoredFile(String id, String name, String mimetype, long declaredLength, String user) {
            this.id = id;
            this.name = name;
            this.title = name;
            this.mimetype = mimetype;
            this.declaredLength = declaredLength;
            this.user = user;
        }
    }

    final String teamId;
    final String appId;
    final String teamDomain = "clawgate-fake";
    final SlackUser bot;
    final Map<String, SlackUser> users = new LinkedHashMap<>();
    final Map<String, Conversation> conversations = new LinkedHashMap<>();
    final Map<String, StoredFile> files = new LinkedHashMap<>();
    private long nextId = 1;
    private long lastMicros;
    private String baseUrl = "";

    SlackWorld(String botName) {
        teamId = id("T");
        appId = id("A");
        bot = new SlackUser(id("U"), botName, id("B"));
        users.put(bot.id(), bot);
    }

    void baseUrl(String url) {
        this.baseUrl = url;
    }

    /** A Slack-looking id: the type letter, then ten upper-case letters or digits, never reused. */
    String id(String prefix) {
        String n = Long.toString(nextId++, 36).toUpperCase(Locale.ROOT);
        return prefix + "0".repeat(Math.max(0, 10 - n.length())) + n;
    }

    /**
     * A new message timestamp: Unix seconds, a dot, six digits, unique and increasing across the workspace (a message
     * is identified by channel + ts; docs.slack.dev/messaging, "Message timestamps").
     */
    String nextTs() {
        long micros = Math.max(System.currentTimeMillis() * 1000, lastMicros + 1);
        lastMicros = micros;
        return String.format(Locale.ROOT, "%d.%06d", micros / 1_000_000, micros % 1_000_000);
    }

    SlackUser person(String name) {
        SlackUser u = new SlackUser(id("U"), name, null);
        users.put(u.id(), u);
        return u;
    }

    SlackUser otherBot(String name) {
        SlackUser u = new SlackUser(id("U"), name, id("B"));
        users.put(u.id(), u);
        return u;
    }

    SlackChannel conversation(String prefix, String name, String type, SlackUser peer, boolean botMember) {
        SlackChannel c = new SlackChannel(id(prefix), name, type, peer);
        conversations.put(c.id(), new Conversation(c, botMember));
        return c;
    }

    Conversation conversation(String id) throws SlackApiError {
        Conversation c = id == null ? null : conversations.get(id.strip());
        if (c == null) throw new SlackApiError("channel_not_found");
        return c;
    }

    Post post(Conversation c, String ts) throws SlackApiError {
        Post p = ts == null ? null : c.posts.get(ts.strip());
        if (p == null || p.deleted) throw new SlackApiError("message_not_found");
        return p;
    }

    /** Adds a message; a reply is attached to its thread root (a reply's own ts names the root's thread). */
    Post add(Conversation c, SlackUser author, String text, String threadTs) throws SlackApiError {
        String root = null;
        if (threadTs != null) {
            Post named = c.posts.get(threadTs);
            if (named == null || named.deleted) throw new SlackApiError("invalid_thread_ts");
            root = named.threadTs != null ? named.threadTs : named.ts;
        }
        String clientMsgId = author.isBot() ? null : UUID.randomUUID().toString();
        Post p = new Post(c.channel.id(), nextTs(), author.id(), author.botId(), clientMsgId);
        p.text = text;
        if (root != null) {
            Post rootPost = c.posts.get(root);
            rootPost.threadTs = root;
            rootPost.replies.add(p.ts);
            p.threadTs = root;
        }
        c.posts.put(p.ts, p);
        return p;
    }

    StoredFile file(String id) throws SlackApiError {
        StoredFile f = id == null ? null : files.get(id.strip());
        if (f == null || !f.completed) throw new SlackApiError("file_not_found");
        return f;
    }

    StoredFile newFile(String name, String mimetype, long length, String user) {
        StoredFile f = new StoredFile(id("F"), name, mimetype, length, user);
        files.put(f.id, f);
        return f;
    }

    String filePath(StoredFile f) {
        return "/files-pri/" + teamId + "-" + f.id + "/" + f.name;
    }

    ObjectNode fileJson(StoredFile f) {
        ObjectNode n = JSON.createObjectNode()
                .put("id", f.id)
                .put("created", System.currentTimeMillis() / 1000)
                .put("name", f.name)
                .put("title", f.title)
                .put("mimetype", f.mimetype)
                .put("filetype", extension(f.name))
                .put("user", f.user)
                .put("size", f.bytes == null ? f.declaredLength : f.bytes.length)
                .put("url_private", baseUrl + filePath(f))
                .put("url_private_download", baseUrl + "/files-pri/" + teamId + "-" + f.id + "/download/" + f.name)
                .put("permalink", baseUrl + "/files/" + f.user + "/" + f.id + "/" + f.name);
        n.put("is_external", false).put("is_public", false);
        return n;
    }

    private static String extension(String name) {
        int dot = name.lastIndexOf('.');
        return dot < 0 ? "binary" : name.substring(dot + 1).toLowerCase(Locale.ROOT);
    }

    /** The message as the Web API returns it (history, replies, the {@code message} of a post). */
    ObjectNode messageJson(Post p, boolean withMetadata) {
        ObjectNode m = JSON.createObjectNode()
                .put("type", "message")
                .put("user", p.user)
                .put("text", p.text)
                .put("ts", p.ts);
        m.put("team", teamId);
        if (p.botId != null) {
            m.put("bot_id", p.botId);
            if (p.botId.equals(bot.botId())) m.put("app_id", appId);
        }
        if (p.clientMsgId != null) m.put("client_msg_id", p.clientMsgId);
        if (p.blocks != null) m.set("blocks", p.blocks);
        if (p.threadTs != null) {
            m.put("thread_ts", p.threadTs);
            if (p.threadTs.equals(p.ts)) {
                m.put("reply_count", p.replies.size());
                if (!p.replies.isEmpty()) m.put("latest_reply", p.replies.getLast());
            }
        }
        if (p.editedTs != null) m.putObject("edited").put("user", p.user).put("ts", p.editedTs);
        if (!p.fileIds.isEmpty()) {
            m.put("subtype", "file_share");
            ArrayNode fs = m.putArray("files");
            for (String id : p.fileIds) fs.add(fileJson(files.get(id)));
        }
        if (!p.reactions.isEmpty()) {
            ArrayNode rs = m.putArray("reactions");
            p.reactions.forEach((name, who) -> {
                ArrayNode users = rs.addObject()
                        .put("name", name)
                        .put("count", who.size())
                        .putArray("users");
                who.forEach(users::add);
            });
        }
        if (withMetadata && p.metadata != null) m.set("metadata", p.metadata);
        return m;
    }

    SlackMessage snapshot(Post p) {
        return new SlackMessage(
                p.channel,
                p.ts,
                p.threadTs,
                p.user,
                p.botId,
                p.text,
                p.metadata == null ? null : p.metadata.toString(),
                p.fileIds,
                p.reactionLog,
                p.edits,
                p.deleted);
    }

    /** Adds {@code name} by {@code user}; false when that user already reacted so. */
    boolean react(Post p, String name, String user) {
        boolean added =
                p.reactions.computeIfAbsent(name, n -> new LinkedHashSet<>()).add(user);
        if (added) p.reactionLog.add(name + ":" + user);
        return added;
    }

    boolean unreact(Post p, String name, String user) {
        Set<String> who = p.reactions.get(name);
        if (who == null || !who.remove(user)) return false;
        if (who.isEmpty()) p.reactions.remove(name);
        p.reactionLog.remove(name + ":" + user);
        return true;
    }
}

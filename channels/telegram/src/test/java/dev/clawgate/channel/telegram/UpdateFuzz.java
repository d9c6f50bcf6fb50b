package dev.clawgate.channel.telegram;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Telegram updates for property tests (SPEC IN-4, CH-0): well-formed ones of every kind the reader handles, then
 * mutated from a seeded {@link Random}: values swapped for hostile ones (huge and negative numbers, 9e18, wrong types,
 * control characters, lone surrogates, deep nesting), fields dropped or added. The same seed gives the same inputs.
 */
final class UpdateFuzz {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final String[] FIELDS = {
        "update_id",
        "message",
        "message_id",
        "from",
        "chat",
        "id",
        "type",
        "date",
        "text",
        "caption",
        "entities",
        "caption_entities",
        "offset",
        "length",
        "photo",
        "document",
        "file_id",
        "file_unique_id",
        "file_size",
        "file_name",
        "mime_type",
        "reply_to_message",
        "is_topic_message",
        "message_thread_id",
        "first_name",
        "last_name",
        "username",
        "user",
        "forum_topic_created"
    };

    private final Random random;
    private final long botId;

    UpdateFuzz(long seed, long botId) {
        this.random = new Random(seed);
        this.botId = botId;
    }

    /** A well-formed update of a random kind. */
    ObjectNode wellFormed(long updateId) {
        long chat = random.nextBoolean() ? 111 : -1001;
        ObjectNode m = F.objectNode()
                .put("message_id", 1 + random.nextInt(1_000_000))
                .put("date", 1_700_000_000L + random.nextInt(1 << 20));
        m.putObject("from")
                .put("id", 111)
                .put("is_bot", false)
                .put("first_name", "Alice")
                .put("username", "alice");
        m.putObject("chat").put("id", chat).put("type", chat > 0 ? "private" : "supergroup");
        String text = pick(
                "hello",
                "@clawbot what time is it",
                "/start@clawbot",
                "👋🏽 héllo",
                "a".repeat(1 + random.nextInt(50)));
        switch (random.nextInt(5)) {
            case 0 -> m.put("text", text);
            case 1 -> {
                m.put("text", text);
                m.putArray("entities")
                        .addObject()
                        .put("type", "mention")
                        .put("offset", 0)
                        .put("length", Math.min(8, text.length()));
            }
            case 2 -> {
                m.putArray("photo")
                        .addObject()
                        .put("file_id", "missing-" + random.nextInt(100))
                        .put("file_unique_id", "u" + random.nextInt(100))
                        .put("width", 90)
                        .put("height", 90)
                        .put("file_size", 10);
                m.put("caption", text);
            }
            case 3 -> {
                m.put("text", text);
                ObjectNode reply =
                        m.putObject("reply_to_message").put("message_id", 5).put("date", 1_700_000_000L);
                reply.putObject("from").put("id", botId).put("is_bot", true).put("first_name", "Claw");
            }
            default -> {
                m.put("text", text).put("is_topic_message", true).put("message_thread_id", 7);
                m.putObject("document")
                        .put("file_id", "doc-" + random.nextInt(100))
                        .put("file_name", "a.txt")
                        .put("mime_type", "text/plain");
            }
        }
        ObjectNode u = F.objectNode().put("update_id", updateId);
        u.set("message", m);
        return u;
    }

    /** {@code update} with one to four random mutations. */
    ObjectNode mutate(ObjectNode update) {
        ObjectNode u = update.deepCopy();
        int n = 1 + random.nextInt(4);
        for (int i = 0; i < n; i++) {
            List<ObjectNode> objects = new ArrayList<>();
            collect(u, objects);
            ObjectNode target = objects.get(random.nextInt(objects.size()));
            List<String> names = new ArrayList<>();
            target.fieldNames().forEachRemaining(names::add);
            switch (random.nextInt(4)) {
                case 0 -> {
                    if (!names.isEmpty()) target.set(names.get(random.nextInt(names.size())), hostile(3));
                }
                case 1 -> {
                    if (!names.isEmpty()) target.remove(names.get(random.nextInt(names.size())));
                }
                case 2 -> target.set(FIELDS[random.nextInt(FIELDS.length)], hostile(3));
                default -> {
                    // an object where the reader expects one becomes an array holding it
                    JsonNode first = names.isEmpty() ? null : target.get(names.get(0));
                    if (first != null && first.isObject())
                        target.set(names.get(0), F.arrayNode().add(first));
                    else target.set(FIELDS[random.nextInt(FIELDS.length)], hostile(3));
                }
            }
        }
        return u;
    }

    /** Any JSON value, often one a parser trips on. */
    JsonNode hostile(int depth) {
        return switch (random.nextInt(depth <= 0 ? 20 : 24)) {
            case 0 -> F.numberNode(Integer.MAX_VALUE);
            case 1 -> F.numberNode(Long.MAX_VALUE);
            case 2 -> F.numberNode(Long.MIN_VALUE);
            case 3 -> F.numberNode(-1);
            case 4 -> F.numberNode(0);
            case 5 -> F.numberNode(9e18);
            case 6 -> F.numberNode(-9e18);
            case 7 -> F.numberNode(1.5);
            case 8 -> F.numberNode(Double.NaN);
            case 9 -> F.numberNode(new BigInteger("1" + "0".repeat(40)));
            case 10 -> F.textNode("");
            case 11 -> F.textNode("abc");
            case 12 -> F.textNode("\u0000\r\n\t");
            case 13 -> F.textNode("\uD800 lone");
            case 14 -> F.textNode("x".repeat(5_000 + random.nextInt(20_000)));
            case 15 -> F.nullNode();
            case 16 -> F.booleanNode(random.nextBoolean());
            case 17 -> F.textNode("123");
            case 18 -> F.textNode("@clawbot");
            case 19 -> F.numberNode(random.nextInt());
            case 20 -> F.arrayNode();
            case 21 -> F.objectNode();
            case 22 -> {
                ArrayNode a = F.arrayNode();
                for (int i = 0; i < 3; i++) a.add(hostile(depth - 1));
                yield a;
            }
            default -> {
                ObjectNode o = F.objectNode();
                for (int i = 0; i < 3; i++) o.set(FIELDS[random.nextInt(FIELDS.length)], hostile(depth - 1));
                yield o;
            }
        };
    }

    private static void collect(JsonNode n, List<ObjectNode> into) {
        if (n.isObject()) into.add((ObjectNode) n);
        for (JsonNode child : n) collect(child, into);
    }

    private String pick(String... options) {
        return options[random.nextInt(options.length)];
    }
}

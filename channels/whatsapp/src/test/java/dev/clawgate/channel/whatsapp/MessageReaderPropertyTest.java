package dev.clawgate.channel.whatsapp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The reader never throws, whatever shape a signed notification has (SPEC IN-4, CH-0: no poison message). */
class MessageReaderPropertyTest {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final List<String> KEYS = List.of(
            "object",
            "entry",
            "changes",
            "field",
            "value",
            "metadata",
            "phone_number_id",
            "display_phone_number",
            "messages",
            "statuses",
            "contacts",
            "wa_id",
            "profile",
            "name",
            "from",
            "id",
            "timestamp",
            "type",
            "text",
            "body",
            "image",
            "document",
            "audio",
            "caption",
            "group_id",
            "context",
            "interactive",
            "button",
            "location",
            "errors",
            "status",
            "recipient_id");
    private static final List<String> WORDS = List.of(
            "whatsapp_business_account",
            "messages",
            "106540352242922",
            "text",
            "image",
            "document",
            "audio",
            "interactive",
            "reaction",
            "15551234567",
            "1700000000",
            "wamid.X",
            "",
            "-1",
            "99999999999999999999",
            "button_reply",
            "delivered",
            "failed");

    @TempDir
    Path dir;

    @Test
    void anyNotificationShapeIsReadWithoutThrowing() {
        // SPEC IN-4: seeded; the seed is printed on failure so it can be replayed
        long seed = System.nanoTime();
        Random r = new Random(seed);
        GraphApi offline =
                new GraphApi(URI.create("http://127.0.0.1:1/v21.0"), "t", GraphApi.client(), Duration.ofMillis(200));
        MessageReader reader = new MessageReader("106540352242922", new MediaFetcher(offline, dir));
        for (int i = 0; i < 3000; i++) {
            JsonNode root = i % 2 == 0 ? wellShaped(r) : node(r, 0);
            MessageReader.Notification n = reader.read(root);
            assertThat(n.messages()).as("seed %d: %s", seed, root).doesNotContainNull();
            for (MessageReader.Reading reading : n.messages()) {
                if (reading instanceof MessageReader.Reading.Message m) {
                    assertThat(m.message().id()).as("seed %d", seed).isNotBlank();
                    assertThat(m.message().sender()).as("seed %d", seed).matches("\\d{1,32}");
                }
            }
        }
    }

    /** The documented envelope with random values and random extra or missing parts inside. */
    private static JsonNode wellShaped(Random r) {
        ObjectNode root = F.objectNode().put("object", "whatsapp_business_account");
        ObjectNode change = root.putArray("entry")
                .addObject()
                .put("id", "1")
                .putArray("changes")
                .addObject()
                .put("field", "messages");
        ObjectNode value = change.putObject("value");
        value.putObject("metadata")
                .put("phone_number_id", r.nextInt(4) == 0 ? pick(r) : "106540352242922")
                .put("display_phone_number", "15550783881");
        ArrayNode messages = value.putArray("messages");
        for (int k = r.nextInt(3); k >= 0; k--) {
            ObjectNode m = messages.addObject()
                    .put("from", pick(r))
                    .put("id", pick(r))
                    .put("timestamp", pick(r))
                    .put("type", pick(r));
            m.set(pick(r), node(r, 1));
            if (r.nextBoolean()) m.set("text", F.objectNode().set("body", node(r, 2)));
            if (r.nextBoolean()) m.set("context", node(r, 1));
        }
        if (r.nextBoolean()) value.set("statuses", node(r, 1));
        if (r.nextBoolean()) value.set("contacts", node(r, 1));
        return root;
    }

    private static JsonNode node(Random r, int depth) {
        int kind = depth > 3 ? r.nextInt(4) : r.nextInt(6);
        return switch (kind) {
            case 0 -> F.textNode(pick(r));
            case 1 -> F.numberNode(r.nextLong());
            case 2 -> F.booleanNode(r.nextBoolean());
            case 3 -> F.nullNode();
            case 4 -> {
                ArrayNode a = F.arrayNode();
                for (int k = r.nextInt(3); k > 0; k--) a.add(node(r, depth + 1));
                yield a;
            }
            default -> {
                ObjectNode o = F.objectNode();
                for (int k = r.nextInt(4); k > 0; k--) o.set(KEYS.get(r.nextInt(KEYS.size())), node(r, depth + 1));
                yield o;
            }
        };
    }

    private static String pick(Random r) {
        return WORDS.get(r.nextInt(WORDS.size()));
    }
}

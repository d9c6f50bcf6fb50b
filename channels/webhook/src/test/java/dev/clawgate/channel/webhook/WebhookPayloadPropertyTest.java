package dev.clawgate.channel.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.core.channel.InboundSink;
import dev.clawgate.core.channel.WebhookRoute;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.store.UnreadableInbound;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The generic webhook's body parser over thousands of generated and mutated bodies (SPEC IN-4, CH-0): it returns a
 * well-formed message or says why not ({@link WebhookPayload.Invalid}), never anything else; every signed body gets a
 * definite answer, and one that cannot be read is kept. The seed is printed on failure; {@code -Dclawgate.fuzz.seed=N}
 * replays one.
 */
class WebhookPayloadPropertyTest {
    private static final long SEED = Long.getLong("clawgate.fuzz.seed", 0x3EB_400CL);
    private static final int BODIES = Integer.getInteger("clawgate.fuzz.reads", 5_000);
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final String[] FIELDS = {
        "id", "sender", "sender_name", "chat", "chat_type", "thread", "mentioned", "text", "timestamp"
    };
    private static final String SECRET = "0123456789abcdef-secret";

    private final Random random = new Random(SEED);

    private ObjectNode wellFormed(int i) {
        ObjectNode b = F.objectNode()
                .put("id", random.nextBoolean() ? "m-" + i : Integer.toString(i))
                .put("sender", "user-" + random.nextInt(9))
                .put("chat", "chat-" + random.nextInt(9))
                .put("text", "hello " + i);
        if (random.nextBoolean()) {
            b.put("chat_type", random.nextBoolean() ? "direct" : "group").put("mentioned", random.nextBoolean());
        }
        if (random.nextBoolean()) {
            b.put("timestamp", 1_700_000_000_000L + random.nextInt(1 << 30)).put("sender_name", "User");
        }
        if (random.nextBoolean()) b.put("thread", "t-" + random.nextInt(3));
        return b;
    }

    private JsonNode hostile(int depth) {
        return switch (random.nextInt(depth <= 0 ? 16 : 18)) {
            case 0 -> F.numberNode(Long.MAX_VALUE);
            case 1 -> F.numberNode(-1);
            case 2 -> F.numberNode(9e18);
            case 3 -> F.numberNode(new BigInteger("9".repeat(30)));
            case 4 -> F.numberNode(Double.NaN);
            case 5 -> F.textNode("");
            case 6 -> F.textNode("   ");
            case 7 -> F.textNode("a\u0000b");
            case 8 -> F.textNode("x\r\nX-Injected: 1");
            case 9 -> F.textNode("\uDC00");
            case 10 -> F.textNode("y".repeat(10_000));
            case 11 -> F.nullNode();
            case 12 -> F.booleanNode(true);
            case 13 -> F.textNode("group");
            case 14 -> F.numberNode(1.5);
            case 15 -> F.numberNode(42);
            case 16 -> F.arrayNode().add(hostile(depth - 1));
            default -> F.objectNode().set("text", hostile(depth - 1));
        };
    }

    private byte[] body(int i) {
        ObjectNode b = wellFormed(i);
        int mutations = random.nextInt(4);
        for (int m = 0; m < mutations; m++) {
            String field = FIELDS[random.nextInt(FIELDS.length)];
            if (random.nextInt(3) == 0) b.remove(field);
            else b.set(field, hostile(2));
        }
        byte[] bytes = b.toString().getBytes(StandardCharsets.UTF_8);
        switch (random.nextInt(8)) {
            case 0 -> bytes = java.util.Arrays.copyOf(bytes, random.nextInt(bytes.length + 1));
            case 1 -> {
                if (bytes.length > 0) bytes[random.nextInt(bytes.length)] = (byte) random.nextInt(256);
            }
            case 2 -> bytes = ("[" + new String(bytes, StandardCharsets.UTF_8) + "]").getBytes(StandardCharsets.UTF_8);
            // nesting deeper than the JSON parser allows
            case 3 ->
                bytes = ("{\"id\":\"d\",\"sender\":\"a\",\"chat\":\"c\",\"text\":"
                                + "[".repeat(1000 + random.nextInt(5000)))
                        .getBytes(StandardCharsets.UTF_8);
            default -> {}
        }
        return bytes;
    }

    /** The start of a body, for a failure message. */
    private static String shown(byte[] body) {
        String s = new String(body, StandardCharsets.UTF_8);
        return s.length() > 300 ? s.substring(0, 300) + "..." : s;
    }

    @Test
    void theParserReturnsAWellFormedMessageOrSaysWhyNotForEveryBody() {
        // SPEC IN-4, CH-0: no body escapes the parser as an unexpected exception
        int parsed = 0, invalid = 0;
        for (int i = 0; i < BODIES; i++) {
            byte[] body = body(i);
            String shown = "seed " + SEED + ", body " + i + ": " + shown(body);
            try {
                InboundMessage m = WebhookPayload.parse(body, "webhook", () -> Instant.EPOCH);
                parsed++;
                assertThat(m.id()).as(shown).isNotBlank().doesNotContainPattern("\\p{Cntrl}");
                assertThat(m.sender()).as(shown).isNotBlank().doesNotContainPattern("\\p{Cntrl}");
                assertThat(m.replyTarget()).as(shown).isNotBlank().doesNotContainPattern("\\p{Cntrl}");
                if (m.threadId() != null) assertThat(m.threadId()).as(shown).doesNotContainPattern("\\p{Cntrl}");
                assertThat(m.text()).as(shown).isNotBlank();
            } catch (WebhookPayload.Invalid e) {
                invalid++;
                assertThat(e.getMessage()).as(shown).isNotBlank();
            } catch (RuntimeException e) {
                throw new AssertionError(shown, e);
            }
        }
        assertThat(parsed).as("seed %d", SEED).isGreaterThan(BODIES / 10);
        assertThat(invalid).as("seed %d", SEED).isGreaterThan(BODIES / 10);
    }

    @Test
    void everySignedBodyGetsADefiniteAnswerAndEveryUnreadableOneIsKept() throws Exception {
        // SPEC IN-4: 200 (recorded) or 400 (kept as unreadable, the platform does not retry); never a 5xx loop
        List<InboundMessage> accepted = new CopyOnWriteArrayList<>();
        List<UnreadableInbound> unreadable = new CopyOnWriteArrayList<>();
        WebhookChannel channel = new WebhookChannel(
                new WebhookChannelSettings(null, SECRET, "http://127.0.0.1:9/cb"),
                Clock.fixed(Instant.parse("2026-03-04T05:06:07Z"), ZoneOffset.UTC));
        channel.start(new InboundSink() {
            @Override
            public Acceptance accept(InboundMessage message) {
                accepted.add(message);
                return Acceptance.recorded(accepted.size());
            }

            @Override
            public void unreadable(UnreadableInbound update) {
                unreadable.add(update);
            }
        });
        WebhookRoute route = channel.webhookRoutes().getFirst();
        List<Integer> statuses = new ArrayList<>();
        int n = BODIES / 5;
        for (int i = 0; i < n; i++) {
            byte[] body = body(i);
            WebhookRoute.Response r = route.handler()
                    .handle(new WebhookRoute.Request(
                            Map.of("x-clawgate-signature", new WebhookSignature(SECRET).sign(body)),
                            body,
                            "127.0.0.1"));
            assertThat(r.status())
                    .as("seed %d body %d: %s", SEED, i, shown(body))
                    .isIn(200, 400);
            JsonNode answer = new ObjectMapper().readTree(r.body());
            assertThat(answer.path("ok").asBoolean()).isEqualTo(r.status() == 200);
            statuses.add(r.status());
        }
        assertThat(accepted.size())
                .isEqualTo((int) statuses.stream().filter(s -> s == 200).count());
        assertThat(unreadable.size())
                .isEqualTo((int) statuses.stream().filter(s -> s == 400).count());
        assertThat(unreadable).allSatisfy(u -> {
            assertThat(u.reason()).isNotBlank();
            assertThat(u.raw().length()).isLessThanOrEqualTo(UnreadableInbound.MAX_RAW_CHARS);
        });
    }
}

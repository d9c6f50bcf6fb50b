package dev.clawgate.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.channel.ChannelFactory;
import dev.clawgate.core.channel.ChannelProbe;
import dev.clawgate.core.config.AccessSettings;
import dev.clawgate.core.config.ChannelSettings;
import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.config.DmPolicy;
import dev.clawgate.core.config.GroupPolicy;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.testkit.discord.DiscordChannel;
import dev.clawgate.testkit.discord.DiscordGuild;
import dev.clawgate.testkit.discord.DiscordMessage;
import dev.clawgate.testkit.discord.DiscordRoutes;
import dev.clawgate.testkit.discord.DiscordUser;
import dev.clawgate.testkit.discord.FakeDiscord;
import dev.clawgate.testkit.discord.GatewayConnection;
import dev.clawgate.testkit.openai.RecordedRequest;
import dev.clawgate.testkit.openai.Reply;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The real gateway with the Discord channel (found by ServiceLoader from channels/discord) on a {@link FakeDiscord}
 * that speaks the Gateway WebSocket and the HTTP API on loopback, and a fake model behind it (SPEC CH-5).
 */
class DiscordEndToEndTest extends GatewayFixture {
    /** Any DM and any guild channel may talk to the bot; in a guild it must be mentioned. */
    private static final AccessSettings OPEN =
            new AccessSettings(DmPolicy.OPEN, List.of("*"), GroupPolicy.OPEN, List.of(), true);

    private static final Duration WAIT = Duration.ofSeconds(30);

    private FakeDiscord discord;
    private DiscordUser alice;
    private DiscordChannel dm;

    @BeforeEach
    void startDiscord() {
        discord = FakeDiscord.start("clawbot");
        alice = discord.user("alice");
        dm = discord.dm(alice);
    }

    @AfterEach
    void stopDiscord() {
        closeGateway();
        discord.close();
    }

    private ChannelSettings discordSettings(Map<String, String> extra) {
        Map<String, String> options =
                new HashMap<>(Map.of("bot_token", discord.botToken(), "api_base", discord.apiBase()));
        options.putAll(extra);
        return new ChannelSettings("discord", OPEN, Map.of(), options);
    }

    private ClawgateConfig discordConfig(Map<String, String> extra) {
        return config().withChannel(discordSettings(extra));
    }

    private void startDiscordGateway(Map<String, String> extra) throws Exception {
        start(discordConfig(extra));
        awaitConnected();
    }

    private void awaitConnected() {
        await().atMost(WAIT)
                .until(() -> !discord.gatewayConnections().isEmpty()
                        && discord.liveSessions() >= 1
                        && discord.calls().stream()
                                .anyMatch(c -> c.method().equals("GATEWAY IDENTIFY")
                                        || c.method().equals("GATEWAY RESUME")));
        await().atMost(WAIT).until(() -> discord.gatewayConnections().getLast().closeCode() == -1);
    }

    private List<DiscordMessage> awaitBotMessages(DiscordChannel c, int n) {
        await().atMost(WAIT).until(() -> discord.botMessages(c).size() >= n);
        return discord.botMessages(c);
    }

    private static ChannelFactory factory() {
        return ServiceLoader.load(ChannelFactory.class).stream()
                .map(ServiceLoader.Provider::get)
                .filter(f -> f.name().equals("discord"))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void aDirectMessageWithAToolCallWritesTheFileAndRepliesWithTypingAndReactions() throws Exception {
        // SPEC CH-5, AG-1, RP-5 (typing, ack reactions), RP-3 (no tool prefix in what Discord shows)
        model.enqueue(
                Reply.toolCalls(Reply.call("file_write", "{\"path\":\"notes/todo.txt\",\"content\":\"buy milk\"}")),
                Reply.text("I wrote **notes/todo.txt**."));
        startDiscordGateway(Map.of("ack_reactions", "true"));
        String asked = discord.send(dm, alice, "please note: buy milk");
        DiscordMessage reply = awaitBotMessages(dm, 1).getFirst();
        assertThat(reply.content()).isEqualTo("I wrote **notes/todo.txt**.");
        assertThat(reply.nonce()).isNotBlank();
        assertThat(dir.resolve("workspace/notes/todo.txt")).hasContent("buy milk");
        String done = "\u2705:" + discord.bot().id();
        await().atMost(WAIT).until(() -> discord.message(asked).reactions().contains(done));
        assertThat(discord.message(asked).reactions()).containsExactly(done);
        assertThat(discord.typing()).contains(dm.id());
        assertThat(model.chatRequests()).hasSize(2);
        // SPEC SP-1: the turn's system prompt carries Discord's own formatting guidance
        assertThat(model.chatRequests()
                        .getFirst()
                        .messages()
                        .get(0)
                        .path("content")
                        .asText())
                .contains("Discord renders Markdown");
    }

    @Test
    void anImageMarkerInTheReplyIsUploadedAsOneMessageWithTheImageAttached() throws Exception {
        // SPEC OUT-13 ([IMAGE:p] uploaded by multipart Create Message), OUT-5 (text, then media, in order), CH-5
        byte[] png = {(byte) 0x89, 'P', 'N', 'G', 13, 10, 26, 10, 42};
        java.nio.file.Path chart = dir.resolve("workspace/chart.png");
        java.nio.file.Files.createDirectories(chart.getParent());
        java.nio.file.Files.write(chart, png);
        model.enqueue(Reply.text("Here is a chart.\n[IMAGE:chart.png]"));
        startDiscordGateway(Map.of());
        discord.send(dm, alice, "draw me a chart");
        await().atMost(WAIT)
                .until(() -> discord.botMessages(dm).stream()
                        .anyMatch(m -> !m.attachments().isEmpty()));
        List<DiscordMessage> sent = discord.botMessages(dm);
        assertThat(sent).extracting(DiscordMessage::content).containsExactly("Here is a chart.", "");
        DiscordMessage image = sent.getLast();
        assertThat(image.attachments()).containsExactly("chart.png");
        assertThat(discord.attachmentBytes(image.id(), 0)).isEqualTo(png);
        assertThat(discord.calls(DiscordRoutes.CREATE_MESSAGE))
                .filteredOn(b -> b.has("_files"))
                .singleElement()
                .satisfies(b -> {
                    assertThat(b.path("_files").get(0).path("field").asText()).isEqualTo("files[0]");
                    assertThat(b.path("attachments").get(0).path("filename").asText())
                            .isEqualTo("chart.png");
                    assertThat(b.path("enforce_nonce").asBoolean()).isTrue();
                });
        assertThat(sent).extracting(DiscordMessage::content).noneMatch(t -> t.contains("[IMAGE:"));
    }

    @Test
    void aGuildMessageWithoutAMentionIsContextAndTheMentionIsAnsweredOnce() throws Exception {
        // SPEC IN-5 (require_mention), IN-6 (group history), CH-5
        DiscordGuild g = discord.guild("home");
        DiscordChannel general = discord.textChannel(g, "general");
        DiscordUser bob = discord.user("bob");
        model.enqueue(Reply.text("It is swordfish."));
        startDiscordGateway(Map.of());
        discord.send(general, bob, "the password is swordfish");
        await().atMost(WAIT).until(() -> gateway.store().inbox().counts().getOrDefault(InboxState.BUFFERED, 0L) == 1L);
        assertThat(model.chatRequests()).isEmpty();
        String asked = discord.send(general, alice, discord.bot().mention() + " what is the password?");
        DiscordMessage reply = awaitBotMessages(general, 1).getFirst();
        assertThat(reply.content()).isEqualTo("It is swordfish.");
        assertThat(reply.referencedId())
                .as("a guild reply quotes the message it answers")
                .isEqualTo(asked);
        RecordedRequest req = model.chatRequests().getFirst();
        String lastUser =
                req.messages().get(req.messages().size() - 1).path("content").asText();
        assertThat(lastUser).contains("the password is swordfish", "@clawbot what is the password?");
        Thread.sleep(300);
        assertThat(model.chatRequests()).hasSize(1);
        assertThat(discord.botMessages(general)).hasSize(1);
    }

    @Test
    void aLongReplyArrivesAsSeveralMessagesWithin2000WithFencesBalanced() throws Exception {
        // SPEC OUT-1, CH-5: 5,000 characters cut to 2000 (and 17 lines) per message; a fence cut across messages is
        // closed and reopened
        StringBuilder text = new StringBuilder();
        while (text.length() < 3000)
            text.append("Some prose about the plan, sentence ")
                    .append(text.length())
                    .append(". ");
        text.append("\n\n```\n");
        for (int i = 0; text.length() < 5000; i++)
            text.append("code line ")
                    .append(i)
                    .append(" ")
                    .append("x".repeat(60))
                    .append('\n');
        text.append("```\nThe end.");
        assertThat(text.length()).isGreaterThanOrEqualTo(5000);
        model.enqueue(Reply.text(text.toString()));
        startDiscordGateway(Map.of());
        discord.send(dm, alice, "write a lot");
        await().atMost(WAIT)
                .until(() -> discord.botMessages(dm).stream()
                        .anyMatch(m -> m.content().contains("The end.")));
        List<DiscordMessage> parts = discord.botMessages(dm);
        assertThat(parts).hasSizeGreaterThanOrEqualTo(3);
        assertThat(parts).allSatisfy(m -> {
            assertThat(m.content().length()).isLessThanOrEqualTo(2000);
            assertThat(m.content().split("```", -1).length % 2)
                    .as("fences balanced in %s", m.id())
                    .isEqualTo(1);
        });
        assertThat(String.join("", parts.stream().map(DiscordMessage::content).toList()))
                .contains("code line 0 ", "The end.");
        assertThat(discord.calls().stream().filter(c -> "429".equals(c.headers().get(":status"))))
                .isEmpty();
    }

    @Test
    void aLivePreviewIsEditedIntoTheFinalReply() throws Exception {
        // SPEC OUT-9 (a ... draft at once, Edit Message edits, finalEdit), CH-5
        model.enqueue(Reply.text("The quick brown fox jumps over the **lazy** dog again and again.")
                .streamedInChunks(12)
                .delayPerChunk(Duration.ofMillis(250)));
        startDiscordGateway(Map.of("stream_mode", "preview"));
        discord.send(dm, alice, "tell me about the fox");
        String text = "The quick brown fox jumps over the **lazy** dog again and again.";
        await().atMost(WAIT)
                .until(() -> !discord.botMessages(dm).isEmpty()
                        && discord.botMessages(dm).getFirst().content().equals(text));
        DiscordMessage only = discord.botMessages(dm).getFirst();
        assertThat(discord.botMessages(dm)).hasSize(1);
        assertThat(only.edits()).isGreaterThanOrEqualTo(2);
        assertThat(discord.calls(DiscordRoutes.CREATE_MESSAGE))
                .singleElement()
                .satisfies(b -> assertThat(b.path("content").asText()).isEqualTo("..."));
    }

    @Test
    void aSocketDroppedMidConversationResumesWithNothingLostOrAnsweredTwice() throws Exception {
        // SPEC CH-0, CH-5, IN-1: the drop resumes on resume_gateway_url; what was dispatched meanwhile is replayed once
        model.enqueue(Reply.text("first answer"), Reply.text("second answer"), Reply.text("third answer"));
        startDiscordGateway(Map.of());
        discord.send(dm, alice, "first");
        awaitBotMessages(dm, 1);
        discord.dropGatewayConnections();
        discord.send(dm, alice, "second");
        awaitBotMessages(dm, 2);
        discord.send(dm, alice, "third");
        awaitBotMessages(dm, 3);
        Thread.sleep(500);
        assertThat(discord.botMessages(dm))
                .extracting(DiscordMessage::content)
                .containsExactly("first answer", "second answer", "third answer");
        assertThat(model.chatRequests()).hasSize(3);
        assertThat(discord.identifies()).isEqualTo(1);
        assertThat(discord.gatewayConnections())
                .extracting(GatewayConnection::path)
                .contains("/resume");
    }

    @Test
    void aMissedHeartbeatAckIsDetectedAndTheSessionResumed() throws Exception {
        // SPEC CH-5: a zombied connection (no ACK) is closed with a code that keeps the session, and resumed
        discord.heartbeatInterval(Duration.ofMillis(500));
        discord.enforceHeartbeats(false);
        model.enqueue(Reply.text("still here"));
        startDiscordGateway(Map.of());
        discord.zombifyGatewayConnections();
        discord.send(dm, alice, "are you there?");
        assertThat(awaitBotMessages(dm, 1).getFirst().content()).isEqualTo("still here");
        GatewayConnection zombie = discord.gatewayConnections().getFirst();
        assertThat(zombie.closedByClient()).isTrue();
        assertThat(zombie.closeCode()).isNotIn(1000, 1001);
        assertThat(discord.identifies()).isEqualTo(1);
        assertThat(model.chatRequests()).hasSize(1);
    }

    @Test
    void disallowedIntentsAre4014InReadyzAndDoctorWithTheFix() throws Exception {
        // SPEC CH-0, CH-5, OP-4: "connects, shows online, never answers" said where the operator looks
        discord.messageContentEnabled(false);
        int port = serve(discordConfig(Map.of()));
        await().atMost(WAIT)
                .until(() -> GatewayHarness.get(port, "/readyz", null).body().contains("4014"));
        HttpResponse<String> ready = GatewayHarness.get(port, "/readyz", null);
        assertThat(ready.statusCode()).isEqualTo(503);
        JsonNode parts = GatewayHarness.JSON.readTree(ready.body()).path("parts");
        assertThat(parts.path("channel.discord").asText())
                .contains("Message Content Intent", "message_content = false", "require_mention");
        Thread.sleep(500);
        assertThat(discord.gatewayConnections())
                .as("a fatal close is not retried")
                .hasSize(1);
        ChannelProbe doctor = factory().probe(discordSettings(Map.of()));
        assertThat(doctor.ok()).isFalse();
        assertThat(doctor.findings()).anySatisfy(f -> {
            assertThat(f.what()).contains("Message Content intent is absent", "4014");
            assertThat(f.fix()).contains("Developer Portal", "message_content = false");
        });
        // the same through `clawgate doctor` on a config file
        String doctorOut = doctorCli(discord.botToken());
        assertThat(doctorOut)
                .contains("PROBLEM  channel discord: the Message Content intent is absent")
                .contains("fix: enable \"Message Content Intent\" in the Developer Portal")
                .doesNotContain(discord.botToken());
    }

    /** Runs {@code clawgate doctor} in-process on a config file naming this fake Discord; what it printed. */
    private String doctorCli(String token) throws Exception {
        java.nio.file.Path file = dir.resolve("doctor.toml");
        java.nio.file.Files.writeString(file, """
                [gateway]
                data_dir = "doctor-state"

                [providers.local]
                kind = "openai"
                base_url = "%s"
                api_key = "sk-test-key-0000"
                model = "m"

                [channels.discord]
                bot_token = "%s"
                api_base = "%s"
                """.formatted(model.baseUrl(), token, discord.apiBase()));
        java.io.PrintStream out = System.out;
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try {
            System.setOut(new java.io.PrintStream(bytes, true, java.nio.charset.StandardCharsets.UTF_8));
            dev.clawgate.server.cli.Main.execute("doctor", "--config", file.toString());
        } finally {
            System.setOut(out);
        }
        return bytes.toString(java.nio.charset.StandardCharsets.UTF_8);
    }

    @Test
    void aResetTokenIs4004InReadyzAndDoctorWithTheFix() throws Exception {
        // SPEC CH-0, CH-5, OP-4
        int port = serve(discordConfig(Map.of()));
        awaitConnected();
        String old = discord.botToken();
        discord.resetToken();
        discord.dropGatewayConnections();
        await().atMost(WAIT)
                .until(() -> GatewayHarness.get(port, "/readyz", null).body().contains("4004"));
        assertThat(GatewayHarness.get(port, "/readyz", null).body())
                .contains("bot_token")
                .doesNotContain(old);
        ChannelProbe doctor = factory()
                .probe(new ChannelSettings(
                        "discord", OPEN, Map.of(), Map.of("bot_token", old, "api_base", discord.apiBase())));
        assertThat(doctor.ok()).isFalse();
        assertThat(doctor.findings()).singleElement().satisfies(f -> {
            assertThat(f.what()).contains("refused the bot token (401)");
            assertThat(f.fix()).contains("channels.discord.bot_token");
        });
        assertThat(doctorCli(old))
                .contains("PROBLEM  channel discord: Discord refused the bot token (401)")
                .contains("fix: set channels.discord.bot_token")
                .doesNotContain(old);
    }

    @Test
    void withMessageContentOffAMentionIsStillAnswered() throws Exception {
        // SPEC CH-5: message_content = false identifies without the privileged intent; mentions carry their content
        discord.messageContentEnabled(false);
        DiscordChannel general = discord.textChannel(discord.guild("home"), "general");
        model.enqueue(Reply.text("Hello from a mention."));
        startDiscordGateway(Map.of("message_content", "false"));
        discord.send(general, alice, "chatter the bot cannot read");
        discord.send(general, alice, discord.bot().mention() + " hello?");
        assertThat(awaitBotMessages(general, 1).getFirst().content()).isEqualTo("Hello from a mention.");
        RecordedRequest first = model.chatRequests().getFirst();
        String lastUser = first.messages()
                .get(first.messages().size() - 1)
                .path("content")
                .asText();
        assertThat(lastUser).contains("@clawbot hello?").doesNotContain("chatter the bot cannot read");
    }

    @Test
    void aBurstThatExhaustsABucketWaitsInsteadOfCollecting429s() throws Exception {
        // SPEC CH-5, OUT-7: a reply of six messages into one channel whose Create Message bucket allows 2 per second
        // here: the client waits for the bucket's reset, every message lands in order, and no request collects a 429
        discord.routeLimit(DiscordRoutes.CREATE_MESSAGE, "messages", 2, Duration.ofSeconds(1));
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 6; i++) {
            text.append("Part ")
                    .append(i)
                    .append(": ")
                    .append(("word" + i + " ").repeat(300))
                    .append("\n\n");
        }
        model.enqueue(Reply.text(text.toString().strip()));
        startDiscordGateway(Map.of());
        discord.send(dm, alice, "a long answer please");
        await().atMost(WAIT)
                .until(() -> discord.botMessages(dm).stream()
                        .anyMatch(m -> m.content().contains("word5")));
        List<DiscordMessage> parts = discord.botMessages(dm);
        assertThat(parts).hasSizeGreaterThanOrEqualTo(6);
        assertThat(parts.getFirst().content()).startsWith("Part 0");
        assertThat(discord.calls().stream().filter(c -> "429".equals(c.headers().get(":status"))))
                .isEmpty();
        assertThat(model.chatRequests()).hasSize(1);
    }
}

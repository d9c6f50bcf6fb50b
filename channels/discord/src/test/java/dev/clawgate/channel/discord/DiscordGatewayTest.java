package dev.clawgate.channel.discord;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.testkit.contract.RecordingInbox;
import dev.clawgate.testkit.contract.SocketListenerProofs;
import dev.clawgate.testkit.discord.DiscordChannel;
import dev.clawgate.testkit.discord.DiscordGuild;
import dev.clawgate.testkit.discord.DiscordUser;
import dev.clawgate.testkit.discord.FakeDiscord;
import dev.clawgate.testkit.discord.GatewayConnection;
import dev.clawgate.testkit.discord.GatewayFrame;
import dev.clawgate.testkit.discord.GatewayIntents;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The receive side over the fake Gateway (SPEC CH-5, CH-0, IN-1, IN-5): the connection lifecycle and MESSAGE_CREATE.
 */
class DiscordGatewayTest {
    private static final Duration WAIT = Duration.ofSeconds(15);
    private FakeDiscord discord;
    private dev.clawgate.channel.discord.DiscordChannel channel;
    private final RecordingInbox inbox = new RecordingInbox();
    private DiscordUser alice;
    private DiscordChannel dm;

    @BeforeEach
    void start() {
        discord = DiscordFixture.fake();
        alice = discord.user("alice");
        dm = discord.dm(alice);
    }

    @AfterEach
    void stop() {
        if (channel != null) channel.stop();
        discord.close();
    }

    private void run(boolean messageContent) {
        channel = DiscordFixture.channel(DiscordFixture.account(discord, false, false, messageContent));
        channel.start(inbox);
    }

    private void awaitReady() {
        await().atMost(WAIT).until(() -> channel.health().healthy());
    }

    private InboundMessage awaitText(String text) {
        await().atMost(WAIT).until(() -> inbox.texts().contains(text));
        return inbox.messages().stream()
                .filter(m -> m.text().equals(text))
                .findFirst()
                .orElseThrow();
    }

    private List<GatewayFrame> frames(int op) {
        return discord.gatewayFrames().stream().filter(f -> f.op() == op).toList();
    }

    @TestFactory
    Stream<DynamicTest> theListenerTakesEveryMessageOnceAcrossDropsAndRestarts() {
        // SPEC CH-0, CH-5, IN-1: a drop resumes and replays; a stop closes with 4000 (not 1000) so the next start
        // resumes
        channel = DiscordFixture.channel(DiscordFixture.account(discord, false, false, true));
        return SocketListenerProofs.of(
                        channel,
                        new SocketListenerProofs.SocketPlatform() {
                            @Override
                            public void push(String text) {
                                discord.send(dm, alice, text);
                            }

                            @Override
                            public void dropConnections() {
                                discord.dropGatewayConnections();
                            }

                            @Override
                            public int connectionsOpened() {
                                return discord.gatewayConnections().size();
                            }
                        },
                        inbox,
                        WAIT)
                .tests();
    }

    @Test
    void identifyAsksForGuildAndDirectMessagesAndMessageContentAndADmIsDirect() {
        // SPEC CH-5: intents guilds, guild messages, direct messages, message content; heartbeats carry the sequence
        discord.heartbeatInterval(Duration.ofMillis(300));
        run(true);
        awaitReady();
        JsonNode identify = json(frames(2).getFirst());
        assertThat(identify.path("d").path("intents").asInt())
                .isEqualTo(GatewayIntents.GUILDS
                        | GatewayIntents.GUILD_MESSAGES
                        | GatewayIntents.DIRECT_MESSAGES
                        | GatewayIntents.MESSAGE_CONTENT);
        assertThat(identify.path("d").path("token").asText()).isEqualTo("<bot token>");
        discord.send(dm, alice, "hello there");
        InboundMessage m = awaitText("hello there");
        assertThat(m.chatType()).isEqualTo(ChatType.DIRECT);
        assertThat(m.mentioned()).isTrue();
        assertThat(m.replyTarget()).isEqualTo(dm.id());
        assertThat(m.sender()).isEqualTo(alice.id());
        await().atMost(WAIT)
                .until(() -> frames(1).stream().anyMatch(f -> json(f).path("d").asLong(0) > 0));
        assertThat(discord.gatewayConnections()).hasSize(1);
    }

    @Test
    void guildMessagesAreMentionedOnlyWhenTheyNameTheBotAndThreadsAreThreads() {
        // SPEC IN-5 (require_mention reads `mentioned`), CH-5 (threads), own and other bots' messages ignored
        run(true);
        awaitReady();
        DiscordGuild g = discord.guild("home");
        DiscordChannel general = discord.textChannel(g, "general");
        discord.send(general, alice, "just chatting");
        discord.send(general, discord.otherBot("otherbot"), discord.bot().mention() + " from a bot");
        String asked = discord.send(general, alice, discord.bot().mention() + " what is up?");
        DiscordChannel thread = discord.thread(general, asked, "topic");
        discord.send(thread, alice, "in the thread " + discord.bot().mention());
        InboundMessage plain = awaitText("just chatting");
        InboundMessage mention = awaitText("@clawbot what is up?");
        InboundMessage inThread = awaitText("in the thread @clawbot");
        assertThat(plain.mentioned()).isFalse();
        assertThat(plain.chatType()).isEqualTo(ChatType.GROUP);
        assertThat(mention.mentioned()).isTrue();
        assertThat(inThread.threadId()).isEqualTo(thread.id());
        assertThat(inThread.replyTarget()).isEqualTo(thread.id());
        assertThat(inbox.texts()).noneMatch(t -> t.contains("from a bot"));
        assertThat(inbox.handOvers()).isEqualTo(3);
    }

    @Test
    void withoutMessageContentTheIntentIsNotAskedAndAMentionStillCarriesItsText() {
        // SPEC CH-5: message_content = false identifies without the privileged intent; DMs and mentions still carry
        // content
        discord.messageContentEnabled(false);
        run(false);
        awaitReady();
        assertThat(json(frames(2).getFirst()).path("d").path("intents").asInt() & GatewayIntents.MESSAGE_CONTENT)
                .isZero();
        DiscordChannel general = discord.textChannel(discord.guild("home"), "general");
        discord.send(general, alice, "unseen chatter");
        discord.send(general, alice, discord.bot().mention() + " hello");
        assertThat(awaitText("@clawbot hello").mentioned()).isTrue();
        assertThat(inbox.texts()).doesNotContain("unseen chatter");
    }

    @Test
    void aZombiedConnectionIsDetectedByTheMissingAckClosedWithoutEndingTheSessionAndResumed() {
        // SPEC CH-5: no Heartbeat ACK -> close with a code other than 1000/1001 -> Resume on resume_gateway_url
        discord.heartbeatInterval(Duration.ofMillis(400));
        discord.enforceHeartbeats(false);
        run(true);
        awaitReady();
        discord.zombifyGatewayConnections();
        discord.send(dm, alice, "sent while zombied");
        await().atMost(WAIT)
                .until(() -> discord.gatewayConnections().size() >= 2
                        && channel.health().healthy());
        GatewayConnection first = discord.gatewayConnections().getFirst();
        assertThat(first.closedByClient()).isTrue();
        assertThat(first.closeCode()).isNotIn(1000, 1001);
        assertThat(discord.gatewayConnections().get(1).path()).isEqualTo("/resume");
        awaitText("sent while zombied");
        assertThat(discord.identifies()).isEqualTo(1);
        assertThat(inbox.handOvers()).isEqualTo(1);
    }

    @Test
    void reconnectAndResumableInvalidSessionResumeAndANonResumableOneIdentifiesAgain() {
        // SPEC CH-5: op 7 and op 9 (true) resume; op 9 (false) starts a new session; nothing is lost
        run(true);
        awaitReady();
        discord.sendReconnect();
        discord.send(dm, alice, "after reconnect");
        awaitText("after reconnect");
        assertThat(frames(6)).hasSize(1);
        discord.invalidateSessions(false);
        await().atMost(WAIT)
                .until(() -> discord.identifies() == 2 && channel.health().healthy());
        discord.send(dm, alice, "after a new session");
        awaitText("after a new session");
        assertThat(inbox.handOvers()).isEqualTo(2);
    }

    @Test
    void aResetTokenClosesWith4004AndStopsLoudlyWithTheFix() {
        // SPEC CH-0, CH-5: a fatal close code is not retried forever; health says what to fix
        run(true);
        awaitReady();
        discord.resetToken();
        discord.dropGatewayConnections();
        await().atMost(WAIT).until(() -> channel.health().detail().contains("4004"));
        assertThat(channel.health().healthy()).isFalse();
        assertThat(channel.health().detail()).contains("bot_token");
        int opened = discord.gatewayConnections().size();
        sleep(1000);
        assertThat(discord.gatewayConnections()).hasSize(opened);
    }

    @Test
    void disallowedMessageContentClosesWith4014AndSaysHowToFixIt() {
        // SPEC CH-5: the "connects, never answers" failure reported with both fixes
        discord.messageContentEnabled(false);
        run(true);
        await().atMost(WAIT).until(() -> channel.health().detail().contains("4014"));
        assertThat(channel.health().detail())
                .contains("Message Content Intent", "message_content = false", "require_mention");
        sleep(500);
        assertThat(discord.gatewayConnections()).hasSize(1);
    }

    @Test
    void aConnectionWithoutReadyIsStuckAndReconnected() {
        // SPEC CH-5: no READY within the bound: reported, then a fresh connection
        discord.delayNextReady(Duration.ofSeconds(30));
        run(true);
        await().atMost(WAIT).until(() -> discord.gatewayConnections().size() >= 2);
        awaitReady();
        discord.send(dm, alice, "after the stuck one");
        awaitText("after the stuck one");
    }

    @Test
    void aNewProcessOnTheSameDataDirResumesTheSessionAndGetsWhatCameWhileItWasDown(@TempDir Path data) {
        // SPEC CH-5, IN-4, IN-1: the session id and the sequence handled are kept under the data dir; a gateway started
        // again within the session's timeout resumes it, and what Discord dispatched while it was down arrives, once
        channel = DiscordFixture.channel(DiscordFixture.account(discord, false, false, true), data);
        channel.start(inbox);
        awaitReady();
        discord.send(dm, alice, "before the restart");
        awaitText("before the restart");
        channel.stop();
        discord.send(dm, alice, "while it was down");
        RecordingInbox second = new RecordingInbox();
        channel = DiscordFixture.channel(DiscordFixture.account(discord, false, false, true), data);
        channel.start(second);
        await().atMost(WAIT).until(() -> second.texts().contains("while it was down"));
        assertThat(second.texts()).doesNotContain("before the restart");
        assertThat(discord.identifies()).isEqualTo(1);
        assertThat(frames(6)).hasSize(1);
    }

    @Test
    void anImageIsDownloadedIntoTheDataDirAndHandedToTheTurn(@TempDir Path data) throws Exception {
        // SPEC OUT-13, MD-1: the CDN link is fetched when the message arrives (it expires); the turn gets a local file
        channel = DiscordFixture.channel(DiscordFixture.account(discord, false, false, true), data);
        channel.start(inbox);
        awaitReady();
        byte[] png = {(byte) 0x89, 'P', 'N', 'G', 13, 10, 26, 10, 1, 2, 3};
        discord.sendWithAttachment(dm, alice, "look at this", "cat.png", "image/png", png);
        discord.sendWithAttachment(dm, alice, "and this file", "notes.txt", "text/plain", "hello".getBytes());
        InboundMessage image = awaitText("look at this\n[attached cat.png]");
        assertThat(image.attachments()).singleElement().satisfies(a -> {
            assertThat(a.kind()).isEqualTo(dev.clawgate.core.model.Attachment.Kind.IMAGE);
            assertThat(a.mimeType()).isEqualTo("image/png");
            assertThat(Path.of(a.location()))
                    .startsWith(data.resolve("media/discord"))
                    .hasBinaryContent(png);
        });
        assertThat(awaitText("and this file\n[attached notes.txt]").attachments())
                .isEmpty();
    }

    @Test
    void startPrunesImagesUnusedForAWeek(@TempDir Path data) throws Exception {
        // SPEC OP-7, OUT-13: downloaded images do not pile up: the start removes those unused for 7 days
        Path media = java.nio.file.Files.createDirectories(data.resolve("media/discord"));
        Path stale = java.nio.file.Files.write(media.resolve("1-stale.png"), new byte[] {1});
        java.nio.file.Files.setLastModifiedTime(
                stale,
                java.nio.file.attribute.FileTime.from(java.time.Instant.now().minus(Duration.ofDays(8))));
        Path fresh = java.nio.file.Files.write(media.resolve("2-fresh.png"), new byte[] {2});
        channel = DiscordFixture.channel(DiscordFixture.account(discord, false, false, true), data);
        channel.start(inbox);
        assertThat(stale).doesNotExist();
        assertThat(fresh).exists();
        awaitReady();
    }

    private static JsonNode json(GatewayFrame f) {
        try {
            return DiscordApi.JSON.readTree(f.json());
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

package dev.clawgate.testkit.discord;

import static dev.clawgate.testkit.discord.DiscordApi.WAIT;
import static dev.clawgate.testkit.discord.DiscordApi.identify;
import static dev.clawgate.testkit.discord.DiscordApi.nextDispatch;
import static dev.clawgate.testkit.discord.DiscordApi.resume;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.testkit.WsProbe;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The fake Gateway speaks Discord's protocol (SPEC CH-5): developers/events/gateway (Hello, heartbeats, Identify,
 * READY, Resume, disconnects, intents, message content) and developers/topics/opcodes-and-status-codes (opcodes, close
 * codes). The app is a plain JDK WebSocket client here.
 */
class DiscordGatewayTest {
    private static final int INTENTS = GatewayIntents.GUILDS
            | GatewayIntents.GUILD_MESSAGES
            | GatewayIntents.DIRECT_MESSAGES
            | GatewayIntents.MESSAGE_CONTENT;
    private FakeDiscord discord;
    private DiscordApi api;
    private DiscordUser alice;
    private DiscordGuild home;
    private DiscordChannel general;

    @BeforeEach
    void start() {
        discord = FakeDiscord.start("clawbot");
        discord.identifyWindow(Duration.ZERO);
        api = new DiscordApi(discord);
        alice = discord.user("alice");
        home = discord.guild("home");
        general = discord.textChannel(home, "general");
    }

    @AfterEach
    void stop() {
        discord.close();
    }

    /** Connects, identifies, reads READY and the GUILD_CREATE that follows it; returns READY. */
    private JsonNode ready(WsProbe ws, int intents) throws Exception {
        ws.send(identify(discord.botToken(), intents));
        JsonNode ready = nextDispatch(ws);
        assertThat(ready.path("t").asText()).isEqualTo("READY");
        if ((intents & GatewayIntents.GUILDS) != 0) {
            assertThat(nextDispatch(ws).path("t").asText()).isEqualTo("GUILD_CREATE");
        }
        return ready;
    }

    @Test
    void helloGivesTheIntervalAndEveryHeartbeatIsAcknowledged() throws Exception {
        // SPEC CH-5: Hello (op 10) with heartbeat_interval; Heartbeat (op 1) answered by Heartbeat ACK (op 11)
        discord.heartbeatInterval(Duration.ofMillis(41_250));
        try (WsProbe ws = WsProbe.connect(discord.gatewayUrl() + "/?v=10&encoding=json")) {
            JsonNode hello = ws.nextJson(WAIT);
            assertThat(hello.path("op").asInt()).isEqualTo(10);
            assertThat(hello.path("d").path("heartbeat_interval").asLong()).isEqualTo(41_250);
            ws.send("{\"op\":1,\"d\":null}");
            assertThat(ws.nextJson(WAIT).path("op").asInt()).isEqualTo(11);
            discord.requestHeartbeat();
            assertThat(ws.nextJson(WAIT).path("op").asInt()).isEqualTo(1);
        }
    }

    @Test
    void identifyGetsReadyWithSessionAndResumeUrlThenGuildsThenNumberedDispatches() throws Exception {
        // SPEC CH-5: READY carries session_id and resume_gateway_url; dispatches carry increasing s
        try (WsProbe ws = api.connect(discord.gatewayUrl())) {
            ws.send(identify(discord.botToken(), INTENTS));
            JsonNode ready = nextDispatch(ws);
            assertThat(ready.path("t").asText()).isEqualTo("READY");
            assertThat(ready.path("s").asLong()).isEqualTo(1);
            assertThat(ready.path("d").path("session_id").asText()).isNotBlank();
            assertThat(ready.path("d").path("resume_gateway_url").asText()).isEqualTo(discord.gatewayUrl() + "/resume");
            assertThat(ready.path("d").path("user").path("id").asText())
                    .isEqualTo(discord.bot().id());
            assertThat(ready.path("d").path("guilds").get(0).path("unavailable").asBoolean())
                    .isTrue();
            JsonNode guild = nextDispatch(ws);
            assertThat(guild.path("t").asText()).isEqualTo("GUILD_CREATE");
            assertThat(guild.path("d").path("channels").get(0).path("id").asText())
                    .isEqualTo(general.id());
            discord.send(general, alice, "one");
            discord.send(discord.dm(alice), alice, "two");
            JsonNode first = nextDispatch(ws);
            JsonNode second = nextDispatch(ws);
            assertThat(first.path("t").asText()).isEqualTo("MESSAGE_CREATE");
            assertThat(first.path("d").path("guild_id").asText()).isEqualTo(home.id());
            assertThat(second.path("d").has("guild_id")).isFalse();
            assertThat(first.path("s").asLong()).isEqualTo(3);
            assertThat(second.path("s").asLong()).isEqualTo(4);
        }
    }

    @Test
    void badTokensDisallowedOrInvalidIntentsAreFatalCloseCodes() throws Exception {
        // SPEC CH-5, CH-0: 4004 authentication failed, 4014 disallowed intent, 4013 invalid intent
        try (WsProbe ws = api.connect(discord.gatewayUrl())) {
            ws.send(identify("not-the-token", INTENTS));
            assertThat(ws.awaitClose(WAIT)).isEqualTo(4004);
        }
        discord.messageContentEnabled(false);
        try (WsProbe ws = api.connect(discord.gatewayUrl())) {
            ws.send(identify(discord.botToken(), INTENTS));
            assertThat(ws.awaitClose(WAIT)).isEqualTo(4014);
        }
        try (WsProbe ws = api.connect(discord.gatewayUrl())) {
            ws.send(identify(discord.botToken(), 1 << 30));
            assertThat(ws.awaitClose(WAIT)).isEqualTo(4013);
        }
        try (WsProbe ws = api.connect(discord.gatewayUrl())) {
            ready(ws, INTENTS & ~GatewayIntents.MESSAGE_CONTENT);
        }
    }

    @Test
    void payloadsOutOfTurnAreClosedWithTheirCodes() throws Exception {
        // SPEC CH-5: 4003 not authenticated, 4005 already authenticated, 4002 decode error, 4001 unknown opcode
        try (WsProbe ws = api.connect(discord.gatewayUrl())) {
            ws.send("{\"op\":3,\"d\":{\"status\":\"online\"}}");
            assertThat(ws.awaitClose(WAIT)).isEqualTo(4003);
        }
        try (WsProbe ws = api.connect(discord.gatewayUrl())) {
            ready(ws, INTENTS);
            ws.send(identify(discord.botToken(), INTENTS));
            assertThat(ws.awaitClose(WAIT)).isEqualTo(4005);
        }
        try (WsProbe ws = api.connect(discord.gatewayUrl())) {
            ws.send("{\"op\":1,\"d\":\"" + "x".repeat(4100) + "\"}");
            assertThat(ws.awaitClose(WAIT)).isEqualTo(4002);
        }
        try (WsProbe ws = api.connect(discord.gatewayUrl())) {
            ws.send("{\"op\":99,\"d\":null}");
            assertThat(ws.awaitClose(WAIT)).isEqualTo(4001);
        }
    }

    @Test
    void aDroppedConnectionResumesOnTheResumeUrlWithTheMissedEventsThenResumed() throws Exception {
        // SPEC CH-5, IN-1: Resume replays every dispatch after seq, in order, then RESUMED
        String session;
        long seq;
        try (WsProbe ws = api.connect(discord.gatewayUrl())) {
            session = ready(ws, INTENTS).path("d").path("session_id").asText();
            discord.send(general, alice, "seen");
            seq = nextDispatch(ws).path("s").asLong();
            discord.dropGatewayConnections();
            // the fake cut the connection without a close frame: the server side ends it as 1006, not closed
            // by the client; the client sees 1006 when it notices (the JDK client may not, under load)
            await().atMost(WAIT)
                    .until(() -> discord.gatewayConnections().getFirst().closeCode() == 1006);
            assertThat(discord.gatewayConnections().getFirst().closedByClient()).isFalse();
            assertThat(ws.closeCodeWithin(Duration.ofSeconds(2))).isIn(null, 1006);
        }
        discord.send(general, alice, "missed one");
        discord.send(general, alice, "missed two");
        try (WsProbe ws = api.connect(discord.gatewayUrl() + "/resume")) {
            ws.send(resume(discord.botToken(), session, seq));
            JsonNode a = nextDispatch(ws);
            JsonNode b = nextDispatch(ws);
            assertThat(a.path("d").path("content").asText()).isEqualTo("missed one");
            assertThat(b.path("d").path("content").asText()).isEqualTo("missed two");
            assertThat(a.path("s").asLong()).isEqualTo(seq + 1);
            assertThat(nextDispatch(ws).path("t").asText()).isEqualTo("RESUMED");
            discord.send(general, alice, "live");
            assertThat(nextDispatch(ws).path("s").asLong()).isEqualTo(seq + 4);
        }
        assertThat(discord.gatewayConnections())
                .extracting(GatewayConnection::path)
                .containsExactly("/", "/resume");
    }

    @Test
    void aResumeFromAFutureSequenceIsClosed4007() throws Exception {
        // SPEC CH-5: "Invalid seq"
        String session;
        try (WsProbe ws = api.connect(discord.gatewayUrl())) {
            session = ready(ws, INTENTS).path("d").path("session_id").asText();
            ws.abort();
        }
        try (WsProbe ws = api.connect(discord.gatewayUrl() + "/resume")) {
            ws.send(resume(discord.botToken(), session, 999));
            assertThat(ws.awaitClose(WAIT)).isEqualTo(4007);
        }
    }

    @Test
    void closingWith1000EndsTheSessionSoItsResumeIsAnInvalidSession() throws Exception {
        // SPEC CH-5: "When you close the connection ... with close code 1000 or 1001, your session will be invalidated"
        String session;
        try (WsProbe ws = api.connect(discord.gatewayUrl())) {
            session = ready(ws, INTENTS).path("d").path("session_id").asText();
            ws.close(1000);
            ws.awaitClose(WAIT);
        }
        try (WsProbe ws = api.connect(discord.gatewayUrl() + "/resume")) {
            ws.send(resume(discord.botToken(), session, 2));
            JsonNode invalid = ws.nextJson(WAIT);
            assertThat(invalid.path("op").asInt()).isEqualTo(9);
            assertThat(invalid.path("d").asBoolean()).isFalse();
        }
    }

    @Test
    void aZombieConnectionAcksNothingAndItsEventsWaitForTheResume() throws Exception {
        // SPEC CH-5: a missed Heartbeat ACK means a zombied connection: close (not 1000/1001) and resume
        String session;
        long seq;
        try (WsProbe ws = api.connect(discord.gatewayUrl())) {
            JsonNode ready = ready(ws, INTENTS);
            session = ready.path("d").path("session_id").asText();
            seq = 2;
            discord.zombifyGatewayConnections();
            ws.send("{\"op\":1,\"d\":" + seq + "}");
            discord.send(general, alice, "while silent");
            assertThat(ws.poll(Duration.ofMillis(300))).isNull();
            ws.close(4000);
        }
        try (WsProbe ws = api.connect(discord.gatewayUrl() + "/resume")) {
            ws.send(resume(discord.botToken(), session, seq));
            assertThat(nextDispatch(ws).path("d").path("content").asText()).isEqualTo("while silent");
            assertThat(nextDispatch(ws).path("t").asText()).isEqualTo("RESUMED");
        }
    }

    @Test
    void reconnectAndInvalidSessionComeAsOpcodes7And9AndOnlyAResumableOneResumes() throws Exception {
        // SPEC CH-5: Reconnect (op 7); Invalid Session (op 9) with d true (resumable) or false (session over)
        try (WsProbe ws = api.connect(discord.gatewayUrl())) {
            ready(ws, INTENTS);
            discord.sendReconnect();
            assertThat(nextDispatch(ws).path("op").asInt()).isEqualTo(7);
            discord.send(general, alice, "after reconnect");
            assertThat(ws.poll(Duration.ofMillis(300))).isNull();
        }
        String resumable;
        try (WsProbe ws = api.connect(discord.gatewayUrl())) {
            resumable = ready(ws, INTENTS).path("d").path("session_id").asText();
            discord.invalidateSessions(true);
            JsonNode invalid = nextDispatch(ws);
            assertThat(invalid.path("op").asInt()).isEqualTo(9);
            assertThat(invalid.path("d").asBoolean()).isTrue();
        }
        try (WsProbe ws = api.connect(discord.gatewayUrl() + "/resume")) {
            ws.send(resume(discord.botToken(), resumable, 2));
            assertThat(nextDispatch(ws).path("t").asText()).isEqualTo("RESUMED");
            discord.invalidateSessions(false);
            JsonNode invalid = nextDispatch(ws);
            assertThat(invalid.path("op").asInt()).isEqualTo(9);
            assertThat(invalid.path("d").asBoolean()).isFalse();
        }
        try (WsProbe ws = api.connect(discord.gatewayUrl() + "/resume")) {
            ws.send(resume(discord.botToken(), resumable, 2));
            assertThat(nextDispatch(ws).path("d").asBoolean()).isFalse();
        }
    }

    @Test
    void aLateReadyComesOnlyAfterTheDelay() throws Exception {
        // SPEC CH-5: a connection with no READY within a bound is stuck; the fake can hold READY back
        discord.delayNextReady(Duration.ofMillis(600));
        try (WsProbe ws = api.connect(discord.gatewayUrl())) {
            ws.send(identify(discord.botToken(), INTENTS));
            assertThat(ws.poll(Duration.ofMillis(300))).isNull();
            assertThat(nextDispatch(ws).path("t").asText()).isEqualTo("READY");
        }
    }

    @Test
    void withoutTheContentIntentGuildMessagesAreEmptiedUnlessTheyMentionTheBot() throws Exception {
        // SPEC CH-5: "Apps without the intent will receive empty values" except DMs, mentions, own messages
        try (WsProbe ws = api.connect(discord.gatewayUrl())) {
            ready(ws, INTENTS & ~GatewayIntents.MESSAGE_CONTENT);
            discord.send(general, alice, "plain talk");
            discord.send(general, alice, discord.bot().mention() + " hello");
            discord.send(discord.dm(alice), alice, "private");
            String asked = discord.send(general, alice, "plain again");
            api.call("POST", "/channels/" + general.id() + "/messages", "{\"content\":\"from the bot\"}");
            discord.reply(general, discord.user("bob"), latestBotMessage(), "thanks", true);
            assertThat(asked).isNotBlank();
            assertThat(nextDispatch(ws).path("d").path("content").asText()).isEmpty();
            assertThat(nextDispatch(ws).path("d").path("content").asText()).contains("hello");
            assertThat(nextDispatch(ws).path("d").path("content").asText()).isEqualTo("private");
            assertThat(nextDispatch(ws).path("d").path("content").asText()).isEmpty();
            assertThat(nextDispatch(ws).path("d").path("content").asText()).isEqualTo("from the bot");
            assertThat(nextDispatch(ws).path("d").path("content").asText()).isEqualTo("thanks");
        }
    }

    private String latestBotMessage() {
        return discord.botMessages(general).getLast().id();
    }

    @Test
    void anIdentifyTooSoonAfterAnotherGetsAnInvalidSession() throws Exception {
        // SPEC CH-5: max_concurrency 1 per 5 seconds; over it, "Discord will respond with a Invalid Session"
        discord.identifyWindow(Duration.ofSeconds(5));
        try (WsProbe first = api.connect(discord.gatewayUrl());
                WsProbe second = api.connect(discord.gatewayUrl())) {
            ready(first, INTENTS);
            second.send(identify(discord.botToken(), INTENTS));
            JsonNode refused = nextDispatch(second);
            assertThat(refused.path("op").asInt()).isEqualTo(9);
            assertThat(refused.path("d").asBoolean()).isFalse();
        }
        assertThat(discord.identifies()).isEqualTo(1);
    }

    @Test
    void aConnectionThatStopsHeartbeatingIsClosedAndItsSessionStaysResumable() throws Exception {
        // SPEC CH-5: "If your app fails to send a heartbeat event in time, your connection will be closed"
        discord.heartbeatInterval(Duration.ofMillis(200));
        String session;
        try (WsProbe ws = api.connect(discord.gatewayUrl())) {
            session = ready(ws, INTENTS).path("d").path("session_id").asText();
            assertThat(ws.awaitClose(Duration.ofSeconds(10))).isEqualTo(4000);
        }
        try (WsProbe ws = api.connect(discord.gatewayUrl() + "/resume")) {
            ws.send(resume(discord.botToken(), session, 2));
            assertThat(nextDispatch(ws).path("t").asText()).isEqualTo("RESUMED");
        }
    }
}

package dev.clawgate.testkit.matrix;

import static dev.clawgate.testkit.matrix.PlainClient.enc;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.testkit.contract.PlatformCall;
import dev.clawgate.testkit.matrix.PlainClient.Response;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The fake's sends, transactions, relations and errors against the Client-Server API (SPEC CH-6, OUT-7). */
class FakeMatrixSendTest {
    private static final String TEXT = "{\"msgtype\":\"m.text\",\"body\":\"hello\"}";
    private FakeMatrixHomeserver hs;
    private PlainClient bot;
    private MatrixUser alice;
    private MatrixRoom room;

    @BeforeEach
    void start() {
        hs = FakeMatrixHomeserver.start("clawbot");
        bot = new PlainClient(hs.baseUrl(), hs.botLogin().accessToken());
        alice = hs.user("alice");
        room = hs.createRoom(alice, "Team");
        hs.joinBot(room);
    }

    @AfterEach
    void stop() {
        hs.close();
    }

    private String path(String rest) {
        return "/_matrix/client/v3/rooms/" + enc(room.roomId()) + rest;
    }

    @Test
    void aResentTransactionIdReturnsTheSameEventForTheSameDeviceWithinTheRetentionWindowOnly() throws Exception {
        // SPEC CH-6, OUT-7: "Transaction identifiers" — retransmissions get the original event_id, scoped per device
        String first = bot.sendMessage(room.roomId(), "out-1", TEXT);
        assertThat(bot.sendMessage(room.roomId(), "out-1", TEXT)).isEqualTo(first);
        Login refreshed = hs.refresh(hs.botLogin());
        assertThat(bot.withToken(refreshed.accessToken()).sendMessage(room.roomId(), "out-1", TEXT))
                .isEqualTo(first);
        assertThat(bot.withToken(hs.login().accessToken()).sendMessage(room.roomId(), "out-1", TEXT))
                .isNotEqualTo(first);
        assertThat(hs.botMessages(room)).hasSize(2);

        hs.transactionRetention(Duration.ofMinutes(10));
        hs.advanceClock(Duration.ofMinutes(11));
        PlainClient again = bot.withToken(refreshed.accessToken());
        assertThat(again.sendMessage(room.roomId(), "out-1", TEXT)).isNotEqualTo(first);
        assertThat(hs.botMessages(room)).hasSize(3);
        assertThat(bot.get("/_matrix/client/v3/sync").status()).isEqualTo(401); // the refreshed-away token is dead
    }

    @Test
    void theTransactionIdIsEchoedInUnsignedOnlyToTheDeviceThatSent() throws Exception {
        // SPEC CH-6: ClientEvent unsigned.transaction_id lets the sender recognise its own echo
        String id = bot.sendMessage(room.roomId(), "t-echo", TEXT);
        PlainClient other = bot.withToken(hs.login().accessToken());
        assertThat(echoOf(bot, id).path("unsigned").path("transaction_id").asText())
                .isEqualTo("t-echo");
        assertThat(echoOf(other, id).path("unsigned").has("transaction_id")).isFalse();
    }

    private JsonNode echoOf(PlainClient c, String eventId) throws Exception {
        for (JsonNode e : c.get("/_matrix/client/v3/sync")
                .json()
                .path("rooms")
                .path("join")
                .path(room.roomId())
                .path("timeline")
                .path("events")) {
            if (e.path("event_id").asText().equals(eventId)) return e;
        }
        throw new AssertionError("event not in the timeline: " + eventId);
    }

    @Test
    void anEditIsResolvedIntoTheMessageAndTheRelationsEndpointListsIt() throws Exception {
        // SPEC CH-6: edits with m.new_content + m.replace (live preview edited into the final reply)
        String original = bot.sendMessage(room.roomId(), "a", "{\"msgtype\":\"m.text\",\"body\":\"draft\"}");
        String edit = bot.sendMessage(
                room.roomId(),
                "b",
                "{\"msgtype\":\"m.text\",\"body\":\"* final\",\"m.new_content\":"
                        + "{\"msgtype\":\"m.text\",\"body\":\"final\",\"format\":\"org.matrix.custom.html\","
                        + "\"formatted_body\":\"<b>final</b>\"},"
                        + "\"m.relates_to\":{\"rel_type\":\"m.replace\",\"event_id\":\"" + original + "\"}}");
        SentEvent shown = hs.botMessages(room).getFirst();
        assertThat(hs.botMessages(room)).hasSize(1);
        assertThat(shown.body()).isEqualTo("final");
        assertThat(shown.formattedBody()).isEqualTo("<b>final</b>");
        assertThat(shown.edits()).isEqualTo(1);
        JsonNode rel = bot.get(
                        "/_matrix/client/v1/rooms/" + enc(room.roomId()) + "/relations/" + enc(original) + "/m.replace")
                .json();
        assertThat(rel.path("chunk"))
                .extracting(e -> e.path("event_id").asText())
                .containsExactly(edit);

        String bySomeoneElse = hs.as(alice).edit(room, original, "hijacked");
        assertThat(hs.event(original).body()).isEqualTo("final"); // another sender's replacement is not valid
        assertThat(bySomeoneElse).isNotBlank();
    }

    @Test
    void aSecondIdenticalReactionIsADuplicateAnnotationAndAThreadCannotBeRootedOnARelation() throws Exception {
        // SPEC CH-6: m.annotation ack reactions and m.thread threads, as the server checks them
        String msg = hs.as(alice).sendText(room, "question");
        String reaction =
                "{\"m.relates_to\":{\"rel_type\":\"m.annotation\",\"event_id\":\"" + msg + "\",\"key\":\"👀\"}}";
        assertThat(bot.put(path("/send/m.reaction/r1"), reaction).status()).isEqualTo(200);
        Response dup = bot.put(path("/send/m.reaction/r2"), reaction);
        assertThat(dup.status()).isEqualTo(400);
        assertThat(dup.json().path("errcode").asText()).isEqualTo("M_DUPLICATE_ANNOTATION");
        assertThat(hs.botReactions(room)).extracting(SentEvent::reactionKey).containsExactly("👀");

        String inThread = hs.as(alice).sendInThread(room, msg, "more");
        Response nested = bot.put(
                path("/send/m.room.message/t2"),
                "{\"msgtype\":\"m.text\",\"body\":\"x\",\"m.relates_to\":"
                        + "{\"rel_type\":\"m.thread\",\"event_id\":\"" + inThread + "\"}}");
        assertThat(nested.status()).isEqualTo(400);
        assertThat(nested.json().path("errcode").asText()).isEqualTo("M_UNKNOWN");
        bot.sendMessage(
                room.roomId(),
                "t3",
                "{\"msgtype\":\"m.text\",\"body\":\"answer\",\"m.relates_to\":"
                        + "{\"rel_type\":\"m.thread\",\"event_id\":\"" + msg + "\"}}");
        assertThat(hs.botMessages(room)).extracting(SentEvent::threadRoot).containsExactly(msg);
    }

    @Test
    void aRedactionEmptiesTheBotsOwnMessageButAnotherUsersNeedsPower() throws Exception {
        // SPEC CH-6: redactions ("Redactions": content stripped, redacted_because set)
        String mine = bot.sendMessage(room.roomId(), "m1", TEXT);
        assertThat(bot.put(path("/redact/" + enc(mine) + "/x1"), "{\"reason\":\"preview\"}")
                        .status())
                .isEqualTo(200);
        assertThat(hs.event(mine).redacted()).isTrue();
        assertThat(hs.event(mine).body()).isNull();
        String theirs = hs.as(alice).sendText(room, "keep");
        assertThat(bot.put(path("/redact/" + enc(theirs) + "/x2"), "{}")
                        .json()
                        .path("errcode")
                        .asText())
                .isEqualTo("M_FORBIDDEN");
        hs.setPowerLevel(room, hs.bot(), 50);
        assertThat(bot.put(path("/redact/" + enc(theirs) + "/x3"), "{}").status())
                .isEqualTo(200);
    }

    @Test
    void rateLimitsCarryRetryAfterInBodyAndHeaderAndTokenErrorsAreTheirOwn() throws Exception {
        // SPEC CH-6: 429 M_LIMIT_EXCEEDED with retry_after_ms / Retry-After; M_FORBIDDEN, M_UNKNOWN_TOKEN permanent
        hs.rateLimitNext("send", Duration.ofMillis(1500));
        Response limited = bot.put(path("/send/m.room.message/l1"), TEXT);
        assertThat(limited.status()).isEqualTo(429);
        assertThat(limited.json().path("errcode").asText()).isEqualTo("M_LIMIT_EXCEEDED");
        assertThat(limited.json().path("retry_after_ms").asLong()).isEqualTo(1500);
        assertThat(limited.header("Retry-After")).isEqualTo("2");
        assertThat(bot.put(path("/send/m.room.message/l1"), TEXT).status()).isEqualTo(200);

        hs.failNext("send", 403, "M_FORBIDDEN", "You don't have permission");
        assertThat(bot.put(path("/send/m.room.message/l2"), TEXT)
                        .json()
                        .path("errcode")
                        .asText())
                .isEqualTo("M_FORBIDDEN");
        Response missing = bot.withToken(null).get("/_matrix/client/v3/sync");
        assertThat(missing.json().path("errcode").asText()).isEqualTo("M_MISSING_TOKEN");
        Login gone = hs.login();
        hs.revoke(gone);
        Response unknown = bot.withToken(gone.accessToken()).get("/_matrix/client/v3/sync");
        assertThat(unknown.status()).isEqualTo(401);
        assertThat(unknown.json().path("errcode").asText()).isEqualTo("M_UNKNOWN_TOKEN");
        assertThat(bot.get("/_matrix/client/v3/nonsense").json().path("errcode").asText())
                .isEqualTo("M_UNRECOGNIZED");
    }

    @Test
    void typingForOneselfIsLoggedAndForSomeoneElseIsForbidden() throws Exception {
        // SPEC CH-6: typing notifications
        assertThat(bot.put(path("/typing/" + enc(hs.bot().userId())), "{\"typing\":true,\"timeout\":20000}")
                        .status())
                .isEqualTo(200);
        assertThat(bot.put(path("/typing/" + enc(alice.userId())), "{\"typing\":true}")
                        .status())
                .isEqualTo(403);
        assertThat(bot.put(path("/typing/" + enc(hs.bot().userId())), "{}")
                        .json()
                        .path("errcode")
                        .asText())
                .isEqualTo("M_BAD_JSON");
        assertThat(hs.typingNotices()).containsExactly(new TypingNotice(room.roomId(), true, 20000L));
    }

    @Test
    void mediaUploadsAreServedOnlyThroughTheAuthenticatedEndpoints() throws Exception {
        // SPEC CH-6: images via the media repository, /_matrix/client/v1/media (Matrix 1.11 authenticated media)
        byte[] png = {(byte) 0x89, 'P', 'N', 'G', 1, 2, 3};
        String mxc =
                bot.upload("a.png", "image/png", png).json().path("content_uri").asText();
        assertThat(mxc).startsWith("mxc://" + hs.serverName() + "/");
        String serverAndId = mxc.substring("mxc://".length());
        Response down = bot.get("/_matrix/client/v1/media/download/" + serverAndId);
        assertThat(down.bytes()).isEqualTo(png);
        assertThat(down.header("Content-Type")).isEqualTo("image/png");
        assertThat(down.header("Content-Disposition")).isEqualTo("inline; filename=\"a.png\"");
        assertThat(bot.withToken(null)
                        .get("/_matrix/client/v1/media/download/" + serverAndId)
                        .status())
                .isEqualTo(401);
        assertThat(bot.get("/_matrix/media/v3/download/" + serverAndId).status())
                .isEqualTo(404);

        String image = hs.as(alice).sendImage(room, "cat.jpg", "image/jpeg", new byte[] {1, 2});
        String url = hs.event(image).url();
        assertThat(bot.get("/_matrix/client/v1/media/download/" + url.substring("mxc://".length()))
                        .bytes())
                .containsExactly(1, 2);
        hs.maxUploadBytes(4);
        assertThat(bot.upload("big.bin", "application/octet-stream", new byte[5])
                        .json()
                        .path("errcode")
                        .asText())
                .isEqualTo("M_TOO_LARGE");
    }

    @Test
    void theCallLogNamesEachEndpointWithItsDeviceAndNeverTheToken() throws Exception {
        // SPEC CH-6: the capability harness reads what the platform received
        bot.sendMessage(room.roomId(), "c1", TEXT);
        PlatformCall send = hs.calls().getLast();
        assertThat(send.method()).isEqualTo("send");
        assertThat(send.headers())
                .containsEntry("device", hs.botLogin().deviceId())
                .containsEntry(":method", "PUT");
        assertThat(send.headers().get(":path")).endsWith("/send/m.room.message/c1");
        assertThat(hs.calls("send").getFirst().path("body").asText()).isEqualTo("hello");
        assertThat(hs.calls().toString()).doesNotContain(hs.botLogin().accessToken());
    }
}

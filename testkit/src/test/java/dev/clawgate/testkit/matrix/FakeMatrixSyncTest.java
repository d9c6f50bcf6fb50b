package dev.clawgate.testkit.matrix;

import static dev.clawgate.testkit.matrix.PlainClient.enc;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.testkit.matrix.PlainClient.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The fake's /sync, filters, rooms and account data against the Client-Server API ("Syncing", "Filtering") (SPEC CH-6).
 */
class FakeMatrixSyncTest {
    private FakeMatrixHomeserver hs;
    private PlainClient bot;
    private MatrixUser alice;

    @BeforeEach
    void start() {
        hs = FakeMatrixHomeserver.start("clawbot");
        bot = new PlainClient(hs.baseUrl(), hs.botLogin().accessToken());
        alice = hs.user("alice");
    }

    @AfterEach
    void stop() {
        hs.close();
    }

    private static List<String> bodies(JsonNode timelineEvents) {
        List<String> out = new ArrayList<>();
        timelineEvents.forEach(e -> out.add(e.path("content").path("body").asText()));
        return out;
    }

    @Test
    void anIncrementalSyncWaitsForTheNextEventAndReturnsOnlyWhatCameAfterItsToken() throws Exception {
        // SPEC CH-6: /sync long polling with since tokens
        MatrixRoom room = hs.createRoom(alice, "Team");
        hs.joinBot(room);
        hs.as(alice).sendText(room, "before");
        Response initial = bot.get("/_matrix/client/v3/sync");
        assertThat(bodies(initial.json()
                        .path("rooms")
                        .path("join")
                        .path(room.roomId())
                        .path("timeline")
                        .path("events")))
                .contains("before");
        String since = initial.json().path("next_batch").asText();

        CompletableFuture<Response> poll = bot.getAsync("/_matrix/client/v3/sync?timeout=30000&since=" + since);
        await().until(() ->
                hs.calls().stream().filter(c -> c.method().equals("sync")).count() == 2);
        assertThat(poll).isNotDone(); // nothing new yet: the server holds the request
        hs.as(alice).sendText(room, "after");

        JsonNode r = poll.get(10, TimeUnit.SECONDS).json();
        assertThat(bodies(r.path("rooms")
                        .path("join")
                        .path(room.roomId())
                        .path("timeline")
                        .path("events")))
                .containsExactly("after");
        assertThat(r.path("next_batch").asText()).isNotEqualTo(since);
    }

    @Test
    void aPollThatTimesOutAnswersEmptyWithTheSameTokenAndABadTokenIsRefused() throws Exception {
        // SPEC CH-6: "If no events ... become available before this time elapses, the server will return ... empty
        // fields"
        String since =
                bot.get("/_matrix/client/v3/sync").json().path("next_batch").asText();
        JsonNode r =
                bot.get("/_matrix/client/v3/sync?timeout=50&since=" + since).json();
        assertThat(r.path("rooms").path("join")).isEmpty();
        assertThat(r.path("next_batch").asText()).isEqualTo(since);
        Response bad = bot.get("/_matrix/client/v3/sync?since=not-a-token");
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.json().path("errcode").asText()).isEqualTo("M_INVALID_PARAM");
    }

    @Test
    void aStoredFilterLimitsTheTimelineWhichThenIsLimitedWithAPrevBatchThatPaginatesBack() throws Exception {
        // SPEC CH-6: a filter so only what is needed comes down; "limited" and "prev_batch"
        MatrixRoom room = hs.createRoom(alice, "Busy");
        hs.joinBot(room);
        for (int i = 1; i <= 5; i++) hs.as(alice).sendText(room, "m" + i);
        hs.as(alice).react(room, hs.as(alice).sendText(room, "m6"), "👍");
        Response created = bot.post(
                "/_matrix/client/v3/user/" + enc(hs.bot().userId()) + "/filter",
                "{\"room\":{\"timeline\":{\"limit\":2,\"types\":[\"m.room.message\"]},"
                        + "\"state\":{\"types\":[\"m.room.name\"]}}}");
        String filterId = created.json().path("filter_id").asText();

        JsonNode joined = bot.get("/_matrix/client/v3/sync?filter=" + filterId)
                .json()
                .path("rooms")
                .path("join")
                .path(room.roomId());
        assertThat(bodies(joined.path("timeline").path("events"))).containsExactly("m5", "m6");
        assertThat(joined.path("timeline").path("limited").asBoolean()).isTrue();
        assertThat(joined.path("state").path("events"))
                .extracting(e -> e.path("type").asText())
                .containsExactly("m.room.name");

        String prev = joined.path("timeline").path("prev_batch").asText();
        JsonNode page = bot.get("/_matrix/client/v3/rooms/" + enc(room.roomId()) + "/messages?dir=b&limit=2&from="
                        + prev
                        + "&filter=" + enc("{\"types\":[\"m.room.message\"]}"))
                .json();
        assertThat(bodies(page.path("chunk"))).containsExactly("m4", "m3");
        assertThat(page.has("end")).isTrue();
        assertThat(bot.post("/_matrix/client/v3/user/" + enc(alice.userId()) + "/filter", "{}")
                        .status())
                .isEqualTo(403);
        assertThat(bot.get("/_matrix/client/v3/sync?filter=99")
                        .json()
                        .path("errcode")
                        .asText())
                .isEqualTo("M_INVALID_PARAM");
    }

    @Test
    void aLimitedIncrementalTimelineLeavesAGapThatMessagesFillFromPrevBatchToSince() throws Exception {
        // SPEC CH-6, IN-4: "Syncing": a limited timeline; /messages with from=prev_batch and to=since is the gap
        MatrixRoom room = hs.createRoom(alice, "Busy");
        hs.joinBot(room);
        String since =
                bot.get("/_matrix/client/v3/sync").json().path("next_batch").asText();
        for (int i = 1; i <= 5; i++) hs.as(alice).sendText(room, "g" + i);
        String filter = enc("{\"room\":{\"timeline\":{\"limit\":2,\"types\":[\"m.room.message\"]}}}");
        JsonNode joined = bot.get("/_matrix/client/v3/sync?since=" + since + "&filter=" + filter)
                .json()
                .path("rooms")
                .path("join")
                .path(room.roomId());
        assertThat(bodies(joined.path("timeline").path("events"))).containsExactly("g4", "g5");
        assertThat(joined.path("timeline").path("limited").asBoolean()).isTrue();
        String gap = "/_matrix/client/v3/rooms/" + enc(room.roomId()) + "/messages?dir=b&limit=10&from="
                + joined.path("timeline").path("prev_batch").asText() + "&to=" + since;
        JsonNode page = bot.get(gap).json();
        assertThat(bodies(page.path("chunk"))).containsExactly("g3", "g2", "g1");
        assertThat(page.has("end")).isFalse();
    }

    @Test
    void aDirectInviteShowsWithItsInviteStateAndJoiningMovesTheRoomToJoinWithFullState() throws Exception {
        // SPEC CH-6: invites accepted per policy; DMs via is_direct and m.direct
        MatrixRoom dm = hs.directRoom(alice);
        JsonNode first = bot.get("/_matrix/client/v3/sync").json();
        JsonNode invite = first.path("rooms")
                .path("invite")
                .path(dm.roomId())
                .path("invite_state")
                .path("events");
        JsonNode myInvite = null;
        for (JsonNode e : invite)
            if (e.path("state_key").asText().equals(hs.bot().userId())) myInvite = e;
        assertThat(myInvite).isNotNull();
        assertThat(myInvite.path("content").path("is_direct").asBoolean()).isTrue();
        assertThat(myInvite.path("sender").asText()).isEqualTo(alice.userId());

        assertThat(bot.post("/_matrix/client/v3/join/" + enc(dm.roomId()), "{}")
                        .json()
                        .path("room_id")
                        .asText())
                .isEqualTo(dm.roomId());
        bot.put(
                "/_matrix/client/v3/user/" + enc(hs.bot().userId()) + "/account_data/m.direct",
                "{\"" + alice.userId() + "\":[\"" + dm.roomId() + "\"]}");
        JsonNode next = bot.get("/_matrix/client/v3/sync?since="
                        + first.path("next_batch").asText())
                .json();
        JsonNode joined = next.path("rooms").path("join").path(dm.roomId());
        List<String> seen = new ArrayList<>(); // full state: what the timeline does not hold comes as state
        joined.path("state").path("events").forEach(e -> seen.add(e.path("type").asText()));
        joined.path("timeline")
                .path("events")
                .forEach(e -> seen.add(e.path("type").asText()));
        assertThat(seen).contains("m.room.create", "m.room.power_levels", "m.room.join_rules");
        assertThat(joined.path("summary").path("m.joined_member_count").asInt()).isEqualTo(2);
        assertThat(next.path("rooms").path("invite").has(dm.roomId())).isFalse();
        assertThat(next.path("account_data")
                        .path("events")
                        .get(0)
                        .path("content")
                        .path(alice.userId())
                        .get(0)
                        .asText())
                .isEqualTo(dm.roomId());
        assertThat(hs.membership(dm, hs.bot())).isEqualTo("join");
    }

    @Test
    void aRoomTheBotIsKickedFromShowsOnceUnderLeave() throws Exception {
        // SPEC CH-6: rooms left show in rooms.leave
        MatrixRoom room = hs.createRoom(alice, "Temp");
        hs.joinBot(room);
        String since =
                bot.get("/_matrix/client/v3/sync").json().path("next_batch").asText();
        hs.as(alice).kickBot(room);
        JsonNode r = bot.get("/_matrix/client/v3/sync?since=" + since).json();
        JsonNode left = r.path("rooms")
                .path("leave")
                .path(room.roomId())
                .path("timeline")
                .path("events");
        assertThat(left.get(left.size() - 1).path("content").path("membership").asText())
                .isEqualTo("leave");
        JsonNode again = bot.get("/_matrix/client/v3/sync?timeout=0&since="
                        + r.path("next_batch").asText())
                .json();
        assertThat(again.path("rooms").path("leave")).isEmpty();
        Response refused = bot.put(
                "/_matrix/client/v3/rooms/" + enc(room.roomId()) + "/send/m.room.message/t1", "{\"body\":\"x\"}");
        assertThat(refused.status()).isEqualTo(403);
        assertThat(refused.json().path("errcode").asText()).isEqualTo("M_FORBIDDEN");
    }

    @Test
    void encryptionIsVisibleAsRoomStateAndEncryptedEventsArriveOpaque() throws Exception {
        // SPEC CH-6: encrypted rooms are recognisable (m.room.encryption) so the adapter can decline them
        MatrixRoom room = hs.createRoom(alice, "Secret");
        hs.joinBot(room);
        hs.as(alice).enableEncryption(room);
        hs.as(alice).sendEncrypted(room);
        JsonNode joined = bot.get("/_matrix/client/v3/sync")
                .json()
                .path("rooms")
                .path("join")
                .path(room.roomId());
        JsonNode last = joined.path("timeline")
                .path("events")
                .get(joined.path("timeline").path("events").size() - 1);
        assertThat(last.path("type").asText()).isEqualTo("m.room.encrypted");
        assertThat(last.path("content").has("ciphertext")).isTrue();
        Response state = bot.get("/_matrix/client/v3/rooms/" + enc(room.roomId()) + "/state/m.room.encryption");
        assertThat(state.json().path("algorithm").asText()).isEqualTo("m.megolm.v1.aes-sha2");
        assertThat(bot.get("/_matrix/client/v3/rooms/" + enc(room.roomId()) + "/state/m.room.topic")
                        .status())
                .isEqualTo(404);
    }

    @Test
    void typingAndReceiptsComeDownAsEphemeralEvents() throws Exception {
        // SPEC CH-6: typing notifications and read receipts
        MatrixRoom room = hs.createRoom(alice, "Chat");
        hs.joinBot(room);
        String msg = hs.as(alice).sendText(room, "hi");
        String since =
                bot.get("/_matrix/client/v3/sync").json().path("next_batch").asText();
        hs.as(alice).typing(room, true);
        bot.post(
                "/_matrix/client/v3/rooms/" + enc(room.roomId()) + "/receipt/m.read/" + enc(msg),
                "{\"thread_id\":\"main\"}");
        JsonNode eph = bot.get("/_matrix/client/v3/sync?since=" + since)
                .json()
                .path("rooms")
                .path("join")
                .path(room.roomId())
                .path("ephemeral")
                .path("events");
        assertThat(eph).extracting(e -> e.path("type").asText()).containsExactly("m.typing", "m.receipt");
        assertThat(eph.get(0).path("content").path("user_ids").get(0).asText()).isEqualTo(alice.userId());
        assertThat(eph.get(1)
                        .path("content")
                        .path(msg)
                        .path("m.read")
                        .path(hs.bot().userId())
                        .path("thread_id")
                        .asText())
                .isEqualTo("main");
        assertThat(hs.receipts()).containsExactly(new ReadReceipt(room.roomId(), msg, "m.read", "main"));
    }
}

package dev.clawgate.core.internal.inbound;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.config.DmScope;
import dev.clawgate.core.config.GatewaySettings;
import dev.clawgate.core.config.GroupScope;
import dev.clawgate.core.config.SessionSettings;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.model.SessionKey;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Session keys under session.dm_scope and session.group_scope. */
class SessionKeysTest {

    private static final GatewaySettings OWNER =
            new GatewaySettings(Path.of("data"), "127.0.0.1:8787", null, List.of("telegram:42", "slack:U42"));

    @Test
    void perChannelPeerIsTheDefaultAndMatchesTheModelsOwnKey() {
        // SPEC HI-1: per-channel-peer (default): one session per channel, account and person
        InboundMessage m = direct("telegram", "bot2", "alice", "chat-9", "t-1");

        SessionKey key = SessionKeys.of(m, SessionSettings.defaults(), GatewaySettings.defaults());

        assertThat(key).isEqualTo(new SessionKey("telegram", "bot2", ChatType.DIRECT, "chat-9", "t-1", "alice"));
        assertThat(key).isEqualTo(SessionKey.of(m));
        assertThat(key.display()).isEqualTo("telegram.bot2_chat-9_t-1_alice");
    }

    @Test
    void perPeerSharesOneSessionPerSenderIdAcrossChannels() {
        // SPEC HI-1: per-peer: one session per person across channels
        SessionSettings perPeer = new SessionSettings(DmScope.PER_PEER, GroupScope.SHARED);

        SessionKey onTelegram = SessionKeys.of(direct("telegram", null, "alice", "chat-1", null), perPeer, OWNER);
        SessionKey onMatrix = SessionKeys.of(direct("matrix", "b", "alice", "!dm:x", "t"), perPeer, OWNER);
        SessionKey bob = SessionKeys.of(direct("telegram", null, "bob", "chat-2", null), perPeer, OWNER);

        assertThat(onTelegram)
                .isEqualTo(onMatrix)
                .isEqualTo(new SessionKey("*", "*", ChatType.DIRECT, "*", null, "alice"));
        assertThat(bob).isNotEqualTo(onTelegram);
        assertThat(onTelegram.display()).isEqualTo("*.*_*_alice");
    }

    @Test
    void mainGivesTheOwnerOneSessionOnEveryChannelAndOthersTheirOwn() {
        // SPEC HI-1: main: the owner's direct chats on every channel share one session
        SessionSettings main = new SessionSettings(DmScope.MAIN, GroupScope.SHARED);

        SessionKey ownerTelegram = SessionKeys.of(direct("telegram", null, "42", "42", null), main, OWNER);
        SessionKey ownerSlack = SessionKeys.of(direct("slack", "ws1", "U42", "D99", null), main, OWNER);
        SessionKey stranger = SessionKeys.of(direct("telegram", null, "7", "7", null), main, OWNER);
        SessionKey ownerIdElsewhere = SessionKeys.of(direct("slack", null, "42", "D1", null), main, OWNER);

        assertThat(ownerTelegram)
                .isEqualTo(ownerSlack)
                .isEqualTo(new SessionKey("*", "*", ChatType.DIRECT, "main", null, "owner"));
        assertThat(ownerTelegram.display()).isEqualTo("*.*_main_owner");
        assertThat(stranger).isEqualTo(new SessionKey("telegram", "default", ChatType.DIRECT, "7", null, "7"));
        assertThat(stranger.display()).isEqualTo("telegram_7_7");
        assertThat(ownerIdElsewhere)
                .as("owner ids are per channel: slack:42 is not the owner")
                .isEqualTo(new SessionKey("slack", "default", ChatType.DIRECT, "D1", null, "42"));
    }

    @Test
    void groupIsOneSharedSessionPerRoomOrThreadByDefault() {
        // SPEC HI-1: groups: one shared session per room or thread, display without a sender
        SessionKey carol = SessionKeys.of(group("carol", "room-1", null), SessionSettings.defaults(), OWNER);
        SessionKey dave = SessionKeys.of(group("dave", "room-1", null), SessionSettings.defaults(), OWNER);
        SessionKey thread = SessionKeys.of(group("carol", "room-1", "t-5"), SessionSettings.defaults(), OWNER);

        assertThat(carol)
                .isEqualTo(dave)
                .isEqualTo(new SessionKey("slack", "default", ChatType.GROUP, "room-1", null, null));
        assertThat(thread).isNotEqualTo(carol);
        assertThat(carol.display()).isEqualTo("slack_room-1");
        assertThat(thread.display()).isEqualTo("slack_room-1_t-5");
    }

    @Test
    void perSenderGroupScopeGivesEachMemberTheirOwnSession() {
        // SPEC HI-1: session.group_scope = per-sender gives each member their own
        SessionSettings perSender = new SessionSettings(DmScope.PER_CHANNEL_PEER, GroupScope.PER_SENDER);

        SessionKey carol = SessionKeys.of(group("carol", "room-1", "t-5"), perSender, OWNER);
        SessionKey dave = SessionKeys.of(group("dave", "room-1", "t-5"), perSender, OWNER);

        assertThat(carol).isEqualTo(new SessionKey("slack", "default", ChatType.GROUP, "room-1", "t-5", "carol"));
        assertThat(dave).isNotEqualTo(carol);
        assertThat(carol.display()).isEqualTo("slack_room-1_t-5_carol");
    }

    @Test
    void dmScopeNeverReachesGroupsAndGroupScopeNeverReachesDirectChats() {
        // SPEC HI-1: the two settings are independent
        InboundMessage groupMessage = group("42", "room-1", null);
        InboundMessage directMessage = direct("slack", null, "U42", "D99", null);
        SessionKey shared = SessionKeys.of(groupMessage, SessionSettings.defaults(), OWNER);

        for (DmScope dm : DmScope.values()) {
            assertThat(SessionKeys.of(groupMessage, new SessionSettings(dm, GroupScope.SHARED), OWNER))
                    .isEqualTo(shared);
        }
        for (GroupScope g : GroupScope.values()) {
            assertThat(SessionKeys.of(directMessage, new SessionSettings(DmScope.PER_CHANNEL_PEER, g), OWNER))
                    .isEqualTo(SessionKey.of(directMessage));
        }
    }

    @Test
    void everyScopeGivesItsOwnTupleForTheSameMessage() {
        // SPEC HI-1: the tuple is the identity: scopes never collide with each other
        InboundMessage ownerDm = direct("telegram", null, "42", "42", null);
        Set<SessionKey> keys = Set.of(
                SessionKeys.of(ownerDm, new SessionSettings(DmScope.PER_CHANNEL_PEER, GroupScope.SHARED), OWNER),
                SessionKeys.of(ownerDm, new SessionSettings(DmScope.PER_PEER, GroupScope.SHARED), OWNER),
                SessionKeys.of(ownerDm, new SessionSettings(DmScope.MAIN, GroupScope.SHARED), OWNER));
        assertThat(keys).hasSize(3);

        InboundMessage inRoom = group("carol", "room-1", null);
        assertThat(SessionKeys.of(inRoom, new SessionSettings(DmScope.PER_CHANNEL_PEER, GroupScope.SHARED), OWNER))
                .isNotEqualTo(SessionKeys.of(
                        inRoom, new SessionSettings(DmScope.PER_CHANNEL_PEER, GroupScope.PER_SENDER), OWNER));
    }

    private static InboundMessage direct(String channel, String account, String sender, String target, String thread) {
        return new InboundMessage(
                "1",
                channel,
                account,
                sender,
                null,
                target,
                thread,
                null,
                ChatType.DIRECT,
                true,
                Instant.parse("2025-03-01T10:00:00Z"),
                "hi",
                List.of(),
                null);
    }

    private static InboundMessage group(String sender, String room, String thread) {
        return new InboundMessage(
                "1",
                "slack",
                null,
                sender,
                null,
                room,
                thread,
                null,
                ChatType.GROUP,
                false,
                Instant.parse("2025-03-01T10:00:00Z"),
                "hi",
                List.of(),
                null);
    }
}

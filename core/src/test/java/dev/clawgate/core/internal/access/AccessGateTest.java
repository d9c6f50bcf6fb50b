package dev.clawgate.core.internal.access;

import static dev.clawgate.core.internal.access.AccessFixtures.OWNER;
import static dev.clawgate.core.internal.access.AccessFixtures.config;
import static dev.clawgate.core.internal.access.AccessFixtures.dm;
import static dev.clawgate.core.internal.access.AccessFixtures.dms;
import static dev.clawgate.core.internal.access.AccessFixtures.groupMessage;
import static dev.clawgate.core.internal.access.AccessFixtures.groups;
import static dev.clawgate.core.internal.access.AccessFixtures.kind;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.config.AccessSettings;
import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.config.DmPolicy;
import dev.clawgate.core.config.GroupPolicy;
import dev.clawgate.core.internal.access.AccessFixtures.TestClock;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.store.Pairing;
import dev.clawgate.core.testing.InMemoryStore;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/** The access matrix of SPEC IN-5 (and the group trigger of SPEC IN-6), one channel account at a time. */
class AccessGateTest {

    private final TestClock clock = new TestClock(Instant.parse("2025-03-01T10:00:00Z"));
    private final InMemoryStore store = new InMemoryStore(clock);
    private final AccessGate gate = new AccessGate(store.pairing(), clock, new Random(7));

    // SPEC IN-5: open admits anyone only with "*"; allowlist the list; pairing the list plus a code; disabled no DM
    @ParameterizedTest(name = "dm_policy={0} allowed_users=[{1}] sender={2} -> {3}")
    @CsvSource({
        "OPEN,      '*',              stranger, admit",
        "OPEN,      alice,            alice,    admit",
        "OPEN,      'bob, alice',     alice,    admit",
        "OPEN,      alice,            stranger, deny",
        "OPEN,      '',               stranger, deny",
        "OPEN,      telegram:alice,   alice,    admit",
        "OPEN,      discord:alice,    alice,    deny",
        "ALLOWLIST, alice,            alice,    admit",
        "ALLOWLIST, telegram:alice,   alice,    admit",
        "ALLOWLIST, alice,            stranger, deny",
        "ALLOWLIST, '',               stranger, deny",
        "ALLOWLIST, '*',              stranger, admit",
        "ALLOWLIST, ALICE,            alice,    deny",
        "PAIRING,   alice,            alice,    admit",
        "PAIRING,   telegram:alice,   alice,    admit",
        "PAIRING,   alice,            stranger, pair",
        "PAIRING,   '',               stranger, pair",
        "PAIRING,   '*',              stranger, admit",
        "DISABLED,  alice,            alice,    deny",
        "DISABLED,  '*',              stranger, deny",
        "DISABLED,  '',               stranger, deny",
    })
    void directMessagesFollowTheDmPolicyMatrix(DmPolicy policy, String allowedUsers, String sender, String expected) {
        // SPEC IN-5
        Decision d = gate.decide(dm(sender), false, config(dms(policy, allowedUsers)));

        assertThat(kind(d)).as(d.toString()).isEqualTo(expected);
        assertThat(store.pairing().list(true))
                .as("only the pairing policy hands out codes")
                .hasSize(expected.equals("pair") ? 1 : 0);
    }

    @ParameterizedTest
    @EnumSource(DmPolicy.class)
    void theOwnerIsAdmittedInDirectMessagesUnderEveryPolicy(DmPolicy policy) {
        // SPEC IN-5: gateway.owner = ["telegram:owner-1"] names the owner
        ClawgateConfig cfg = config(dms(policy, ""));

        assertThat(gate.decide(dm(OWNER), false, cfg)).isEqualTo(new Decision.Admit());
        assertThat(kind(gate.decide(dm("discord", "default", OWNER), false, cfg)))
                .as("the owner id is per channel: discord:owner-1 is not named")
                .isNotEqualTo("admit");
        assertThat(store.pairing().list(true)).extracting(Pairing::channel).doesNotContain("telegram");
    }

    @ParameterizedTest(name = "dm_policy={0} allowed_users=[{1}] -> {2}")
    @CsvSource({
        "OPEN,      '',    deny",
        "OPEN,      alice, deny",
        "OPEN,      '*',   admit",
        "ALLOWLIST, '',    admit",
        "ALLOWLIST, alice, admit",
        "PAIRING,   '',    admit",
        "DISABLED,  '',    deny",
    })
    void anApprovedPairingCountsWhereTheListIsExtendedByPairings(
            DmPolicy policy, String allowedUsers, String expected) {
        // SPEC IN-5: allowlist admits the list plus approved pairings; open with a concrete list only the list
        Pairing p = store.pairing()
                .create(
                        "telegram",
                        "default",
                        "paired",
                        "PAIR2345",
                        clock.instant(),
                        clock.instant().plusSeconds(3600));
        store.pairing().approve(p.code(), clock.instant());

        assertThat(kind(gate.decide(dm("paired"), false, config(dms(policy, allowedUsers)))))
                .isEqualTo(expected);
    }

    // SPEC IN-5: group_policy = open | allowlist (allowed_groups) | disabled; SPEC IN-6: require_mention buffers the
    // rest
    @ParameterizedTest(
            name = "group_policy={0} allowed_groups=[{1}] group={2} mentioned={3} require_mention={4} -> {5}")
    @CsvSource({
        "OPEN,      '',              room-1, true,  true,  admit",
        "OPEN,      '',              room-1, false, true,  buffer",
        "OPEN,      '',              room-1, false, false, admit",
        "ALLOWLIST, room-1,          room-1, true,  true,  admit",
        "ALLOWLIST, room-1,          room-1, false, true,  buffer",
        "ALLOWLIST, room-1,          room-1, false, false, admit",
        "ALLOWLIST, 'room-2, room-1', room-1, true, true,  admit",
        "ALLOWLIST, telegram:room-1, room-1, true,  true,  admit",
        "ALLOWLIST, discord:room-1,  room-1, true,  true,  deny",
        "ALLOWLIST, room-1,          room-2, true,  true,  deny",
        "ALLOWLIST, room-1,          room-2, false, true,  deny",
        "ALLOWLIST, '',              room-1, true,  true,  deny",
        "ALLOWLIST, '*',             room-9, true,  true,  admit",
        "ALLOWLIST, '*',             room-9, false, true,  buffer",
        "DISABLED,  '*',             room-1, true,  true,  deny",
        "DISABLED,  room-1,          room-1, true,  false, deny",
    })
    void groupMessagesFollowTheGroupPolicyMatrix(
            GroupPolicy policy,
            String allowedGroups,
            String group,
            boolean mentioned,
            boolean requireMention,
            String expected) {
        // SPEC IN-5, IN-6
        Decision d = gate.decide(
                groupMessage("telegram", group, "stranger", mentioned),
                false,
                config(groups(policy, allowedGroups, requireMention)));

        assertThat(kind(d)).as(d.toString()).isEqualTo(expected);
        assertThat(store.pairing().list(true))
                .as("group messages never earn a pairing code")
                .isEmpty();
    }

    @Test
    void deniedAndBufferedDecisionsSayWhy() {
        // SPEC IN-5: a denial is recorded with its reason; SPEC IN-6: a buffered message is kept as group history
        ClawgateConfig allowlist = config(new AccessSettings(
                DmPolicy.ALLOWLIST, List.of("alice"), GroupPolicy.ALLOWLIST, List.of("room-1"), true));

        assertThat(gate.decide(dm("stranger"), false, allowlist))
                .isEqualTo(new Decision.Deny("sender not in allowed_users and not paired"));
        assertThat(gate.decide(groupMessage("telegram", "room-2", "alice", true), false, allowlist))
                .isEqualTo(new Decision.Deny("group not in allowed_groups"));
        assertThat(gate.decide(groupMessage("telegram", "room-1", "alice", false), false, allowlist))
                .isEqualTo(new Decision.Buffer("not mentioned (require_mention)"));
        assertThat(gate.decide(dm("alice"), false, config(dms(DmPolicy.DISABLED, "alice"))))
                .isEqualTo(new Decision.Deny("direct messages are disabled (dm_policy = disabled)"));
        assertThat(gate.decide(
                        groupMessage("telegram", "room-1", "alice", true),
                        false,
                        config(groups(GroupPolicy.DISABLED, "*", true))))
                .isEqualTo(new Decision.Deny("group messages are disabled (group_policy = disabled)"));
    }

    @Test
    void inGroupsTheGroupDecidesNotTheSender() {
        // SPEC IN-5: allowed_users and gateway.owner govern direct messages; groups have allowed_groups
        ClawgateConfig cfg = config(new AccessSettings(
                DmPolicy.ALLOWLIST, List.of("alice"), GroupPolicy.ALLOWLIST, List.of("room-1"), true));

        assertThat(kind(gate.decide(groupMessage("telegram", "room-1", "stranger", true), false, cfg)))
                .isEqualTo("admit");
        assertThat(kind(gate.decide(groupMessage("telegram", "room-2", "alice", true), false, cfg)))
                .isEqualTo("deny");
        assertThat(kind(gate.decide(groupMessage("telegram", "room-2", OWNER, true), false, cfg)))
                .isEqualTo("deny");
        assertThat(kind(gate.decide(groupMessage("telegram", "room-1", OWNER, false), false, cfg)))
                .isEqualTo("buffer");
    }

    @ParameterizedTest
    @EnumSource(ChatType.class)
    void ownerChannelsAreExemptFromEveryRule(ChatType chatType) {
        // SPEC IN-5: the terminal, web chat and API channels are owner channels; IN-5 does not apply to them
        ClawgateConfig locked =
                config(new AccessSettings(DmPolicy.DISABLED, List.of(), GroupPolicy.DISABLED, List.of(), true));
        InboundMessage m = new InboundMessage(
                "1",
                "telegram",
                "default",
                "stranger",
                null,
                "room-1",
                null,
                null,
                chatType,
                false,
                Instant.EPOCH,
                "hi",
                List.of(),
                null);
        InboundMessage api = InboundMessage.direct("api", "2", "anyone", "hi");

        assertThat(gate.decide(m, true, locked)).isEqualTo(new Decision.Admit());
        assertThat(gate.decide(api, true, locked)).isEqualTo(new Decision.Admit());
        assertThat(kind(gate.decide(m, false, locked)))
                .as("the same message on a non-owner channel")
                .isEqualTo("deny");
        assertThat(store.pairing().list(true)).isEmpty();
    }

    @Test
    void anAccountTableOverridesItsChannelsRules() {
        // SPEC IN-5: access control is per channel and account ([channels.<ch>.accounts.<id>])
        AccessSettings channelWide = dms(DmPolicy.PAIRING, "");
        ClawgateConfig cfg = config(
                channelWide,
                Map.of(
                        "public-bot",
                                new AccessSettings(DmPolicy.OPEN, List.of("*"), GroupPolicy.OPEN, List.of(), false),
                        "quiet-bot",
                                new AccessSettings(
                                        DmPolicy.DISABLED, List.of(), GroupPolicy.DISABLED, List.of(), true)));

        assertThat(kind(gate.decide(dm("telegram", "public-bot", "stranger"), false, cfg)))
                .isEqualTo("admit");
        assertThat(kind(gate.decide(groupMessage("telegram", "room-7", "stranger", false), false, cfg)))
                .as("the default account keeps the channel's group rules")
                .isEqualTo("deny");
        assertThat(kind(gate.decide(dm("telegram", "quiet-bot", "stranger"), false, cfg)))
                .isEqualTo("deny");
        assertThat(kind(gate.decide(dm("telegram", "default", "stranger"), false, cfg)))
                .isEqualTo("pair");
        InboundMessage publicGroup = new InboundMessage(
                "g",
                "telegram",
                "public-bot",
                "x",
                null,
                "room-7",
                null,
                null,
                ChatType.GROUP,
                false,
                Instant.EPOCH,
                "hi",
                List.of(),
                null);
        assertThat(kind(gate.decide(publicGroup, false, cfg)))
                .as("require_mention = false on that account")
                .isEqualTo("admit");
        assertThat(store.pairing().list(true)).extracting(Pairing::account).containsExactly("default");
    }

    @Test
    void aChannelWithoutATableGetsTheSpecDefaults() {
        // SPEC IN-5: dm_policy defaults to pairing; require_mention defaults to true; groups need allowed_groups
        ClawgateConfig cfg = ClawgateConfig.defaults();

        assertThat(kind(gate.decide(dm("matrix", "default", "stranger"), false, cfg)))
                .isEqualTo("pair");
        assertThat(kind(gate.decide(groupMessage("matrix", "room-1", "stranger", true), false, cfg)))
                .isEqualTo("deny");
        assertThat(kind(gate.decide(dm("matrix", "default", OWNER), false, cfg)))
                .as("no gateway.owner configured")
                .isEqualTo("pair");
    }
}

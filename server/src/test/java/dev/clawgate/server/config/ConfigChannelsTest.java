package dev.clawgate.server.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.config.AccessSettings;
import dev.clawgate.core.config.ChannelSettings;
import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.config.DmPolicy;
import dev.clawgate.core.config.GroupPolicy;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** [channels.<name>] and [channels.<name>.accounts.<id>]: access rules, inheritance, a channel's own keys. */
class ConfigChannelsTest extends ConfigFileCase {
    private static final ChannelKeys TELEGRAM_KEYS = ChannelKeys.of(Map.of(
            "telegram",
            Map.of("bot_token", "string", "api_base", "string", "poll_timeout_secs", "integer", "webhook", "boolean")));

    private ClawgateConfig loadWithTelegramKeys(String toml, Map<String, String> env) {
        return new ConfigLoader(ConfigLoader.DEFAULT_KINDS, TELEGRAM_KEYS).load(fixture.write(toml), env);
    }

    private String errorWithTelegramKeys(String toml) {
        Path written = fixture.write(toml);
        try {
            new ConfigLoader(ConfigLoader.DEFAULT_KINDS, TELEGRAM_KEYS).load(written, Map.of());
        } catch (ConfigException e) {
            assertThat(e.getMessage()).doesNotContain("\n");
            return e.getMessage();
        }
        throw new AssertionError("no error loading " + toml);
    }

    @Test
    void aChannelWithoutATableHasTheDefaultAccessRules() {
        // SPEC IN-5 (pairing, allowlist, require_mention by default)
        ClawgateConfig config = fixture.load(NO_KEYS);

        assertThat(config.channels()).isEmpty();
        assertThat(config.channel("telegram").access())
                .isEqualTo(new AccessSettings(DmPolicy.PAIRING, List.of(), GroupPolicy.ALLOWLIST, List.of(), true));
        assertThat(fixture.load("[channels.slack]\n").channel("slack"))
                .isEqualTo(new ChannelSettings("slack", AccessSettings.defaults(), Map.of(), Map.of()));
    }

    @Test
    void everyAccessKeyReachesTheChannel() {
        // SPEC IN-5
        ClawgateConfig config = fixture.load("""
                [channels.telegram]
                dm_policy = "allowlist"
                allowed_users = ["111", "222"]
                group_policy = "open"
                allowed_groups = ["-100123"]
                require_mention = false

                [channels.matrix]
                dm_policy = "disabled"
                group_policy = "disabled"
                """);

        assertThat(config.channels().keySet()).containsExactly("telegram", "matrix");
        assertThat(config.channel("telegram"))
                .isEqualTo(new ChannelSettings(
                        "telegram",
                        new AccessSettings(
                                DmPolicy.ALLOWLIST, List.of("111", "222"), GroupPolicy.OPEN, List.of("-100123"), false),
                        Map.of(),
                        Map.of()));
        assertThat(config.channel("matrix").access())
                .isEqualTo(new AccessSettings(DmPolicy.DISABLED, List.of(), GroupPolicy.DISABLED, List.of(), true));
    }

    @Test
    void anAccountTakesEveryKeyItDoesNotSetFromItsChannel() {
        // SPEC IN-5 (per channel and account)
        ClawgateConfig config = fixture.load("""
                [channels.telegram]
                dm_policy = "allowlist"
                allowed_users = ["111"]
                group_policy = "open"
                require_mention = false

                [channels.telegram.accounts.support]
                allowed_users = ["333"]

                [channels.telegram.accounts.sales]
                dm_policy = "pairing"
                require_mention = true
                allowed_groups = ["-1"]

                [channels.slack.accounts.T01]
                group_policy = "disabled"
                """);

        ChannelSettings telegram = config.channel("telegram");
        assertThat(telegram.accessFor("support"))
                .isEqualTo(new AccessSettings(DmPolicy.ALLOWLIST, List.of("333"), GroupPolicy.OPEN, List.of(), false));
        assertThat(telegram.accessFor("sales"))
                .isEqualTo(new AccessSettings(DmPolicy.PAIRING, List.of("111"), GroupPolicy.OPEN, List.of("-1"), true));
        assertThat(telegram.accessFor("unlisted")).isEqualTo(telegram.access());
        assertThat(config.channel("slack").access()).isEqualTo(AccessSettings.defaults());
        assertThat(config.channel("slack").accessFor("T01"))
                .isEqualTo(new AccessSettings(DmPolicy.PAIRING, List.of(), GroupPolicy.DISABLED, List.of(), true));
    }

    @Test
    void anUnknownPolicyNamesTheKeyAndTheValidPolicies() {
        // SPEC IN-5
        assertThat(fixture.error("[channels.telegram]\ndm_policy = \"everyone\"\n"))
                .isEqualTo("'channels.telegram.dm_policy' in " + file
                        + " is 'everyone', which is not a DM policy; use one of open, allowlist, pairing, disabled");
        assertThat(fixture.error("[channels.telegram]\ngroup_policy = \"pairing\"\n"))
                .isEqualTo("'channels.telegram.group_policy' in " + file
                        + " is 'pairing', which is not a group policy; use one of open, allowlist, disabled");
        assertThat(fixture.error("[channels.telegram.accounts.main]\ndm_policy = \"closed\"\n"))
                .startsWith("'channels.telegram.accounts.main.dm_policy' in " + file + " is 'closed'");
    }

    @Test
    void accessValuesOfTheWrongTypeOrEmptyAreRejectedByName() {
        // SPEC IN-5
        assertThat(fixture.error("[channels.telegram]\nallowed_users = \"111\"\n"))
                .isEqualTo("'channels.telegram.allowed_users' in " + file + " must be a list of strings, not a string");
        assertThat(fixture.error("[channels.telegram]\nallowed_users = [111]\n"))
                .isEqualTo("'channels.telegram.allowed_users[0]' in " + file + " must be a string, not an integer");
        assertThat(fixture.error("[channels.telegram]\nrequire_mention = \"no\"\n"))
                .isEqualTo("'channels.telegram.require_mention' in " + file + " must be true or false, not a string");
        assertThat(fixture.error("[channels.telegram.accounts.a]\nallowed_groups = [\"-1\", \" \"]\n"))
                .isEqualTo("'channels.telegram.accounts.a.allowed_groups[1]' in " + file
                        + " is empty; list ids, or \"*\" for anyone");
        assertThat(fixture.error("[channels]\ntelegram = true\n"))
                .isEqualTo("'channels.telegram' in " + file + " must be a table ([channels.telegram]), not a boolean");
        assertThat(fixture.error("[channels.\"tele gram\"]\n"))
                .isEqualTo("'channels.tele gram' in " + file
                        + " is not a channel name; use only letters, digits, - and _");
        assertThat(fixture.error("[channels.\"\"]\n"))
                .isEqualTo("'channels.\"\"' in " + file + " is not a channel name; use only letters, digits, - and _");
        assertThat(fixture.error("[channels.telegram.accounts.\" \"]\n"))
                .isEqualTo("'channels.telegram.accounts.\" \"' in " + file + " is not an account id; name the account");
    }

    @Test
    void openWithoutAStarWarnsThatOnlyTheListedUsersGetIn() {
        // SPEC IN-5 (open admits anyone only with "*"; enforced at access time, said at load time)
        try (CapturedLogs logs = new CapturedLogs()) {
            ClawgateConfig config = fixture.load("""
                    [channels.telegram]
                    dm_policy = "open"
                    allowed_users = ["111"]
                    [channels.slack]
                    dm_policy = "open"
                    """);

            assertThat(config.channel("telegram").access().dmPolicy()).isEqualTo(DmPolicy.OPEN);
            assertThat(config.channel("telegram").access().allowedUsers()).containsExactly("111");
            assertThat(logs.lines())
                    .containsExactly(
                            "WARN [channels.telegram] in " + file
                                    + " has dm_policy = \"open\" without \"*\" in allowed_users, so it admits "
                                    + "only the listed users; add \"*\" to allowed_users to admit anyone",
                            "WARN [channels.slack] in " + file
                                    + " has dm_policy = \"open\" without \"*\" in allowed_users, so it admits "
                                    + "only the listed users (none are listed); add \"*\" to allowed_users to admit "
                                    + "anyone");
        }
    }

    @Test
    void openWithAStarAndOtherPoliciesLoadQuietly() {
        // SPEC IN-5
        try (CapturedLogs logs = new CapturedLogs()) {
            fixture.load("""
                    [channels.telegram]
                    dm_policy = "open"
                    allowed_users = ["*"]
                    [channels.telegram.accounts.a]
                    require_mention = false
                    [channels.slack]
                    dm_policy = "allowlist"
                    """);
            assertThat(logs.lines()).isEmpty();
        }
    }

    @Test
    void anAccountThatNarrowsAnOpenChannelIsWarnedAboutByItsOwnTable() {
        // SPEC IN-5 (per account)
        try (CapturedLogs logs = new CapturedLogs()) {
            ClawgateConfig config = fixture.load("""
                    [channels.telegram]
                    dm_policy = "open"
                    allowed_users = ["*"]
                    [channels.telegram.accounts.work]
                    allowed_users = ["42"]
                    """);

            assertThat(config.channel("telegram").accessFor("work").dmPolicy()).isEqualTo(DmPolicy.OPEN);
            assertThat(logs.lines())
                    .singleElement()
                    .asString()
                    .startsWith("WARN [channels.telegram.accounts.work] in " + file
                            + " has dm_policy = \"open\" without \"*\"");
        }
    }

    @Test
    void aChannelsOwnKeysReachItsOptionsAsStringsWithReferencesExpanded() {
        // SPEC IN-5, OP-6 (${VAR} in every string)
        ClawgateConfig config = loadWithTelegramKeys("""
                [channels.telegram]
                bot_token = "${TELEGRAM_BOT_TOKEN}"
                api_base = "http://127.0.0.1:${PORT}"
                poll_timeout_secs = 25
                webhook = false
                dm_policy = "allowlist"
                """, Map.of("TELEGRAM_BOT_TOKEN", "123:abc", "PORT", "8081"));

        ChannelSettings telegram = config.channel("telegram");
        assertThat(telegram.options())
                .isEqualTo(Map.of(
                        "bot_token",
                        "123:abc",
                        "api_base",
                        "http://127.0.0.1:8081",
                        "poll_timeout_secs",
                        "25",
                        "webhook",
                        "false"));
        assertThat(telegram.access().dmPolicy()).isEqualTo(DmPolicy.ALLOWLIST);
        assertThat(loadWithTelegramKeys("[channels.telegram]\n", Map.of())
                        .channel("telegram")
                        .options())
                .isEmpty();
    }

    @Test
    void anAccountMaySetTheChannelsOwnKeysAndOnlyWhatItSetsReachesItsOptions() {
        // SPEC IN-5 (per channel and account), CH-3 (several bots)
        ClawgateConfig config = loadWithTelegramKeys("""
                [channels.telegram]
                bot_token = "111:aaa"
                api_base = "http://127.0.0.1:9"

                [channels.telegram.accounts.support]
                bot_token = "${SUPPORT_TOKEN}"
                allowed_users = ["7"]
                """, Map.of("SUPPORT_TOKEN", "222:bbb"));

        ChannelSettings telegram = config.channel("telegram");
        assertThat(telegram.accountOptions()).isEqualTo(Map.of("support", Map.of("bot_token", "222:bbb")));
        assertThat(telegram.options()).containsEntry("bot_token", "111:aaa");
        assertThat(errorWithTelegramKeys("[channels.telegram.accounts.support]\nbot_tokn = \"1:a\"\n"))
                .startsWith("unknown key 'channels.telegram.accounts.support.bot_tokn'");
    }

    @Test
    void anUnsetVariableInAChannelKeyIsAnErrorThatNamesTheKeyNotTheSecret() {
        // SPEC OP-6
        assertThat(errorWithTelegramKeys("[channels.telegram]\nbot_token = \"${TELEGRAM_BOT_TOKEN}\"\n"))
                .isEqualTo("'channels.telegram.bot_token' in " + file
                        + " refers to ${TELEGRAM_BOT_TOKEN}, which is not set; "
                        + "set TELEGRAM_BOT_TOKEN in the environment or change the value");
        assertThat(errorWithTelegramKeys("[channels.telegram]\nbot_token = 123456\n"))
                .isEqualTo("'channels.telegram.bot_token' in " + file + " must be a string, not an integer")
                .doesNotContain("123456");
    }

    @Test
    void anUnknownKeyInsideAChannelTableSuggestsTheNearestKeyOfThatChannel() {
        // SPEC defaults table (nearest known key), IN-5
        assertThat(errorWithTelegramKeys("[channels.telegram]\nbot_tokn = \"x\"\n"))
                .isEqualTo("unknown key 'channels.telegram.bot_tokn' in " + file
                        + "; did you mean 'channels.telegram.bot_token'?");
        assertThat(errorWithTelegramKeys("[channels.telegram]\ndm_polcy = \"open\"\n"))
                .isEqualTo("unknown key 'channels.telegram.dm_polcy' in " + file
                        + "; did you mean 'channels.telegram.dm_policy'?");
        assertThat(errorWithTelegramKeys("[channels.telegram.accounts.work]\nallowed_user = [\"1\"]\n"))
                .endsWith("did you mean 'channels.telegram.accounts.work.allowed_users'?");
        assertThat(errorWithTelegramKeys("[channels.telegram]\nzzz = 1\n"))
                .isEqualTo("unknown key 'channels.telegram.zzz' in " + file
                        + "; valid keys in [channels.telegram]: dm_policy, "
                        + "allowed_users, group_policy, allowed_groups, require_mention, history_limit, "
                        + "reply_to_mode, response_prefix, "
                        + "block_streaming, accounts, "
                        + String.join(", ", TELEGRAM_KEYS.keysOf("telegram")));
    }

    @Test
    void anotherChannelsKeysAreUnknownAndAnAccountHasAccessKeysAndItsChannelsOwnOnly() {
        // SPEC IN-5
        assertThat(errorWithTelegramKeys("[channels.slack]\nbot_token = \"x\"\n"))
                .startsWith("unknown key 'channels.slack.bot_token' in " + file + ";");
        assertThat(errorWithTelegramKeys("[channels.slack.accounts.work]\nbot_token = \"x\"\n"))
                .startsWith("unknown key 'channels.slack.accounts.work.bot_token' in " + file + ";");
        assertThat(errorWithTelegramKeys("[channels.telegram.accounts.work]\nhistory_limit = 3\n"))
                .startsWith("unknown key 'channels.telegram.accounts.work.history_limit' in " + file + ";");
    }

    @Test
    void theDeclaredKeysAreListedForTheWiring() {
        // SPEC IN-5
        assertThat(TELEGRAM_KEYS.channels()).containsExactly("telegram");
        assertThat(TELEGRAM_KEYS.keysOf("telegram"))
                .isEqualTo(Set.of("bot_token", "api_base", "poll_timeout_secs", "webhook"));
        assertThat(TELEGRAM_KEYS.keysOf("slack")).isEmpty();
    }
}

package dev.clawgate.server.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.config.DmScope;
import dev.clawgate.core.config.DropPolicy;
import dev.clawgate.core.config.GroupScope;
import dev.clawgate.core.config.InboundSettings;
import dev.clawgate.core.config.QueueMode;
import dev.clawgate.core.config.QueueSettings;
import dev.clawgate.core.config.SessionSettings;
import dev.clawgate.core.config.ShellSandboxMode;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** gateway.owner, [session], [messages.*] and [inbox]: each key loads, defaults, and rejects bad values by name. */
class ConfigMessagesTest extends ConfigFileCase {
    @Test
    void absentKeysTakeTheSpecDefaults() {
        // SPEC defaults table, HI-1, IN-1, IN-2, IN-4, IN-5, IN-6, DI-3
        ClawgateConfig config = fixture.load("[messages]\n[session]\n[inbox]\n[gateway]\nowner = []\n");

        assertThat(config.gateway().owner()).isEmpty();
        assertThat(config.session()).isEqualTo(new SessionSettings(DmScope.PER_CHANNEL_PEER, GroupScope.SHARED));
        assertThat(config.inbound())
                .isEqualTo(new InboundSettings(0, Map.of(), Duration.ofMinutes(20), 50, Map.of(), Duration.ofHours(1)));
        assertThat(config.queue())
                .isEqualTo(new QueueSettings(QueueMode.STEER, Map.of(), 500, 20, DropPolicy.SUMMARIZE));
        assertThat(config.channels()).isEmpty();
    }

    @Test
    void everyMessagesKeySetInTheFileReachesTheConfig() {
        // SPEC IN-1, IN-2, IN-4, IN-6, DI-3, HI-1
        ClawgateConfig config = fixture.load("""
                [session]
                dm_scope = "per-peer"
                group_scope = "per-sender"

                [messages.inbound]
                debounce_ms = 800
                [messages.inbound.by_channel]
                telegram = 1500
                matrix = 0

                [messages.queue]
                mode = "collect"
                debounce_ms = 0
                cap = 7
                drop = "new"
                [messages.queue.by_channel]
                slack = "interrupt"

                [messages.dedupe]
                ttl_secs = 60

                [messages.group]
                history_limit = 0

                [channels.discord]
                history_limit = 5

                [inbox]
                max_age = "2h30m"
                """);

        assertThat(config.session()).isEqualTo(new SessionSettings(DmScope.PER_PEER, GroupScope.PER_SENDER));
        assertThat(config.inbound())
                .isEqualTo(new InboundSettings(
                        800,
                        Map.of("telegram", 1500L, "matrix", 0L),
                        Duration.ofSeconds(60),
                        0,
                        Map.of("discord", 5),
                        Duration.ofMinutes(150)));
        assertThat(config.inbound().debounceMsFor("telegram")).isEqualTo(1500);
        assertThat(config.inbound().debounceMsFor("matrix")).isZero();
        assertThat(config.inbound().debounceMsFor("irc")).isEqualTo(800);
        assertThat(config.inbound().groupHistoryLimitFor("discord")).isEqualTo(5);
        assertThat(config.inbound().groupHistoryLimitFor("telegram")).isZero();
        assertThat(config.queue())
                .isEqualTo(new QueueSettings(
                        QueueMode.COLLECT, Map.of("slack", QueueMode.INTERRUPT), 0, 7, DropPolicy.NEW));
        assertThat(config.queue().modeFor("slack")).isEqualTo(QueueMode.INTERRUPT);
        assertThat(config.queue().modeFor("telegram")).isEqualTo(QueueMode.COLLECT);
    }

    @Test
    void theOwnerIsAListOfChannelColonSenderIds() {
        // SPEC IN-5, MD-3 (a channel name ends at the first colon)
        ClawgateConfig config = fixture.load(
                "[gateway]\nowner = [\"telegram:123\", \"matrix:@ada:example.org\", \"${OWNER}\"]\n",
                Map.of("OWNER", "slack:U042"));

        assertThat(config.gateway().owner()).containsExactly("telegram:123", "matrix:@ada:example.org", "slack:U042");
        assertThat(config.gateway().isOwner("matrix", "@ada:example.org")).isTrue();
        assertThat(config.gateway().isOwner("telegram", "124")).isFalse();
    }

    @Test
    void anOwnerIdThatIsNotChannelColonSenderIsRejectedByIndex() {
        // SPEC IN-5
        for (String bad : List.of("123456", "telegram:", ":123", "tele gram:1", "telegram: 1", "telegram:  ")) {
            assertThat(fixture.error("[gateway]\nowner = [\"telegram:1\", \"" + bad + "\"]\n"))
                    .as(bad)
                    .isEqualTo(
                            "'gateway.owner[1]' in " + file + " must be channel:sender, e.g. \"telegram:123456789\"");
        }
        assertThat(fixture.error("[gateway]\nowner = \"telegram:1\"\n"))
                .isEqualTo("'gateway.owner' in " + file + " must be a list of strings, not a string");
    }

    @Test
    void theShellSandboxIsBwrapByDefaultNoneOnlyWhenSaidAndAnythingElseIsAnError() {
        // SPEC AG-8
        assertThat(fixture.load("# nothing set\n").tools().shellSandbox()).isEqualTo(ShellSandboxMode.BWRAP);
        assertThat(fixture.load("[tools]\nshell_sandbox = \"none\"\n").tools().shellSandbox())
                .isEqualTo(ShellSandboxMode.NONE);
        assertThat(fixture.load("[tools]\nshell_sandbox = \"bwrap\"\n").tools().shellSandbox())
                .isEqualTo(ShellSandboxMode.BWRAP);
        assertThat(fixture.error("[tools]\nshell_sandbox = \"off\"\n"))
                .isEqualTo("'tools.shell_sandbox' in " + file
                        + " is 'off', which is not a shell sandbox; use one of bwrap, none");
    }

    @Test
    void unknownSessionScopesNameTheKeyAndTheValidScopes() {
        // SPEC HI-1
        assertThat(fixture.error("[session]\ndm_scope = \"per-user\"\n"))
                .isEqualTo("'session.dm_scope' in " + file
                        + " is 'per-user', which is not a DM scope; use one of per-channel-peer, per-peer, main");
        assertThat(fixture.error("[session]\ngroup_scope = \"per_sender\"\n"))
                .isEqualTo("'session.group_scope' in " + file
                        + " is 'per_sender', which is not a group scope; use one of shared, per-sender");
        assertThat(fixture.load("[session]\ndm_scope = \"main\"\n").session().dmScope())
                .isEqualTo(DmScope.MAIN);
    }

    @Test
    void negativeWaitsAndLimitsAreRejectedByName() {
        // SPEC IN-1, IN-2, IN-6, DI-3
        assertThat(fixture.error("[messages.inbound]\ndebounce_ms = -1\n"))
                .isEqualTo("'messages.inbound.debounce_ms' in " + file + " must be at least 0, not -1");
        assertThat(fixture.error("[messages.inbound.by_channel]\ntelegram = -5\n"))
                .isEqualTo("'messages.inbound.by_channel.telegram' in " + file + " must be at least 0, not -5");
        assertThat(fixture.error("[messages.queue]\ndebounce_ms = -500\n"))
                .isEqualTo("'messages.queue.debounce_ms' in " + file + " must be at least 0, not -500");
        assertThat(fixture.error("[messages.dedupe]\nttl_secs = 0\n"))
                .isEqualTo("'messages.dedupe.ttl_secs' in " + file + " must be at least 1, not 0");
        assertThat(fixture.error("[messages.group]\nhistory_limit = -1\n"))
                .isEqualTo("'messages.group.history_limit' in " + file + " must be at least 0, not -1");
        assertThat(fixture.error("[channels.telegram]\nhistory_limit = -2\n"))
                .isEqualTo("'channels.telegram.history_limit' in " + file + " must be at least 0, not -2");
    }

    @Test
    void byChannelTablesHoldOneValueOfTheRightTypePerChannelName() {
        // SPEC IN-2, DI-3
        assertThat(fixture.error("[messages.inbound.by_channel]\ntelegram = \"1500\"\n"))
                .isEqualTo("'messages.inbound.by_channel.telegram' in " + file + " must be an integer, not a string");
        assertThat(fixture.error("[messages.queue.by_channel]\ntelegram = 1\n"))
                .isEqualTo("'messages.queue.by_channel.telegram' in " + file + " must be a string, not an integer");
        assertThat(fixture.error("[messages.inbound]\nby_channel = 5\n"))
                .isEqualTo("'messages.inbound.by_channel' in " + file
                        + " must be a table ([messages.inbound.by_channel]) of names to values, not an integer");
        assertThat(fixture.error("[messages.queue.by_channel]\n\"tele gram\" = \"steer\"\n"))
                .isEqualTo("'messages.queue.by_channel.tele gram' in " + file
                        + " is not a channel name; use only letters, digits, - and _");
    }

    @Test
    void aPerChannelQueueModeFollowsTheSameRulesAsTheGlobalOne() {
        // SPEC DI-3
        assertThat(fixture.error("[messages.queue.by_channel]\ntelegram = \"fifo\"\n"))
                .isEqualTo("'messages.queue.by_channel.telegram' in " + file
                        + " is 'fifo', which is not a queue mode; use one of steer, followup, collect, interrupt");
        try (CapturedLogs logs = new CapturedLogs()) {
            ClawgateConfig config =
                    fixture.load("[messages.queue.by_channel]\ntelegram = \"steer-backlog\"\nslack = \"followup\"\n");

            assertThat(config.queue().byChannel())
                    .isEqualTo(Map.of("telegram", QueueMode.STEER, "slack", QueueMode.FOLLOWUP));
            assertThat(logs.lines())
                    .singleElement()
                    .asString()
                    .isEqualTo("WARN messages.queue.by_channel.telegram in " + file
                            + " uses the retired queue mode 'steer-backlog'; it now means 'steer' (write "
                            + "telegram = \"steer\")");
        }
    }

    @Test
    void anUnknownDropPolicyNamesTheValidOnes() {
        // SPEC DI-3
        assertThat(fixture.error("[messages.queue]\ndrop = \"newest\"\n"))
                .isEqualTo("'messages.queue.drop' in " + file
                        + " is 'newest', which is not a drop policy; use one of summarize, old, new");
        assertThat(fixture.load("[messages.queue]\ndrop = \"old\"\n").queue().drop())
                .isEqualTo(DropPolicy.OLD);
    }

    @Test
    void inboxMaxAgeTakesSecondsOrADurationString() {
        // SPEC IN-4
        assertThat(fixture.load("[inbox]\nmax_age = 90\n").inbound().inboxMaxAge())
                .isEqualTo(Duration.ofSeconds(90));
        assertThat(fixture.load("[inbox]\nmax_age = \"30m\"\n").inbound().inboxMaxAge())
                .isEqualTo(Duration.ofMinutes(30));
        assertThat(fixture.load("[inbox]\nmax_age = \"${AGE}\"\n", Map.of("AGE", "1d"))
                        .inbound()
                        .inboxMaxAge())
                .isEqualTo(Duration.ofDays(1));
    }

    @Test
    void aBadInboxMaxAgeIsOneLineNamingTheKeyAndTheForm() {
        // SPEC IN-4
        assertThat(fixture.error("[inbox]\nmax_age = \"1 hour\"\n"))
                .isEqualTo("'inbox.max_age' in " + file + " has the unknown unit 'hour'; use d, h, m, s or ms");
        assertThat(fixture.error("[inbox]\nmax_age = \"90\"\n"))
                .isEqualTo(
                        "'inbox.max_age' in " + file + " has no unit; write \"90s\" (or the integer 90) for seconds");
        assertThat(fixture.error("[inbox]\nmax_age = 0\n"))
                .isEqualTo("'inbox.max_age' in " + file + " must be at least 1s");
        assertThat(fixture.error("[inbox]\nmax_age = \"500ms\"\n"))
                .isEqualTo("'inbox.max_age' in " + file + " must be at least 1s");
        assertThat(fixture.error("[inbox]\nmax_age = -3\n"))
                .isEqualTo("'inbox.max_age' in " + file + " must not be negative");
        assertThat(fixture.error("[inbox]\nmax_age = 1.5\n"))
                .isEqualTo("'inbox.max_age' in " + file
                        + " must be an integer number of seconds or a string like \"90s\", \"30m\", \"1h\", "
                        + "\"2h30m\", not a decimal number");
        assertThat(fixture.error("[inbox]\nmax_age = 9999999999999\n"))
                .isEqualTo("'inbox.max_age' in " + file + " is too long; use at most 3650d");
        assertThat(fixture.error("[inbox]\nmax_age = \"${AGE}\"\n"))
                .contains("'inbox.max_age'", "refers to ${AGE}, which is not set");
    }

    @Test
    void newStringValuesExpandReferences() {
        // SPEC OP-6, HI-1, DI-3, IN-5
        Map<String, String> env = Map.of("SCOPE", "main", "MODE", "interrupt", "DROP", "old", "USER", "42");
        ClawgateConfig config = fixture.load("""
                [session]
                dm_scope = "${SCOPE}"
                [messages.queue]
                drop = "${DROP}"
                [messages.queue.by_channel]
                telegram = "${MODE}"
                [channels.telegram]
                allowed_users = ["${USER}"]
                """, env);

        assertThat(config.session().dmScope()).isEqualTo(DmScope.MAIN);
        assertThat(config.queue().drop()).isEqualTo(DropPolicy.OLD);
        assertThat(config.queue().modeFor("telegram")).isEqualTo(QueueMode.INTERRUPT);
        assertThat(config.channel("telegram").access().allowedUsers()).containsExactly("42");
        assertThat(fixture.error("[messages.queue.by_channel]\ntelegram = \"${MODE}\"\n"))
                .contains("'messages.queue.by_channel.telegram'", "refers to ${MODE}, which is not set");
    }

    @Test
    void aMisspeltMessagesKeySuggestsTheNearest() {
        // SPEC defaults table, IN-1, IN-2, IN-4
        assertThat(fixture.error("[messages.inbound]\ndebounce = 5\n"))
                .isEqualTo("unknown key 'messages.inbound.debounce' in " + file
                        + "; did you mean 'messages.inbound.debounce_ms'?");
        assertThat(fixture.error("[messages.dedupe]\nttl_seconds = 5\n"))
                .endsWith("did you mean 'messages.dedupe.ttl_secs'?");
        assertThat(fixture.error("[inbox]\nmaxage = 5\n")).endsWith("did you mean 'inbox.max_age'?");
        assertThat(fixture.error("[messages.inbound]\nby_chanel = {}\n"))
                .endsWith("did you mean 'messages.inbound.by_channel'?");
    }
}

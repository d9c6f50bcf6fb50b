package dev.clawgate.core.internal.access;

import dev.clawgate.core.config.AccessSettings;
import dev.clawgate.core.config.AgentSettings;
import dev.clawgate.core.config.ChannelSettings;
import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.config.DispatchSettings;
import dev.clawgate.core.config.DmPolicy;
import dev.clawgate.core.config.GatewaySettings;
import dev.clawgate.core.config.GroupPolicy;
import dev.clawgate.core.config.HistorySettings;
import dev.clawgate.core.config.InboundSettings;
import dev.clawgate.core.config.QueueSettings;
import dev.clawgate.core.config.SessionSettings;
import dev.clawgate.core.config.ToolSettings;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** Configs, messages and a hand-moved clock for the access tests. */
final class AccessFixtures {

    static final String OWNER = "owner-1";

    private AccessFixtures() {}

    /** {@code "a,b"} as a list; blank is the empty list. */
    static List<String> list(String csv) {
        return csv == null || csv.isBlank()
                ? List.of()
                : Arrays.stream(csv.split(",")).map(String::strip).toList();
    }

    static AccessSettings dms(DmPolicy policy, String allowedUsers) {
        return new AccessSettings(policy, list(allowedUsers), GroupPolicy.ALLOWLIST, List.of(), true);
    }

    static AccessSettings groups(GroupPolicy policy, String allowedGroups, boolean requireMention) {
        return new AccessSettings(DmPolicy.PAIRING, List.of(), policy, list(allowedGroups), requireMention);
    }

    /**
     * A config whose {@code telegram} channel has {@code access}, with accounts overriding it, owned by
     * telegram:owner-1.
     */
    static ClawgateConfig config(AccessSettings access, Map<String, AccessSettings> accounts) {
        GatewaySettings gateway =
                new GatewaySettings(Path.of("data"), "127.0.0.1:8787", null, List.of("telegram:" + OWNER));
        return new ClawgateConfig(
                gateway,
                AgentSettings.defaults(),
                Map.of(),
                List.of(),
                HistorySettings.defaults(),
                ToolSettings.defaults(),
                DispatchSettings.defaults(),
                SessionSettings.defaults(),
                InboundSettings.defaults(),
                QueueSettings.defaults(),
                Map.of("telegram", new ChannelSettings("telegram", access, accounts, Map.of())));
    }

    static ClawgateConfig config(AccessSettings access) {
        return config(access, Map.of());
    }

    static InboundMessage dm(String channel, String account, String sender) {
        return new InboundMessage(
                "m-" + sender,
                channel,
                account,
                sender,
                null,
                "chat-" + sender,
                null,
                null,
                ChatType.DIRECT,
                false,
                Instant.EPOCH,
                "hello",
                List.of(),
                null);
    }

    static InboundMessage dm(String sender) {
        return dm("telegram", "default", sender);
    }

    static InboundMessage groupMessage(String channel, String group, String sender, boolean mentioned) {
        return new InboundMessage(
                "g-" + sender,
                channel,
                "default",
                sender,
                null,
                group,
                null,
                null,
                ChatType.GROUP,
                mentioned,
                Instant.EPOCH,
                "hello all",
                List.of(),
                null);
    }

    /** The decision's kind, for table-driven assertions. */
    static String kind(Decision d) {
        return switch (d) {
            case Decision.Admit a -> "admit";
            case Decision.Deny x -> "deny";
            case Decision.Buffer b -> "buffer";
            case Decision.Pair p -> "pair";
        };
    }

    /** A clock the test moves by hand, so codes expire without waiting. */
    static final class TestClock extends Clock {
        private volatile Instant now;

        TestClock(Instant start) {
            this.now = start;
        }

        void advance(Duration by) {
            now = now.plus(by);
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            throw new UnsupportedOperationException("the test clock is UTC only");
        }
    }
}

package dev.clawgate.channel.slack;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.channel.ChannelProbe;
import dev.clawgate.core.config.ChannelSettings;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code clawgate doctor}'s look at Slack (SPEC OP-4, CH-0): the settings of every account, then one {@code auth.test}
 * per app against its {@code api_base}, which tells a refused token from an unreachable API. No token appears in what
 * it reports.
 */
final class SlackProbe {
    static final Duration TIMEOUT = Duration.ofSeconds(10);

    private SlackProbe() {}

    static ChannelProbe probe(ChannelSettings settings) {
        List<SlackAccount> accounts;
        try {
            accounts = SlackSettings.accounts(settings);
        } catch (IllegalArgumentException e) {
            return ChannelProbe.problem(e.getMessage(), "set the key the message names in [channels.slack]");
        }
        var http = SlackApi.client();
        List<ChannelProbe.Finding> findings = new ArrayList<>();
        for (SlackAccount a : accounts)
            findings.add(authTest(new SlackApi(a.apiBase(), a.botToken(), http, TIMEOUT, Clock.systemUTC()), a));
        return new ChannelProbe(findings);
    }

    private static ChannelProbe.Finding authTest(SlackApi api, SlackAccount a) {
        String who = a.id().equals("default") ? "" : " (account " + a.id() + ")";
        String key = a.id().equals("default")
                ? "channels.slack.bot_token"
                : "channels.slack.accounts." + a.id() + ".bot_token";
        try {
            JsonNode me = api.call("auth.test", SlackApi.JSON.createObjectNode());
            return new ChannelProbe.Finding(
                    "bot " + me.path("user").asText("?") + " ("
                            + me.path("user_id").asText("?") + ") in workspace "
                            + me.path("team").asText("?") + " answers" + who,
                    null);
        } catch (SlackApiException e) {
            if (e.authRefused()) {
                return new ChannelProbe.Finding(
                        "Slack refused the bot token (" + e.error() + ")" + who,
                        "set " + key + " to the Bot User OAuth Token (xoxb-...) of the installed app");
            }
            if (e.reach() != SlackApiException.Reach.ANSWERED) {
                return new ChannelProbe.Finding(
                        "the Slack Web API at " + a.apiBase() + " is unreachable" + who + " ("
                                + api.redact(e.getMessage()) + ")",
                        "check channels.slack.api_base and that this machine can reach it (proxy, firewall, DNS)");
            }
            return new ChannelProbe.Finding(
                    "auth.test at " + a.apiBase() + " failed" + who + ": " + api.redact(e.getMessage()),
                    "check channels.slack.api_base: it must be Slack's Web API (default "
                            + SlackSettings.DEFAULT_API_BASE + ")");
        }
    }
}

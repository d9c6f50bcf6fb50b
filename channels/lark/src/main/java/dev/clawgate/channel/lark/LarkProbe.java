package dev.clawgate.channel.lark;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.channel.ChannelProbe;
import dev.clawgate.core.config.ChannelSettings;
import dev.clawgate.core.run.CancelToken;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code clawgate doctor}'s look at Lark (SPEC OP-4, CH-0): the settings, a tenant token (the app id and secret), then
 * {@code bot/v3/info} (the bot is enabled). No secret appears in what it reports.
 */
final class LarkProbe {
    private LarkProbe() {}

    static ChannelProbe probe(ChannelSettings settings) {
        LarkAccount a;
        try {
            a = LarkSettings.account(settings);
        } catch (IllegalArgumentException e) {
            return ChannelProbe.problem(e.getMessage(), "set the key the message names in [channels.lark]");
        }
        LarkApi api = new LarkApi(a, LarkApi.client(), Clock.systemUTC());
        List<ChannelProbe.Finding> findings = new ArrayList<>();
        try {
            api.token(true);
            JsonNode info = api.call("GET", "bot/v3/info", null, CancelToken.none());
            findings.add(new ChannelProbe.Finding(
                    "bot " + info.path("bot").path("app_name").asText("?") + " answers at " + a.apiBase(), null));
        } catch (LarkApiException e) {
            if (e.reach() != LarkApiException.Reach.ANSWERED) {
                findings.add(new ChannelProbe.Finding(
                        "the open platform at " + a.apiBase() + " is unreachable (" + e.getMessage() + ")",
                        "check channels.lark.api_base (https://open.feishu.cn for Feishu, "
                                + "https://open.larksuite.com for Lark) and that this machine can reach it"));
            } else {
                findings.add(new ChannelProbe.Finding(
                        "the open platform refused the app: " + e.getMessage(),
                        "check channels.lark.app_id and app_secret, and that the bot capability is enabled"));
            }
        }
        findings.add(new ChannelProbe.Finding(
                a.longConnection()
                        ? "events come over the long connection (choose it as the app's event subscription mode)"
                        : "events are taken at POST " + a.webhookPath()
                                + " (set it as the request URL of the app's event subscription)",
                null));
        return new ChannelProbe(findings);
    }
}

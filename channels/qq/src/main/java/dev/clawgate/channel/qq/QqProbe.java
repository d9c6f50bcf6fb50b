package dev.clawgate.channel.qq;

import dev.clawgate.core.channel.ChannelProbe;
import dev.clawgate.core.config.ChannelSettings;
import dev.clawgate.core.run.CancelToken;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code clawgate doctor}'s look at QQ (SPEC OP-4, CH-0): the settings, an access token (the AppID and secret), then
 * {@code GET /gateway} with it (the token is taken by the OpenAPI). No secret appears in what it reports.
 */
final class QqProbe {
    private QqProbe() {}

    static ChannelProbe probe(ChannelSettings settings) {
        QqAccount a;
        try {
            a = QqSettings.account(settings);
        } catch (IllegalArgumentException e) {
            return ChannelProbe.problem(e.getMessage(), "set the key the message names in [channels.qq]");
        }
        QqApi api = new QqApi(a, QqApi.client(), Clock.systemUTC());
        List<ChannelProbe.Finding> findings = new ArrayList<>();
        try {
            api.token(true);
        } catch (QqApiException e) {
            return ChannelProbe.problem(
                    "no access token from " + a.tokenUrl().getHost() + ": " + e.getMessage(),
                    e.reach() == QqApiException.Reach.ANSWERED
                            ? "check channels.qq.app_id and client_secret (q.qq.com, development settings)"
                            : "check channels.qq.token_url and that this machine can reach it");
        }
        findings.add(new ChannelProbe.Finding("an access token was issued for app " + a.appId(), null));
        try {
            api.call("GET", "/gateway", null, CancelToken.none());
            findings.add(new ChannelProbe.Finding("the OpenAPI at " + a.apiBase() + " takes the token", null));
        } catch (QqApiException e) {
            findings.add(new ChannelProbe.Finding(
                    "the OpenAPI at " + a.apiBase() + " did not answer GET /gateway: " + e.getMessage(),
                    "check channels.qq.api_base (and sandbox) and that this machine can reach it"));
        }
        if (a.webhook()) {
            findings.add(new ChannelProbe.Finding(
                    "callbacks are taken at POST " + a.webhookPath()
                            + " (set it as the bot's callback URL; its validation is answered)",
                    null));
        }
        return new ChannelProbe(findings);
    }
}

package dev.clawgate.channel.whatsapp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.channel.ChannelProbe;
import dev.clawgate.core.config.ChannelSettings;
import dev.clawgate.core.run.CancelToken;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code clawgate doctor}'s look at WhatsApp (SPEC OP-4, CH-0): the settings, then {@code GET
 * /{phone_number_id}?fields=display_phone_number,verified_name,quality_rating}, which tells a refused token from a
 * wrong phone number id from an unreachable API. No secret appears in what it reports.
 */
final class WhatsAppProbe {
    static final Duration TIMEOUT = Duration.ofSeconds(10);

    private WhatsAppProbe() {}

    static ChannelProbe probe(ChannelSettings settings) {
        WhatsAppAccount a;
        try {
            a = WhatsAppSettings.account(settings);
        } catch (IllegalArgumentException e) {
            return ChannelProbe.problem(e.getMessage(), "set the key the message names in [channels.whatsapp]");
        }
        GraphApi api = new GraphApi(a.apiBase(), a.accessToken(), GraphApi.client(), TIMEOUT);
        List<ChannelProbe.Finding> findings = new ArrayList<>();
        try {
            JsonNode n = api.get(
                    GraphApi.encode(a.phoneNumberId()) + "?fields=display_phone_number,verified_name,quality_rating",
                    CancelToken.none());
            findings.add(new ChannelProbe.Finding(
                    "phone number " + n.path("display_phone_number").asText("?") + " ("
                            + n.path("verified_name").asText("?") + ") answers",
                    null));
        } catch (GraphApiException e) {
            findings.add(finding(a, api, e));
        }
        // said, not failed: notifications work once subscribed, whatever answered the one-time check
        findings.add(new ChannelProbe.Finding(
                "notifications are taken at POST " + a.webhookPath()
                        + "; Meta's one-time "
                        + "subscription check (GET with hub.challenge) is not answered on that path yet",
                null));
        return new ChannelProbe(findings);
    }

    private static ChannelProbe.Finding finding(WhatsAppAccount a, GraphApi api, GraphApiException e) {
        if (e.authRefused()) {
            return new ChannelProbe.Finding(
                    "the Graph API refused the access token (error " + e.code() + ")",
                    "set channels.whatsapp.access_token to a System User token with whatsapp_business_messaging");
        }
        if (e.reach() != GraphApiException.Reach.ANSWERED) {
            return new ChannelProbe.Finding(
                    "the Graph API at " + a.apiBase() + " is unreachable (" + api.redact(e.getMessage()) + ")",
                    "check channels.whatsapp.api_base and that this machine can " + "reach it (proxy, firewall, DNS)");
        }
        return new ChannelProbe.Finding(
                "the Graph API does not know phone number id " + a.phoneNumberId() + ": " + api.redact(e.getMessage()),
                "set channels.whatsapp.phone_number_id to the id WhatsApp Manager "
                        + "shows under API Setup (not the phone number itself)");
    }
}

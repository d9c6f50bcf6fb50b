package dev.clawgate.channel.matrix;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.channel.ChannelProbe;
import dev.clawgate.core.config.ChannelSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code clawgate doctor}'s look at Matrix (SPEC OP-4, CH-0, CH-6): the settings, {@code whoami} (which tells a refused
 * token from an unreachable homeserver), then the joined rooms, naming those that are end-to-end encrypted: the bot
 * cannot read them yet. No token appears in what it reports.
 */
final class MatrixProbe {
    static final Duration TIMEOUT = Duration.ofSeconds(10);
    /** Rooms looked at for encryption, at most. */
    static final int MAX_ROOMS = 50;

    private MatrixProbe() {}

    static ChannelProbe probe(ChannelSettings settings) {
        MatrixAccount a;
        try {
            a = MatrixSettings.account(settings);
        } catch (IllegalArgumentException e) {
            return ChannelProbe.problem(e.getMessage(), "set the key the message names in [channels.matrix]");
        }
        MatrixApi api = new MatrixApi(a.homeserver(), a.accessToken(), MatrixApi.client(), TIMEOUT);
        List<ChannelProbe.Finding> findings = new ArrayList<>();
        String who;
        try {
            who = api.get("/_matrix/client/v3/account/whoami").path("user_id").asText("?");
        } catch (MatrixApiException e) {
            if (e.authRefused()) {
                return ChannelProbe.problem(
                        "the homeserver refused the access token (" + e.errcode() + ")",
                        "set channels.matrix.access_token to a valid access token of the bot's account");
            }
            if (e.reach() != MatrixApiException.Reach.ANSWERED) {
                return ChannelProbe.problem(
                        "the homeserver at " + a.homeserver() + " is unreachable (" + api.redact(e.getMessage()) + ")",
                        "check channels.matrix.homeserver and that this machine can reach it (proxy, firewall, DNS)");
            }
            return ChannelProbe.problem(
                    "whoami at " + a.homeserver() + " failed: " + api.redact(e.getMessage()),
                    "check channels.matrix.homeserver: it must be the client-server API base URL");
        }
        if (a.userId() != null && !a.userId().equals(who)) {
            findings.add(new ChannelProbe.Finding(
                    "the access token belongs to " + who + ", not " + a.userId(),
                    "set channels.matrix.user_id = \"" + who + "\" or use that account's token"));
        } else {
            findings.add(new ChannelProbe.Finding("bot " + who + " on " + a.homeserver() + " answers", null));
        }
        findings.add(encryption(api));
        return new ChannelProbe(findings);
    }

    /** SPEC CH-6: encrypted rooms are not supported; doctor names the joined ones that are. */
    private static ChannelProbe.Finding encryption(MatrixApi api) {
        List<String> encrypted = new ArrayList<>();
        int looked = 0;
        try {
            for (JsonNode room : api.get("/_matrix/client/v3/joined_rooms").path("joined_rooms")) {
                if (looked++ >= MAX_ROOMS) break;
                try {
                    api.get("/_matrix/client/v3/rooms/" + MatrixApi.seg(room.asText()) + "/state/m.room.encryption/");
                    encrypted.add(room.asText());
                } catch (MatrixApiException e) {
                    if (e.status() != 404) throw e;
                }
            }
        } catch (MatrixApiException e) {
            return new ChannelProbe.Finding(
                    "end-to-end encrypted rooms are not supported; the joined rooms could not be listed ("
                            + api.redact(e.getMessage()) + ")",
                    null);
        }
        if (encrypted.isEmpty()) {
            return new ChannelProbe.Finding(
                    "none of the " + Math.min(looked, MAX_ROOMS)
                            + " joined rooms is end-to-end encrypted "
                            + "(encrypted rooms are not supported: messages there get a notice)",
                    null);
        }
        return new ChannelProbe.Finding(
                "end-to-end encryption is not supported, and " + encrypted.size()
                        + " joined room(s) are encrypted: "
                        + String.join(", ", encrypted),
                "talk to the bot in rooms without encryption; messages in these get a notice and no answer");
    }
}

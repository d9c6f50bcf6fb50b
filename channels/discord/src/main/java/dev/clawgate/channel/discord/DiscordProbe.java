package dev.clawgate.channel.discord;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.channel.ChannelProbe;
import dev.clawgate.core.channel.socket.GatewaySocket;
import dev.clawgate.core.config.ChannelSettings;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code clawgate doctor}'s look at Discord (SPEC OP-4, CH-0, CH-5), per bot: the token ({@code GET /users/@me}),
 * whether the application has the Message Content intent (granted, limited, or absent: {@code GET /applications/@me}'s
 * flags), and the Gateway URL ({@code gateway_url}, or {@code GET /gateway/bot}), opened until its Hello. No token
 * appears in what it reports.
 */
final class DiscordProbe {
    static final Duration TIMEOUT = Duration.ofSeconds(10);
    static final int FLAG_MESSAGE_CONTENT = 1 << 18, FLAG_MESSAGE_CONTENT_LIMITED = 1 << 19;

    private DiscordProbe() {}

    static ChannelProbe probe(ChannelSettings settings) {
        List<DiscordAccount> accounts;
        try {
            accounts = DiscordSettings.accounts(settings);
        } catch (IllegalArgumentException e) {
            return ChannelProbe.problem(e.getMessage(), "set the key the message names in [channels.discord]");
        }
        HttpClient http = DiscordApi.client();
        List<ChannelProbe.Finding> findings = new ArrayList<>();
        for (DiscordAccount a : accounts) {
            DiscordApi api = new DiscordApi(a.apiBase(), a.botToken(), http, TIMEOUT, Duration.ofSeconds(5));
            String who = a.id().equals("default") ? "" : " (account " + a.id() + ")";
            String key = a.id().equals("default") ? "channels.discord" : "channels.discord.accounts." + a.id();
            ChannelProbe.Finding me = me(api, a, who, key);
            findings.add(me);
            if (!me.ok()) continue;
            findings.add(content(api, a, who, key));
            findings.add(gateway(api, http, a, who, key));
        }
        return new ChannelProbe(findings);
    }

    private static ChannelProbe.Finding me(DiscordApi api, DiscordAccount a, String who, String key) {
        try {
            JsonNode me = api.get("GET /users/@me", "/users/@me");
            return new ChannelProbe.Finding(
                    "bot " + me.path("username").asText("?") + " ("
                            + me.path("id").asText("?") + ") answers" + who,
                    null);
        } catch (DiscordApiException e) {
            if (e.authRefused()) {
                return new ChannelProbe.Finding(
                        "Discord refused the bot token (401)" + who,
                        "set " + key + ".bot_token to the bot's token (Developer Portal, Bot, Reset Token)");
            }
            if (e.reach() != DiscordApiException.Reach.ANSWERED) {
                return new ChannelProbe.Finding(
                        "the Discord API at " + a.apiBase() + " is unreachable" + who + " ("
                                + api.redact(e.getMessage())
                                + ")",
                        "check " + key + ".api_base and that this machine can reach it (proxy, firewall, DNS)");
            }
            return new ChannelProbe.Finding(
                    "GET /users/@me at " + a.apiBase() + " failed" + who + ": " + api.redact(e.getMessage()),
                    "check " + key + ".api_base: it must be Discord's HTTP API (default "
                            + DiscordSettings.DEFAULT_API_BASE + ")");
        }
    }

    /** The Message Content intent, as the application's flags say (SPEC CH-5: the "never answers" failure). */
    private static ChannelProbe.Finding content(DiscordApi api, DiscordAccount a, String who, String key) {
        try {
            int flags = api.get("GET /applications/@me", "/applications/@me")
                    .path("flags")
                    .asInt(0);
            String state = (flags & FLAG_MESSAGE_CONTENT) != 0
                    ? "granted"
                    : (flags & FLAG_MESSAGE_CONTENT_LIMITED) != 0
                            ? "limited (enabled in the Developer Portal, under 100 servers)"
                            : "absent";
            if (!state.equals("absent"))
                return new ChannelProbe.Finding("the Message Content intent is " + state + who, null);
            if (!a.messageContent()) {
                return new ChannelProbe.Finding(
                        "the Message Content intent is absent and message_content = false" + who
                                + ": only DMs and mentions carry content",
                        null);
            }
            return new ChannelProbe.Finding(
                    "the Message Content intent is absent" + who
                            + ": the Gateway will close with 4014 "
                            + "(Disallowed intents) and the bot will never answer",
                    "enable \"Message Content Intent\" in the Developer Portal "
                            + "(Bot, Privileged Gateway Intents), or set " + key
                            + ".message_content = false and keep require_mention = true "
                            + "(DMs and mentions still carry content)");
        } catch (DiscordApiException e) {
            return new ChannelProbe.Finding(
                    "could not read the application's flags" + who + ": " + api.redact(e.getMessage()),
                    "check that " + key + ".bot_token belongs to a bot application");
        }
    }

    private static ChannelProbe.Finding gateway(
            DiscordApi api, HttpClient http, DiscordAccount a, String who, String key) {
        URI url;
        try {
            url = a.gatewayUrl() != null
                    ? a.gatewayUrl()
                    : URI.create(api.get("GET /gateway/bot", "/gateway/bot")
                            .path("url")
                            .asText(""));
        } catch (DiscordApiException | IllegalArgumentException e) {
            return new ChannelProbe.Finding(
                    "GET /gateway/bot failed" + who + ": " + api.redact(e.getMessage()), "check " + key + ".api_base");
        }
        try {
            GatewaySocket c = GatewayClient.open(
                    http,
                    URI.create(url.toString().replaceAll("\\?.*$", "")
                            + (url.getPath() == null || url.getPath().isEmpty() ? "/" : "") + "?v=10&encoding=json"),
                    api::redact);
            try {
                GatewaySocket.Frame hello = c.next(TIMEOUT);
                if (hello != null && hello.op() == 10)
                    return new ChannelProbe.Finding("the Gateway at " + url + " answers" + who, null);
                return new ChannelProbe.Finding(
                        "the Gateway at " + url + " did not say Hello" + who, "check " + key + ".gateway_url");
            } finally {
                c.close(1000, "doctor");
            }
        } catch (IOException e) {
            return new ChannelProbe.Finding(
                    "the Gateway at " + url + " is unreachable" + who + " (" + api.redact(e.getMessage()) + ")",
                    "check " + key + ".gateway_url and that this machine can open WebSockets to it");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new ChannelProbe.Finding("the Gateway check was interrupted" + who, "run doctor again");
        }
    }
}

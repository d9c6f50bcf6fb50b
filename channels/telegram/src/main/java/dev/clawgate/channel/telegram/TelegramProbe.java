package dev.clawgate.channel.telegram;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clawgate.core.channel.ChannelProbe;
import dev.clawgate.core.config.ChannelSettings;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code clawgate doctor}'s look at Telegram (SPEC OP-4, CH-0): the settings of every account, then one {@code getMe}
 * per bot against its {@code api_base}, which proves the token and the route. The token never appears in what it
 * reports.
 */
final class TelegramProbe {
    private static final ObjectMapper JSON = new ObjectMapper();
    static final Duration TIMEOUT = Duration.ofSeconds(10);

    private TelegramProbe() {}

    static ChannelProbe probe(ChannelSettings settings) {
        List<TelegramAccount> accounts;
        try {
            accounts = TelegramSettings.accounts(settings);
        } catch (IllegalArgumentException e) {
            return ChannelProbe.problem(e.getMessage(), "set the key the message names in [channels.telegram]");
        }
        HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
        List<ChannelProbe.Finding> findings = new ArrayList<>();
        for (TelegramAccount a : accounts) findings.add(getMe(http, a));
        return new ChannelProbe(findings);
    }

    private static ChannelProbe.Finding getMe(HttpClient http, TelegramAccount a) {
        String who = a.id().equals("default") ? "" : " (account " + a.id() + ")";
        String key = a.id().equals("default")
                ? "channels.telegram.bot_token"
                : "channels.telegram.accounts." + a.id() + ".bot_token";
        HttpRequest request = HttpRequest.newBuilder(URI.create(a.apiBase() + "/bot" + a.botToken() + "/getMe"))
                .timeout(TIMEOUT)
                .GET()
                .build();
        HttpResponse<String> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            return new ChannelProbe.Finding(
                    "the Bot API at " + a.apiBase() + " is unreachable" + who + " ("
                            + e.getClass().getSimpleName() + ")",
                    "check channels.telegram.api_base and that this machine can reach it (proxy, firewall, DNS)");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new ChannelProbe.Finding(
                    "the check of the Bot API was interrupted" + who, "run clawgate doctor again");
        }
        if (response.statusCode() == 401 || response.statusCode() == 404) {
            // the Bot API answers an unknown token with 401, and some proxies with 404
            return new ChannelProbe.Finding(
                    "the bot token was refused (" + response.statusCode() + ")" + who,
                    "set " + key + " to the token @BotFather gave you (it looks like 123456789:AA...)");
        }
        JsonNode body;
        try {
            body = JSON.readTree(response.body());
        } catch (IOException e) {
            body = null;
        }
        if (response.statusCode() != 200 || body == null || !body.path("ok").asBoolean(false)) {
            return new ChannelProbe.Finding(
                    "the Bot API at " + a.apiBase() + " answered HTTP " + response.statusCode() + who,
                    "check channels.telegram.api_base: it must be a Telegram Bot API server (default "
                            + "https://api.telegram.org)");
        }
        return new ChannelProbe.Finding(
                "bot @" + body.path("result").path("username").asText("?") + " answers" + who, null);
    }
}

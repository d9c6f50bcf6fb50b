package dev.clawgate.channel.qq;

import dev.clawgate.core.config.ChannelSettings;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Map;

/** Reads {@code [channels.qq]} (SPEC CH-13); every error starts with the key's full path. */
final class QqSettings {
    static final String DEFAULT_API_BASE = "https://api.sgroup.qq.com";
    /** The sandbox environment's OpenAPI root, used when {@code sandbox = true} and {@code api_base} is not set. */
    static final String SANDBOX_API_BASE = "https://sandbox.api.sgroup.qq.com";

    static final String DEFAULT_TOKEN_URL = "https://bots.qq.com/app/getAppAccessToken";
    static final String DEFAULT_PATH = "/webhooks/qq";
    private static final String P = "channels.qq.";

    private QqSettings() {}

    static QqAccount account(ChannelSettings settings) {
        return read(settings.options(), true);
    }

    static void check(ChannelSettings settings) {
        read(settings.options(), false);
    }

    private static QqAccount read(Map<String, String> o, boolean complete) {
        String mode = o.getOrDefault("mode", "websocket").strip().toLowerCase(Locale.ROOT);
        if (!mode.equals("websocket") && !mode.equals("webhook")) {
            throw new IllegalArgumentException(
                    P + "mode must be \"websocket\" or \"webhook\", got \"" + o.get("mode") + "\"");
        }
        String appId = required(o, "app_id", complete, "the bot's AppID (q.qq.com, development settings)");
        String secret = required(
                o, "client_secret", complete, "the bot's AppSecret, e.g. client_secret = \"${QQ_CLIENT_SECRET}\"");
        boolean sandbox = bool(o, "sandbox", false);
        URI apiBase = url(o.getOrDefault("api_base", sandbox ? SANDBOX_API_BASE : DEFAULT_API_BASE), "api_base");
        URI tokenUrl = url(o.getOrDefault("token_url", DEFAULT_TOKEN_URL), "token_url");
        String gw = o.get("gateway_url");
        URI gatewayUrl = gw == null || gw.isBlank() ? null : ws(gw.strip());
        String path = o.getOrDefault("webhook_path", DEFAULT_PATH).strip();
        if (!path.startsWith("/") || path.contains("?") || path.contains(" ")) {
            throw new IllegalArgumentException(P + "webhook_path must be an absolute URL path such as " + DEFAULT_PATH);
        }
        String stream = o.getOrDefault("stream_mode", "off").strip().toLowerCase(Locale.ROOT);
        if (!stream.equals("off")) {
            throw new IllegalArgumentException(P + "stream_mode must be \"off\": QQ messages cannot be edited, so "
                    + "there is no live preview, got \"" + o.get("stream_mode") + "\"");
        }
        boolean reactions = bool(o, "ack_reactions", false);
        if (reactions) {
            throw new IllegalArgumentException(
                    P + "ack_reactions must be false: the bot API has no reactions on " + "group or direct messages");
        }
        int limit;
        try {
            limit = Integer.parseInt(o.getOrDefault("text_limit", String.valueOf(QqAccount.DEFAULT_TEXT))
                    .strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    P + "text_limit must be a whole number, got \"" + o.get("text_limit") + "\"");
        }
        if (limit < 16 || limit > QqAccount.MAX_TEXT) {
            throw new IllegalArgumentException(
                    P + "text_limit must be between 16 and " + QqAccount.MAX_TEXT + ", got " + limit);
        }
        return new QqAccount(
                appId,
                secret,
                mode.equals("webhook"),
                apiBase,
                tokenUrl,
                gatewayUrl,
                path,
                sandbox,
                reactions,
                limit,
                QqAccount.CALL_TIMEOUT);
    }

    private static String required(Map<String, String> o, String key, boolean complete, String what) {
        String v = o.get(key);
        if (v == null || v.isBlank()) {
            if (complete) throw new IllegalArgumentException(P + key + " is missing; set " + what);
            return null;
        }
        return v.strip();
    }

    private static boolean bool(Map<String, String> o, String key, boolean fallback) {
        String v = o.get(key);
        if (v == null) return fallback;
        return switch (v.strip().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException(P + key + " must be true or false, got \"" + v + "\"");
        };
    }

    private static URI url(String raw, String key) {
        try {
            URI u = new URI(raw.strip().replaceAll("/+$", ""));
            String s = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
            if ((s.equals("http") || s.equals("https")) && u.getHost() != null) return u;
        } catch (URISyntaxException bad) {
            // reported below
        }
        throw new IllegalArgumentException(P + key + " must be an http(s) URL with a host, got \"" + raw + "\"");
    }

    private static URI ws(String raw) {
        try {
            URI u = new URI(raw);
            String s = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
            if ((s.equals("ws") || s.equals("wss")) && u.getHost() != null) return u;
        } catch (URISyntaxException bad) {
            // reported below
        }
        throw new IllegalArgumentException(P + "gateway_url must be a ws(s) URL with a host, got \"" + raw + "\"");
    }
}

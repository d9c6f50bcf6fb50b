package dev.clawgate.channel.lark;

import dev.clawgate.core.config.ChannelSettings;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Map;

/** Reads {@code [channels.lark]} (SPEC CH-11); every error starts with the key's full path. */
final class LarkSettings {
    static final String DEFAULT_API_BASE = "https://open.feishu.cn";
    static final String LARK_API_BASE = "https://open.larksuite.com";
    static final String DEFAULT_PATH = "/webhooks/lark";
    static final String DEFAULT_MODE = "websocket";
    private static final String P = "channels.lark.";

    private LarkSettings() {}

    static LarkAccount account(ChannelSettings settings) {
        return read(settings.options(), true);
    }

    static void check(ChannelSettings settings) {
        read(settings.options(), false);
    }

    private static LarkAccount read(Map<String, String> o, boolean complete) {
        String mode = o.getOrDefault("mode", DEFAULT_MODE).strip().toLowerCase(Locale.ROOT);
        if (!mode.equals("webhook") && !mode.equals("websocket")) {
            throw new IllegalArgumentException(P + "mode must be \"websocket\" (the long connection, no public URL) "
                    + "or \"webhook\" (HTTP event subscription at webhook_path), got \"" + o.get("mode") + "\"");
        }
        String appId = required(
                o,
                "app_id",
                complete,
                "the app's App ID (Credentials & Basic Info), " + "e.g. app_id = \"cli_a1b2c3d4e5f6\"");
        String secret = required(
                o, "app_secret", complete, "the app's App Secret, " + "e.g. app_secret = \"${LARK_APP_SECRET}\"");
        // the long connection is opened with the app secret; only pushes to a public URL need the token
        String verification = required(
                o,
                "verification_token",
                complete && mode.equals("webhook"),
                "the Verification Token of the app's "
                        + "Events & Callbacks page, e.g. verification_token = \"${LARK_VERIFICATION_TOKEN}\"");
        String encrypt = o.get("encrypt_key");
        encrypt = encrypt == null || encrypt.isBlank() ? null : encrypt.strip();
        URI apiBase = url(o.getOrDefault("api_base", DEFAULT_API_BASE));
        String path = o.getOrDefault("webhook_path", DEFAULT_PATH).strip();
        if (!path.startsWith("/") || path.contains("?") || path.contains(" ")) {
            throw new IllegalArgumentException(P + "webhook_path must be an absolute URL path such as " + DEFAULT_PATH);
        }
        String stream = o.getOrDefault("stream_mode", "off").strip().toLowerCase(Locale.ROOT);
        if (!stream.equals("off") && !stream.equals("preview")) {
            throw new IllegalArgumentException(P + "stream_mode must be \"off\" or \"preview\" (a draft edited "
                    + "while the reply is generated), got \"" + o.get("stream_mode") + "\"");
        }
        int limit = integer(o, "text_limit", LarkAccount.DEFAULT_TEXT);
        if (limit < 16 || limit > LarkAccount.MAX_TEXT) {
            throw new IllegalArgumentException(
                    P + "text_limit must be between 16 and " + LarkAccount.MAX_TEXT + ", got " + limit);
        }
        String reactions = o.getOrDefault("ack_reactions", "false").strip().toLowerCase(Locale.ROOT);
        if (!reactions.equals("true") && !reactions.equals("false")) {
            throw new IllegalArgumentException(
                    P + "ack_reactions must be true or false, got \"" + o.get("ack_reactions") + "\"");
        }
        return new LarkAccount(
                appId,
                secret,
                mode,
                apiBase,
                path,
                verification,
                encrypt,
                stream.equals("preview"),
                reactions.equals("true"),
                limit,
                LarkAccount.CALL_TIMEOUT);
    }

    private static String required(Map<String, String> o, String key, boolean complete, String what) {
        String v = o.get(key);
        v = v == null || v.isBlank() ? null : v.strip();
        // the value may be a secret: never repeated in an error
        if (v == null && complete) throw new IllegalArgumentException(P + key + " is missing; set " + what);
        return v;
    }

    private static int integer(Map<String, String> o, String key, int fallback) {
        String v = o.get(key);
        if (v == null) return fallback;
        try {
            return Integer.parseInt(v.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(P + key + " must be a whole number, got \"" + v + "\"");
        }
    }

    private static URI url(String raw) {
        try {
            URI u = new URI(raw.strip().replaceAll("/+$", ""));
            String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
            if ((scheme.equals("http") || scheme.equals("https")) && u.getHost() != null) return u;
        } catch (URISyntaxException bad) {
            // reported below
        }
        throw new IllegalArgumentException(P + "api_base must be an http(s) URL with a host, such as "
                + DEFAULT_API_BASE + " (Feishu) or " + LARK_API_BASE + " (Lark), got \"" + raw + "\"");
    }
}

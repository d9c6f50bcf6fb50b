package dev.clawgate.channel.whatsapp;

import dev.clawgate.core.config.ChannelSettings;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Map;

/** Reads {@code [channels.whatsapp]} (SPEC CH-12); every error starts with the key's full path. */
final class WhatsAppSettings {
    static final String DEFAULT_API_BASE = "https://graph.facebook.com/v21.0";
    static final String DEFAULT_PATH = "/webhooks/whatsapp";
    private static final String P = "channels.whatsapp.";

    private WhatsAppSettings() {}

    /** The account, complete: a missing credential is an error naming its key. */
    static WhatsAppAccount account(ChannelSettings settings) {
        return read(settings.options(), true);
    }

    /** Checks the values set; missing credentials are left to {@code run} and {@code doctor}. */
    static void check(ChannelSettings settings) {
        read(settings.options(), false);
    }

    private static WhatsAppAccount read(Map<String, String> o, boolean complete) {
        String token = required(
                o,
                "access_token",
                complete,
                "the Graph API token of a System User with "
                        + "whatsapp_business_messaging, e.g. access_token = \"${WHATSAPP_ACCESS_TOKEN}\"");
        String phone = required(
                o,
                "phone_number_id",
                complete,
                "the business phone number's id from WhatsApp Manager "
                        + "(API Setup), e.g. phone_number_id = \"106540352242922\"");
        if (phone != null && !phone.matches("\\d{1,32}")) {
            throw new IllegalArgumentException(P + "phone_number_id must be the number's Graph id (digits only), "
                    + "not the "
                    + "phone number itself");
        }
        String secret = required(
                o,
                "app_secret",
                complete,
                "the Meta app's secret (App settings, Basic): it verifies "
                        + "X-Hub-Signature-256, e.g. app_secret = \"${WHATSAPP_APP_SECRET}\"");
        String verify = required(
                o,
                "verify_token",
                complete,
                "any string you also enter in the app's webhook settings, "
                        + "e.g. verify_token = \"${WHATSAPP_VERIFY_TOKEN}\"");
        URI apiBase = url(o.getOrDefault("api_base", DEFAULT_API_BASE));
        String path = o.getOrDefault("webhook_path", DEFAULT_PATH).strip();
        if (!path.startsWith("/") || path.contains("?") || path.contains(" ")) {
            throw new IllegalArgumentException(P + "webhook_path must be an absolute URL path such as " + DEFAULT_PATH);
        }
        int limit = integer(o, "text_limit", WhatsAppAccount.MAX_TEXT);
        if (limit < 16 || limit > WhatsAppAccount.MAX_TEXT) {
            throw new IllegalArgumentException(
                    P + "text_limit must be between 16 and " + WhatsAppAccount.MAX_TEXT + ", got " + limit);
        }
        String reactions = o.getOrDefault("ack_reactions", "false").strip().toLowerCase(Locale.ROOT);
        if (!reactions.equals("true") && !reactions.equals("false")) {
            throw new IllegalArgumentException(
                    P + "ack_reactions must be true or false, got \"" + o.get("ack_reactions") + "\"");
        }
        return new WhatsAppAccount(
                token,
                phone,
                secret,
                verify,
                apiBase,
                path,
                limit,
                reactions.equals("true"),
                WhatsAppAccount.CALL_TIMEOUT);
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
        throw new IllegalArgumentException(P + "api_base must be an http(s) URL with a host and the API version, "
                + "such as "
                + DEFAULT_API_BASE + ", got \"" + raw + "\"");
    }
}

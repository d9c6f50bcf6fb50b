package dev.clawgate.channel.webhook;

import dev.clawgate.core.config.ChannelSettings;
import dev.clawgate.core.render.ChunkLimits;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * {@code [channels.webhook]}: where the platform posts ({@code path}), the shared HMAC secret both directions sign with
 * ({@code secret}), where replies go ({@code callback_url}), and whether the platform answers lookups of replies by
 * idempotency key ({@code reconcile}, SPEC OUT-7), and how long one reply message may be ({@code text_limit}, SPEC
 * OUT-1: 4000 by default).
 */
public record WebhookChannelSettings(String path, String secret, String callbackUrl, boolean reconcile, int textLimit) {
    public static final String DEFAULT_PATH = "/webhooks/generic";
    /** SPEC OUT-1: the default limit of a channel that does not name its own. */
    public static final int DEFAULT_TEXT_LIMIT = 4000;
    /** The largest {@code text_limit}: a platform taking more can take it in several messages. */
    public static final int MAX_TEXT_LIMIT = 100_000;
    /** Shorter secrets are guessable; 16 characters is what common platforms hand out at least. */
    static final int MIN_SECRET_LENGTH = 16;

    public WebhookChannelSettings {
        path = path == null || path.isBlank() ? DEFAULT_PATH : path.strip();
        if (!path.startsWith("/") || path.contains("?") || path.contains("#") || path.contains(" ")) {
            throw new IllegalArgumentException("channels.webhook.path must be an absolute URL path such as "
                    + DEFAULT_PATH + ", got '" + path + "'");
        }
        if (secret == null || secret.isBlank()) {
            throw new IllegalArgumentException(
                    "channels.webhook.secret is missing; set the secret the platform signs with, "
                            + "e.g. secret = \"${CLAWGATE_WEBHOOK_SECRET}\"");
        }
        if (secret.length() < MIN_SECRET_LENGTH) {
            throw new IllegalArgumentException(
                    "channels.webhook.secret is too short; use at least " + MIN_SECRET_LENGTH + " characters");
        }
        if (textLimit < ChunkLimits.MIN_UNITS || textLimit > MAX_TEXT_LIMIT) {
            throw new IllegalArgumentException("channels.webhook.text_limit must be between " + ChunkLimits.MIN_UNITS
                    + " and " + MAX_TEXT_LIMIT + ", got " + textLimit);
        }
        Objects.requireNonNull(callbackUrl, "callbackUrl");
        callbackUrl = checkedCallback(callbackUrl.strip());
    }

    public WebhookChannelSettings(String path, String secret, String callbackUrl, boolean reconcile) {
        this(path, secret, callbackUrl, reconcile, DEFAULT_TEXT_LIMIT);
    }

    public WebhookChannelSettings(String path, String secret, String callbackUrl) {
        this(path, secret, callbackUrl, false);
    }

    /**
     * Reads the channel's own keys: {@code path} (optional), {@code secret}, {@code callback_url}, {@code reconcile}
     * and {@code text_limit} (optional).
     */
    public static WebhookChannelSettings from(ChannelSettings settings) {
        Map<String, String> o = settings.options();
        String callback = o.get("callback_url");
        if (callback == null || callback.isBlank()) {
            throw new IllegalArgumentException(
                    "channels." + settings.name() + ".callback_url is missing; " + "set the URL replies are posted to");
        }
        return new WebhookChannelSettings(
                o.get("path"),
                o.get("secret"),
                callback,
                flag(settings.name(), "reconcile", o.get("reconcile")),
                integer(settings.name(), "text_limit", o.get("text_limit"), DEFAULT_TEXT_LIMIT));
    }

    private static int integer(String channel, String key, String value, int otherwise) {
        if (value == null || value.isBlank()) return otherwise;
        try {
            return Integer.parseInt(value.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "channels." + channel + "." + key + " must be an integer, got '" + value + "'");
        }
    }

    private static boolean flag(String channel, String key, String value) {
        if (value == null || value.isBlank()) return false;
        return switch (value.strip().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default ->
                throw new IllegalArgumentException(
                        "channels." + channel + "." + key + " must be true or false, got '" + value + "'");
        };
    }

    private static String checkedCallback(String url) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("channels.webhook.callback_url is not a URL: " + e.getReason());
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null) {
            throw new IllegalArgumentException(
                    "channels.webhook.callback_url must be an http or https URL with a host");
        }
        return url;
    }

    /** Never shows the secret or the callback's query (it may carry a token). */
    @Override
    public String toString() {
        URI uri = URI.create(callbackUrl);
        return "WebhookChannelSettings[path=" + path + ", secret=***, callbackUrl=" + uri.getScheme() + "://"
                + uri.getRawAuthority() + (uri.getRawPath() == null ? "" : uri.getRawPath()) + ", reconcile="
                + reconcile + ", textLimit=" + textLimit + "]";
    }
}

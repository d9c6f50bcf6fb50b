package dev.clawgate.channel.matrix;

import dev.clawgate.core.config.ChannelSettings;
import dev.clawgate.core.model.InboundMessage;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Map;

/** Reads {@code [channels.matrix]}: one bot login (SPEC CH-6, OP-4). Every error starts with the key's path. */
final class MatrixSettings {
    private static final String PREFIX = "channels.matrix";

    private MatrixSettings() {}

    /** The account, complete: a missing {@code homeserver} or {@code access_token} is an error naming the key. */
    static MatrixAccount account(ChannelSettings settings) {
        return read(settings, true);
    }

    /** Checks the values set; missing credentials are left to {@code run} and {@code doctor}. */
    static void check(ChannelSettings settings) {
        read(settings, false);
    }

    private static MatrixAccount read(ChannelSettings settings, boolean complete) {
        if (!settings.accountOptions().isEmpty()) {
            throw new IllegalArgumentException(PREFIX + ".accounts: one Matrix login per gateway is supported; "
                    + "set homeserver, access_token and user_id in [channels.matrix]");
        }
        Map<String, String> o = settings.options();
        String raw = trimmed(o.get("homeserver"));
        if (complete && raw == null) {
            throw new IllegalArgumentException(PREFIX + ".homeserver is missing; set the client-server API base URL, "
                    + "e.g. homeserver = \"https://matrix.example.org\"");
        }
        URI homeserver = raw == null ? null : url(raw);
        String token = trimmed(o.get("access_token"));
        if (complete && token == null) {
            throw new IllegalArgumentException(PREFIX + ".access_token is missing; set the bot's access token, "
                    + "e.g. access_token = \"${MATRIX_ACCESS_TOKEN}\"");
        }
        if (token != null && token.chars().anyMatch(c -> c <= ' ' || c > '~')) {
            // the value is a secret: never repeated in the error
            throw new IllegalArgumentException(
                    PREFIX + ".access_token holds spaces or control characters; copy the token exactly");
        }
        String userId = trimmed(o.get("user_id"));
        if (userId != null && !userId.matches("@[^:\\s]+:\\S+")) {
            throw new IllegalArgumentException(
                    PREFIX + ".user_id must look like @bot:example.org, got \"" + userId + "\"");
        }
        MatrixAccount.AutoJoin autoJoin =
                switch (o.getOrDefault("auto_join", "always").strip().toLowerCase(Locale.ROOT)) {
                    case "always" -> MatrixAccount.AutoJoin.ALWAYS;
                    case "allowlist" -> MatrixAccount.AutoJoin.ALLOWLIST;
                    case "off" -> MatrixAccount.AutoJoin.OFF;
                    default ->
                        throw new IllegalArgumentException(PREFIX
                                + ".auto_join must be \"always\", \"allowlist\" or \"off\", got \""
                                + o.get("auto_join") + "\"");
                };
        boolean preview = switch (o.getOrDefault("stream_mode", "off").strip()) {
            case "off" -> false;
            case "preview" -> true;
            default ->
                throw new IllegalArgumentException(
                        PREFIX + ".stream_mode must be \"off\" or \"preview\", got \"" + o.get("stream_mode") + "\"");
        };
        String reactions = o.getOrDefault("ack_reactions", "false").strip().toLowerCase(Locale.ROOT);
        if (!reactions.equals("true") && !reactions.equals("false")) {
            throw new IllegalArgumentException(
                    PREFIX + ".ack_reactions must be true or false, got \"" + o.get("ack_reactions") + "\"");
        }
        int limit = integer(o.get("text_limit"));
        if (limit < 16 || limit > MatrixAccount.MAX_TEXT) {
            throw new IllegalArgumentException(
                    PREFIX + ".text_limit must be between 16 and " + MatrixAccount.MAX_TEXT + ", got " + limit);
        }
        var access = settings.accessFor(InboundMessage.DEFAULT_ACCOUNT);
        return new MatrixAccount(
                InboundMessage.DEFAULT_ACCOUNT,
                homeserver,
                token,
                userId,
                autoJoin,
                access.allowedUsers(),
                access.allowedGroups(),
                preview,
                reactions.equals("true"),
                limit,
                MatrixAccount.CALL_TIMEOUT);
    }

    private static String trimmed(String v) {
        return v == null || v.isBlank() ? null : v.strip();
    }

    private static int integer(String v) {
        if (v == null) return MatrixAccount.DEFAULT_TEXT;
        try {
            return Integer.parseInt(v.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(PREFIX + ".text_limit must be a whole number, got \"" + v + "\"");
        }
    }

    private static URI url(String raw) {
        try {
            URI u = new URI(raw.replaceAll("/+$", ""));
            String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
            if ((scheme.equals("http") || scheme.equals("https")) && u.getHost() != null) return u;
        } catch (URISyntaxException bad) {
            // reported below
        }
        throw new IllegalArgumentException(
                PREFIX + ".homeserver must be an http(s) URL with a host, got \"" + raw + "\"");
    }
}

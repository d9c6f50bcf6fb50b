package dev.clawgate.provider.internal;

import java.util.regex.Pattern;

/** Takes keys and tokens out of text that may reach a log or a user (SPEC HI-6). */
public final class SecretRedactor {
    private static final int MAX_LENGTH = 300;
    private static final Pattern BEARER = Pattern.compile("(?i)bearer\\s+[^\\s\"',]+");
    private static final Pattern KEY_LIKE = Pattern.compile("\\b(sk|pk|rk|key)-[A-Za-z0-9_\\-*]{6,}");
    private static final Pattern URL_USERINFO = Pattern.compile("(?i)(https?://)[^/\\s@\"']+@");
    private static final Pattern URL_QUERY = Pattern.compile("(?i)(https?://[^\\s?#\"']*)\\?[^\\s\"']*");
    private static final Pattern SECRET_PARAM =
            Pattern.compile("(?i)\\b(api[_-]?key|access[_-]?token|token|key|secret|password)=[^&\\s\"']+");

    private final String apiKey;

    public SecretRedactor(String apiKey) {
        this.apiKey = apiKey == null || apiKey.length() < 4 ? null : apiKey;
    }

    /** The text without secrets, whitespace collapsed, cut to a short line. */
    public String redact(String text) {
        if (text == null) return "";
        String s = text;
        if (apiKey != null) s = s.replace(apiKey, "***");
        s = BEARER.matcher(s).replaceAll("Bearer ***");
        s = KEY_LIKE.matcher(s).replaceAll("$1-***");
        s = URL_USERINFO.matcher(s).replaceAll("$1***@");
        s = URL_QUERY.matcher(s).replaceAll("$1?***");
        s = SECRET_PARAM.matcher(s).replaceAll("$1=***");
        s = s.replaceAll("\\s+", " ").strip();
        return s.length() <= MAX_LENGTH ? s : s.substring(0, MAX_LENGTH) + "…";
    }
}

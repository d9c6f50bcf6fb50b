package dev.clawgate.core.internal.render;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The text put before a reply (SPEC OUT-3): resolved from the cascade {@code messages.response_prefix} →
 * {@code channels.<ch>.response_prefix} → {@code channels.<ch>.accounts.<id>.response_prefix}, then rendered with the
 * variables {@code {model}}, {@code {provider}} and {@code {identity.name}}.
 */
public final class ResponsePrefix {
    public static final String MODEL = "model";
    public static final String PROVIDER = "provider";
    public static final String IDENTITY_NAME = "identity.name";

    private static final Pattern VARIABLE = Pattern.compile("\\{([A-Za-z][A-Za-z0-9_.]*)}");

    private ResponsePrefix() {}

    /**
     * The prefix template that applies: the most specific level that sets one wins, and an empty string there means "no
     * prefix", whatever the levels above say. Returns "" when none is set.
     */
    public static String resolve(String global, String channel, String account) {
        if (account != null) return account;
        if (channel != null) return channel;
        return global == null ? "" : global;
    }

    /**
     * Replaces {@code {name}} variables (names case-insensitive) with their values; a variable that is unknown or has
     * no value is left as written.
     */
    public static String render(String template, Map<String, String> variables) {
        if (template == null || template.isEmpty()) return "";
        Matcher m = VARIABLE.matcher(template);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String value = variables.get(m.group(1).toLowerCase(Locale.ROOT));
            m.appendReplacement(out, Matcher.quoteReplacement(value == null ? m.group() : value));
        }
        m.appendTail(out);
        return out.toString();
    }

    /** {@link #render(String, Map)} with the three known variables (any of them may be null). */
    public static String render(String template, String model, String provider, String identityName) {
        Map<String, String> values = new HashMap<>();
        if (model != null) values.put(MODEL, model);
        if (provider != null) values.put(PROVIDER, provider);
        if (identityName != null) values.put(IDENTITY_NAME, identityName);
        return render(template, values);
    }

    /** {@code text} with {@code prefix} before it, separated by a space unless the prefix ends in whitespace. */
    public static String apply(String prefix, String text) {
        if (prefix == null || prefix.isEmpty()) return text;
        if (text == null || text.isEmpty()) return prefix.strip();
        return Character.isWhitespace(prefix.charAt(prefix.length() - 1)) ? prefix + text : prefix + " " + text;
    }
}

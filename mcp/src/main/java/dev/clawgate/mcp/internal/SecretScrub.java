package dev.clawgate.mcp.internal;

import java.util.Comparator;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

/**
 * Takes credentials out of what an MCP server says before the model or a log sees it (SPEC AG-7, OP-6): the values the
 * operator gave the server from the environment or as auth headers, and anything shaped like a key or a bearer token.
 */
final class SecretScrub implements UnaryOperator<String> {
    static final String MARK = "[redacted]";
    private static final Pattern BEARER = Pattern.compile("(?i)\\bbearer\\s+[A-Za-z0-9._~+/=\\-]{8,}");
    private static final Pattern KEY_LIKE = Pattern.compile("\\b(sk|pk|rk|ghp|gho|xoxb|xoxp)[-_][A-Za-z0-9_\\-]{8,}");
    private static final Pattern SECRET_PARAM =
            Pattern.compile("(?i)\\b(api[_-]?key|access[_-]?token|token|secret|password)=[^&\\s\"']+");

    private final List<String> values;

    /** @param values exact secrets; the longest are replaced first, so one inside another leaves no part behind */
    SecretScrub(List<String> values) {
        this.values = values.stream()
                .filter(v -> v != null && v.length() >= 4)
                .sorted(Comparator.comparingInt(String::length).reversed())
                .toList();
    }

    @Override
    public String apply(String text) {
        if (text == null || text.isEmpty()) return text == null ? "" : text;
        String s = text;
        for (String v : values) s = s.replace(v, MARK);
        s = BEARER.matcher(s).replaceAll("Bearer " + MARK);
        s = KEY_LIKE.matcher(s).replaceAll(MARK);
        return SECRET_PARAM.matcher(s).replaceAll("$1=" + MARK);
    }
}

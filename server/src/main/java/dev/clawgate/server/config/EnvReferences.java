package dev.clawgate.server.config;

import java.util.Map;
import java.util.regex.Pattern;

/**
 * {@code ${VAR}} references in config strings (SPEC OP-6): each is replaced by the variable's
 * value, anywhere in the string; {@code $${} stands for a literal {@code ${}.
 */
final class EnvReferences {
    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private EnvReferences() {}

    /**
     * The expanded string, or which variable was missing.
     *
     * @param value the expanded text; null when a variable was unset
     * @param missingVariable the first unset variable, else null
     */
    record Expansion(String value, String missingVariable) {
        boolean complete() {
            return missingVariable == null;
        }
    }

    /** Thrown for a reference that is not well formed; the message never quotes the string. */
    static final class MalformedReference extends Exception {
        MalformedReference(String reason) {
            super(reason);
        }
    }

    static Expansion expand(String raw, Map<String, String> env) throws MalformedReference {
        if (raw.indexOf('$') < 0) return new Expansion(raw, null);
        StringBuilder out = new StringBuilder(raw.length());
        String missing = null;
        int i = 0;
        while (i < raw.length()) {
            if (raw.startsWith("$${", i)) {
                out.append("${");
                i += 3;
            } else if (raw.startsWith("${", i)) {
                int close = raw.indexOf('}', i + 2);
                if (close < 0) throw new MalformedReference("has an unterminated ${ (write $${ for a literal ${)");
                String name = raw.substring(i + 2, close);
                if (!NAME.matcher(name).matches()) {
                    throw new MalformedReference(
                            "has a ${...} reference that is not a variable name (use letters, digits and _; write $${ "
                                    + "for a literal ${)");
                }
                String value = env.get(name);
                if (value == null) {
                    if (missing == null) missing = name;
                } else {
                    out.append(value);
                }
                i = close + 1;
            } else {
                out.append(raw.charAt(i));
                i++;
            }
        }
        return missing == null ? new Expansion(out.toString(), null) : new Expansion(null, missing);
    }
}

package dev.clawgate.server.config;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Refuses a config file that looks cut off (SPEC OP-6 area: a truncated file must not silently put defaults in force).
 * The TOML parser already refuses a file cut inside a token ("Premature end of file"), but a file cut at a line break
 * is valid TOML: every key after the cut simply takes its default, so a {@code [tools]} table cut after its header
 * restored the default shell allowlist. What a cut leaves that is still valid TOML, and what this refuses:
 *
 * <ul>
 *   <li>an empty file (a save that wrote nothing yet);
 *   <li>a file whose last table header has no keys under it (cut right after {@code [tools]}), unless the table is a
 *       named entry whose presence alone means something ({@code [providers.local]}, {@code [channels.telegram]});
 *   <li>a last line without a line break whose value a cut can shorten and leave valid: a number or a date ({@code 30}
 *       cut to {@code 3}) or an empty string ({@code """} cut to {@code ""}).
 * </ul>
 *
 * A cut between two complete lines cannot be told from a complete file; the config watcher waits for the file to hold
 * still before it reloads.
 */
final class CutOffCheck {
    private static final Pattern HEADER = Pattern.compile("^\\s*\\[\\[?\\s*([^\\]]+?)\\s*]]?\\s*(#.*)?$");
    private static final Pattern KEY_VALUE = Pattern.compile("^\\s*([A-Za-z0-9_.\"' -]+?)\\s*=\\s*(.*?)\\s*$");
    /** Values a cut can shorten into another valid value: numbers, dates and times, and an empty string. */
    private static final Pattern SHORTENABLE = Pattern.compile("[-+]?[0-9][0-9_.:eE+\\-TZtz ]*|\"\"|''");

    private CutOffCheck() {}

    /** @throws ConfigException naming the file, what looks cut and how to fix it */
    static void check(String text, String file, ConfigSchema.Table schema) {
        if (text.isBlank()) {
            throw new ConfigException("config file " + file + " is empty; it may have been cut off while it was"
                    + " written. Write one with 'clawgate init', or delete it to run on the defaults");
        }
        String[] lines = text.split("\\R", -1);
        String lastHeader = null;
        String lastPath = null;
        boolean keysSinceHeader = false;
        for (String line : lines) {
            String s = line.strip();
            if (s.isEmpty() || s.startsWith("#")) continue;
            Matcher h = HEADER.matcher(s);
            if (h.matches() && !s.contains("=")) {
                lastHeader = s.startsWith("[[") ? "[[" + h.group(1) + "]]" : "[" + h.group(1) + "]";
                lastPath = h.group(1);
                keysSinceHeader = false;
            } else {
                keysSinceHeader = true;
            }
        }
        boolean emptyAtEnd = lastHeader != null && !keysSinceHeader && !lastHeader.startsWith("[[");
        if (emptyAtEnd && !meansSomethingEmpty(lastPath, schema)) {
            throw new ConfigException("config file " + file + " ends with the table header " + lastHeader
                    + " and no keys under it; it looks cut off. Add the table's keys, or remove the header");
        }
        shortenedLastValue(text, lines, file);
    }

    private static void shortenedLastValue(String text, String[] lines, String file) {
        boolean endsWithBreak = text.endsWith("\n") || text.endsWith("\r");
        if (endsWithBreak) return;
        String last = lines[lines.length - 1];
        if (last.indexOf('#') >= 0) return;
        Matcher kv = KEY_VALUE.matcher(last);
        if (kv.matches() && SHORTENABLE.matcher(kv.group(2)).matches()) {
            throw new ConfigException("config file " + file + " does not end with a line break, and its last line"
                    + " (line " + lines.length + ", '" + kv.group(1) + "') ends in a value a cut could have shortened;"
                    + " it looks cut off. If the file is complete, end it with a line break");
        }
    }

    /**
     * Whether the table at {@code path} changes the config by being there, empty: a named entry such as
     * {@code providers.local} or {@code channels.telegram}. A settings table ({@code tools}, {@code agent}) does not,
     * so one left empty at the end of the file is the mark of a cut. An unknown path counts as meaningful: the schema
     * check names it better.
     */
    private static boolean meansSomethingEmpty(String path, ConfigSchema.Table root) {
        ConfigSchema.Shape at = root;
        boolean named = false;
        for (String segment : segments(path)) {
            named = false;
            switch (at) {
                case ConfigSchema.Table t -> {
                    at = t.keys().get(segment);
                    if (at == null) return true;
                }
                case ConfigSchema.NamedTables n -> {
                    at = n.tableFor(segment);
                    named = true;
                }
                default -> {
                    return true;
                }
            }
        }
        return named;
    }

    /** The keys of a dotted TOML key path, unquoted: {@code providers."my model"} is providers, my model. */
    static java.util.List<String> segments(String path) {
        java.util.List<String> out = new java.util.ArrayList<>();
        StringBuilder current = new StringBuilder();
        char quote = 0;
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (quote != 0) {
                if (c == quote) quote = 0;
                else current.append(c);
            } else if (c == '"' || c == '\'') {
                quote = c;
            } else if (c == '.') {
                out.add(current.toString().strip());
                current.setLength(0);
            } else {
                current.append(c);
            }
        }
        out.add(current.toString().strip());
        return out;
    }
}

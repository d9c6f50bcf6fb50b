package dev.clawgate.server.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Typed reads from one table of a tree that {@link SchemaCheck} has already accepted: absent keys take the given
 * default, strings have their {@code ${VAR}} references expanded, numbers are range-checked. Error messages name the
 * key, never the value.
 */
final class TableReader {
    private final JsonNode node;
    private final String path;
    private final ConfigSource source;

    private TableReader(JsonNode node, String path, ConfigSource source) {
        this.node = node;
        this.path = path;
        this.source = source;
    }

    static TableReader root(JsonNode root, ConfigSource source) {
        return new TableReader(root, "", source);
    }

    String file() {
        return source.file();
    }

    /** This table's path, as messages show it ({@code channels.telegram}); empty for the root. */
    String path() {
        return path;
    }

    /** Whether this table sets {@code key}. */
    boolean has(String key) {
        return node.has(key);
    }

    /** The keys this table sets, in file order. */
    List<String> keys() {
        List<String> out = new ArrayList<>();
        node.fieldNames().forEachRemaining(out::add);
        return out;
    }

    /** The full path of a key in this table, as messages show it. */
    String keyPath(String key) {
        return path.isEmpty() ? key : path + "." + key;
    }

    /** A sub-table; an absent one reads as empty, so every key takes its default. */
    TableReader table(String key) {
        return new TableReader(node.path(key), keyPath(key), source);
    }

    /** The entries of a {@code [key.NAME]} table, in file order. */
    Map<String, TableReader> namedTables(String key) {
        Map<String, TableReader> out = new LinkedHashMap<>();
        for (var e : node.path(key).properties()) {
            out.put(e.getKey(), new TableReader(e.getValue(), keyPath(key) + "." + e.getKey(), source));
        }
        return out;
    }

    /** The entries of a {@code [[key]]} array. */
    List<TableReader> tableArray(String key) {
        List<TableReader> out = new ArrayList<>();
        JsonNode array = node.path(key);
        for (int i = 0; i < array.size(); i++) {
            out.add(new TableReader(array.get(i), keyPath(key) + "[" + i + "]", source));
        }
        return out;
    }

    /** The string with its references expanded, or null when absent; an unset variable is an error. */
    String string(String key) {
        JsonNode value = node.get(key);
        if (value == null) return null;
        return expandOrFail(value.asText(), keyPath(key));
    }

    /** A scalar as text: a string with its references expanded, a number or boolean as written; null when absent. */
    String text(String key) {
        JsonNode value = node.get(key);
        if (value == null) return null;
        return value.isTextual() ? string(key) : value.asText();
    }

    /**
     * One of a fixed set of words, e.g. a policy name.
     *
     * @param what how the error names the kind of value, e.g. "a DM policy"
     * @param valid the accepted words, for the error, e.g. "open, allowlist, pairing, disabled"
     */
    <T> T choice(String key, T defaultValue, Function<String, Optional<T>> parse, String what, String valid) {
        String raw = string(key);
        if (raw == null) return defaultValue;
        return parse.apply(raw)
                .orElseThrow(() -> error(keyPath(key), shown(key, raw) + " not " + what + "; use one of " + valid));
    }

    /** How an error shows a bad word: quoted, unless it came from the environment, which may hold a secret. */
    String shown(String key, String expanded) {
        JsonNode raw = node.get(key);
        return raw != null && raw.asText().contains("${")
                ? "expands to a value that is"
                : "is '" + expanded + "', which is";
    }

    /** Seconds as an integer, or a string such as {@code "2h30m"} ({@link DurationValue}), at least {@code min}. */
    Duration duration(String key, Duration defaultValue, Duration min) {
        JsonNode value = node.get(key);
        if (value == null) return defaultValue;
        Duration d;
        if (value.isIntegralNumber()) {
            if (!value.canConvertToLong() || value.asLong() > DurationValue.MAX.toSeconds()) {
                throw error(keyPath(key), DurationValue.tooLong());
            }
            if (value.asLong() < 0) throw error(keyPath(key), "must not be negative");
            d = Duration.ofSeconds(value.asLong());
        } else {
            try {
                d = DurationValue.parse(expandOrFail(value.asText(), keyPath(key)));
            } catch (DurationValue.Invalid e) {
                throw error(keyPath(key), e.getMessage());
            }
        }
        if (d.compareTo(min) < 0) throw error(keyPath(key), "must be at least " + DurationValue.format(min));
        return d;
    }

    /** The value as written in the file, references not expanded; "" when absent. Never put it in a message. */
    String raw(String key) {
        JsonNode value = node.get(key);
        return value == null ? "" : value.asText();
    }

    /** Like {@link #string}, but an unset variable is reported, not thrown: the caller decides. */
    EnvReferences.Expansion expansion(String key) {
        JsonNode value = node.get(key);
        if (value == null) return new EnvReferences.Expansion(null, null);
        try {
            return EnvReferences.expand(value.asText(), source.env());
        } catch (EnvReferences.MalformedReference e) {
            throw error(keyPath(key), e.getMessage());
        }
    }

    int integer(String key, int defaultValue, int min, int max) {
        return (int) longInteger(key, defaultValue, min, max);
    }

    long longInteger(String key, long defaultValue, long min, long max) {
        JsonNode value = node.get(key);
        if (value == null) return defaultValue;
        if (!value.canConvertToLong()) throw error(keyPath(key), "is too large; use at most " + max);
        long v = value.asLong();
        if (v < min) throw error(keyPath(key), "must be at least " + min + ", not " + v);
        if (v > max) throw error(keyPath(key), "must be at most " + max + ", not " + v);
        return v;
    }

    /** A number in [min, max]; an integer is taken as the same decimal. */
    double number(String key, double defaultValue, double min, double max) {
        JsonNode value = node.get(key);
        if (value == null) return defaultValue;
        double v = value.asDouble();
        if (!(v >= min)) throw error(keyPath(key), "must be at least " + min + ", not " + value.asText());
        if (!(v <= max)) throw error(keyPath(key), "must be at most " + max + ", not " + value.asText());
        return v;
    }

    boolean bool(String key, boolean defaultValue) {
        JsonNode value = node.get(key);
        return value == null ? defaultValue : value.asBoolean();
    }

    /** A boolean that may be left unset (null). */
    Boolean optionalBool(String key) {
        JsonNode value = node.get(key);
        return value == null ? null : value.asBoolean();
    }

    boolean isList(String key) {
        JsonNode value = node.get(key);
        return value != null && value.isArray();
    }

    /** A list of strings joined by commas, for a channel's list option; an item holding a comma is an error. */
    String joinedList(String key) {
        List<String> items = strings(key, List.of());
        for (int i = 0; i < items.size(); i++) {
            if (items.get(i).contains(",")) {
                throw error(keyPath(key) + "[" + i + "]", "holds a comma, which no item of this list may hold");
            }
        }
        return String.join(",", items);
    }

    List<String> strings(String key, List<String> defaultValue) {
        JsonNode value = node.get(key);
        if (value == null) return defaultValue;
        List<String> out = new ArrayList<>(value.size());
        for (int i = 0; i < value.size(); i++) {
            out.add(expandOrFail(value.get(i).asText(), keyPath(key) + "[" + i + "]"));
        }
        return List.copyOf(out);
    }

    /** A directory path; relative ones resolve against the config file's directory, {@code ~/} against $HOME. */
    Path directory(String key, Path defaultValue) {
        String raw = string(key);
        if (raw != null && raw.isBlank()) throw error(keyPath(key), "must not be empty");
        try {
            Path p = raw == null ? defaultValue : expandHome(raw);
            return (p.isAbsolute() ? p : source.baseDir().resolve(p)).normalize();
        } catch (InvalidPathException e) {
            throw error(keyPath(key), "is not a valid path");
        }
    }

    ConfigException error(String keyPath, String problem) {
        return new ConfigException("'" + keyPath + "' in " + source.file() + " " + problem);
    }

    private Path expandHome(String raw) {
        if (!raw.equals("~") && !raw.startsWith("~/")) return Path.of(raw);
        String home = source.env().getOrDefault("HOME", System.getProperty("user.home"));
        return raw.equals("~") ? Path.of(home) : Path.of(home, raw.substring(2));
    }

    private String expandOrFail(String raw, String keyPath) {
        EnvReferences.Expansion x;
        try {
            x = EnvReferences.expand(raw, source.env());
        } catch (EnvReferences.MalformedReference e) {
            throw error(keyPath, e.getMessage());
        }
        if (!x.complete()) {
            throw error(
                    keyPath,
                    "refers to ${" + x.missingVariable() + "}, which is not set; set " + x.missingVariable()
                            + " in the environment or change the value");
        }
        return x.value();
    }
}

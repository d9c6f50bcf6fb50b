package dev.clawgate.server.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every key {@code clawgate.toml} may hold, declared once. The loader checks the parsed tree
 * against it before reading values, so an unknown or misspelt key is caught precisely.
 * Adding a key: declare it here, read it in {@link ConfigLoader}, document it in the starter.
 */
final class ConfigSchema {
    private ConfigSchema() {}

    /** What a key holds. */
    sealed interface Shape permits Scalar, Table, NamedTables, TableArray {
        /** How an error message names this shape, e.g. "an integer". */
        String description();
    }

    enum Scalar implements Shape {
        STRING("a string"), INTEGER("an integer"), BOOLEAN("true or false"), STRING_LIST("a list of strings");

        private final String description;

        Scalar(String description) {
            this.description = description;
        }

        @Override
        public String description() {
            return description;
        }
    }

    /** A table with a fixed set of keys, in declaration order. */
    record Table(Map<String, Shape> keys) implements Shape {
        Table {
            keys = Collections.unmodifiableMap(new LinkedHashMap<>(keys));
        }

        @Override
        public String description() {
            return "a table";
        }
    }

    /** A table whose keys are names the user picks, each holding the same table ({@code [providers.NAME]}). */
    record NamedTables(Table each) implements Shape {
        @Override
        public String description() {
            return "a table of named tables";
        }
    }

    /** An array of tables ({@code [[routes]]}). */
    record TableArray(Table each) implements Shape {
        @Override
        public String description() {
            return "an array of tables";
        }
    }

    static final Table PROVIDER = table(
            "kind", Scalar.STRING,
            "base_url", Scalar.STRING,
            "api_key", Scalar.STRING,
            "native_tools", Scalar.BOOLEAN,
            "model", Scalar.STRING,
            "timeout_secs", Scalar.INTEGER);

    static final Table ROUTE = table(
            "hint", Scalar.STRING,
            "keywords", Scalar.STRING_LIST,
            "provider", Scalar.STRING,
            "model", Scalar.STRING);

    static final Table ROOT = table(
            "gateway", table(
                    "data_dir", Scalar.STRING,
                    "bind", Scalar.STRING,
                    "auth_token", Scalar.STRING),
            "agent", table(
                    "provider", Scalar.STRING,
                    "model", Scalar.STRING,
                    "max_tool_iterations", Scalar.INTEGER,
                    "message_timeout_secs", Scalar.INTEGER,
                    "timeout_scale_cap", Scalar.INTEGER,
                    "workspace", Scalar.STRING,
                    "show_tool_calls", Scalar.BOOLEAN,
                    "fallback", Scalar.STRING_LIST),
            "providers", new NamedTables(PROVIDER),
            "routes", new TableArray(ROUTE),
            "history", table(
                    "max_messages", Scalar.INTEGER,
                    "max_chars", Scalar.INTEGER),
            "tools", table(
                    "max_result_chars", Scalar.INTEGER,
                    "shell_allowlist", Scalar.STRING_LIST,
                    "shell_timeout_secs", Scalar.INTEGER,
                    "shell_output_cap", Scalar.INTEGER),
            "messages", table(
                    "queue", table(
                            "mode", Scalar.STRING,
                            "cap", Scalar.INTEGER)),
            "dispatch", table(
                    "max_in_flight", Scalar.INTEGER,
                    "bus_capacity", Scalar.INTEGER));

    /** Placeholder for a user-chosen table name in {@link #knownPaths()}. */
    static final String NAME_PLACEHOLDER = "<name>";

    private static final List<String> KNOWN_PATHS = flatten();

    /**
     * Every key and table path, e.g. {@code gateway}, {@code gateway.bind},
     * {@code providers.<name>.kind}, {@code routes.hint}.
     */
    static List<String> knownPaths() {
        return KNOWN_PATHS;
    }

    private static List<String> flatten() {
        List<String> out = new ArrayList<>();
        flattenInto("", ROOT, out);
        return List.copyOf(out);
    }

    private static void flattenInto(String prefix, Table table, List<String> out) {
        for (var e : table.keys().entrySet()) {
            String path = prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey();
            out.add(path);
            switch (e.getValue()) {
                case Table t -> flattenInto(path, t, out);
                case NamedTables n -> flattenInto(path + "." + NAME_PLACEHOLDER, n.each(), out);
                case TableArray a -> flattenInto(path, a.each(), out);
                case Scalar s -> { }
            }
        }
    }

    private static Table table(Object... keysAndShapes) {
        Map<String, Shape> keys = new LinkedHashMap<>();
        for (int i = 0; i < keysAndShapes.length; i += 2) {
            keys.put((String) keysAndShapes[i], (Shape) keysAndShapes[i + 1]);
        }
        return new Table(keys);
    }
}

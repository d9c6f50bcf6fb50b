package dev.clawgate.server.config;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.server.config.ConfigSchema.NamedTables;
import dev.clawgate.server.config.ConfigSchema.NamedValues;
import dev.clawgate.server.config.ConfigSchema.Scalar;
import dev.clawgate.server.config.ConfigSchema.Shape;
import dev.clawgate.server.config.ConfigSchema.Table;
import dev.clawgate.server.config.ConfigSchema.TableArray;
import java.util.Map;

/**
 * Walks a parsed TOML tree against {@link ConfigSchema}: the first unknown key or value of the wrong type becomes a
 * {@link ConfigException}. Values are never quoted in the message.
 */
final class SchemaCheck {
    private final String file;
    private final Table schema;

    private SchemaCheck(String file, Table schema) {
        this.file = file;
        this.schema = schema;
    }

    /**
     * @param file how messages name the config file
     * @param schema the root table, e.g. {@link ConfigSchema#root(ChannelKeys)}
     */
    static void check(JsonNode root, String file, Table schema) {
        SchemaCheck check = new SchemaCheck(file, schema);
        if (!root.isObject()) throw new ConfigException(file + " is not a TOML document of tables");
        check.table(root, schema, "", "", "top-level");
    }

    private void table(JsonNode node, Table table, String displayPath, String schemaPath, String tableLabel) {
        for (Map.Entry<String, JsonNode> field : node.properties()) {
            String key = field.getKey();
            Shape shape = table.keys().get(key);
            String childDisplay = displayPath.isEmpty() ? key : displayPath + "." + key;
            if (shape == null) throw unknown(key, childDisplay, displayPath, schemaPath, table, tableLabel);
            String childSchema = schemaPath.isEmpty() ? key : schemaPath + "." + key;
            value(field.getValue(), shape, childDisplay, childSchema);
        }
    }

    private void value(JsonNode node, Shape shape, String displayPath, String schemaPath) {
        switch (shape) {
            case Scalar s -> scalar(node, s, displayPath);
            case Table t -> {
                if (!node.isObject()) throw wrongType(displayPath, "a table ([" + displayPath + "])", node);
                table(node, t, displayPath, schemaPath, "[" + displayPath + "]");
            }
            case NamedTables n -> {
                if (!node.isObject())
                    throw wrongType(displayPath, "a table of named tables ([" + displayPath + ".NAME])", node);
                for (Map.Entry<String, JsonNode> entry : node.properties()) {
                    String entryPath = displayPath + "." + entry.getKey();
                    if (!entry.getValue().isObject())
                        throw wrongType(entryPath, "a table ([" + entryPath + "])", entry.getValue());
                    table(
                            entry.getValue(),
                            n.tableFor(entry.getKey()),
                            entryPath,
                            schemaPath + "." + ConfigSchema.NAME_PLACEHOLDER,
                            "[" + entryPath + "]");
                }
            }
            case NamedValues v -> {
                if (!node.isObject())
                    throw wrongType(displayPath, "a table ([" + displayPath + "]) of names to values", node);
                for (Map.Entry<String, JsonNode> entry : node.properties()) {
                    scalar(entry.getValue(), v.each(), displayPath + "." + entry.getKey());
                }
            }
            case TableArray a -> {
                if (!node.isArray()) throw wrongType(displayPath, "an array of tables ([[" + displayPath + "]])", node);
                for (int i = 0; i < node.size(); i++) {
                    String entryPath = displayPath + "[" + i + "]";
                    if (!node.get(i).isObject())
                        throw wrongType(entryPath, "a table ([[" + displayPath + "]])", node.get(i));
                    table(node.get(i), a.each(), entryPath, schemaPath, "[[" + displayPath + "]]");
                }
            }
        }
    }

    private void scalar(JsonNode node, Scalar scalar, String path) {
        boolean ok = switch (scalar) {
            case STRING -> node.isTextual();
            case INTEGER -> node.isIntegralNumber();
            case BOOLEAN -> node.isBoolean();
            case STRING_LIST -> node.isArray();
            case NUMBER -> node.isNumber();
            case DURATION -> node.isIntegralNumber() || node.isTextual();
        };
        if (!ok) throw wrongType(path, scalar.description(), node);
        if (scalar == Scalar.STRING_LIST) {
            for (int i = 0; i < node.size(); i++) {
                if (!node.get(i).isTextual())
                    throw wrongType(path + "[" + i + "]", Scalar.STRING.description(), node.get(i));
            }
        }
    }

    private ConfigException unknown(
            String key, String path, String displayPrefix, String schemaPrefix, Table table, String tableLabel) {
        String hint = NearestKey.suggest(
                        key, displayPrefix, schemaPrefix, table.keys().keySet(), ConfigSchema.knownPaths(schema))
                .map(s -> "did you mean '" + s + "'?")
                .orElseGet(
                        () -> "valid " + ("top-level".equals(tableLabel) ? "top-level keys" : "keys in " + tableLabel)
                                + ": " + String.join(", ", table.keys().keySet()));
        return new ConfigException("unknown key '" + path + "' in " + file + "; " + hint);
    }

    private ConfigException wrongType(String path, String expected, JsonNode actual) {
        return new ConfigException("'" + path + "' in " + file + " must be " + expected + ", not " + describe(actual));
    }

    /** Names a value's TOML type without showing the value. */
    static String describe(JsonNode node) {
        if (node.isTextual()) return "a string";
        if (node.isIntegralNumber()) return "an integer";
        if (node.isNumber()) return "a decimal number";
        if (node.isBoolean()) return "a boolean";
        if (node.isArray()) return "a list";
        if (node.isObject()) return "a table";
        return node.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
    }
}

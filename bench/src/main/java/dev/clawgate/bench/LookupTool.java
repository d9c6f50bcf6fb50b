package dev.clawgate.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.core.tool.Tool;
import dev.clawgate.core.tool.ToolContext;
import dev.clawgate.core.tool.ToolResult;
import java.util.Map;

/** A tool that reads a fixed in-memory table: the tool path without any I/O. */
public final class LookupTool implements Tool {
    public static final String NAME = "lookup";
    public static final String KEY = "key";
    public static final String SAMPLE_KEY = "capital-of-france";

    private static final Map<String, String> TABLE = Map.of(
            SAMPLE_KEY, "Paris", "boiling-point-of-water", "100 °C at sea level", "speed-of-light", "299792458 m/s");

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "Looks a fact up in a small fixed table by its key.";
    }

    @Override
    public JsonNode parameters() {
        ObjectNode schema = JsonNodeFactory.instance.objectNode().put("type", "object");
        schema.putObject("properties").putObject(KEY).put("type", "string").put("description", "the fact's key");
        schema.putArray("required").add(KEY);
        return schema;
    }

    @Override
    public ToolResult execute(JsonNode arguments, ToolContext context) {
        JsonNode key = arguments.get(KEY);
        if (key == null || !key.isTextual()) return ToolResult.error("'" + KEY + "' must be a string");
        String value = TABLE.get(key.asText());
        return value == null
                ? ToolResult.error("no entry '" + key.asText() + "'; known keys: " + String.join(", ", TABLE.keySet()))
                : ToolResult.ok(value);
    }
}

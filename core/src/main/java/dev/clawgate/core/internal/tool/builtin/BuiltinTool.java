package dev.clawgate.core.internal.tool.builtin;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.tool.Tool;

/**
 * A built-in tool's name, description and argument schema, fixed when the tool is made; each tool writes only its
 * {@code execute}.
 */
abstract class BuiltinTool implements Tool {
    private final String name;
    private final String description;
    private final JsonNode schema;

    BuiltinTool(String name, String description, ArgumentSchema schema) {
        this.name = name;
        this.description = description;
        this.schema = schema.build();
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final String description() {
        return description;
    }

    /** A copy: a caller that edits it cannot change what the next caller sees. */
    @Override
    public final JsonNode parameters() {
        return schema.deepCopy();
    }
}

package dev.clawgate.core.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.Objects;

/**
 * A model's request to run a tool (SPEC AG-1). Arguments are a JSON object; a call whose arguments could not be parsed
 * carries {@code parseError} instead, so the loop can report it back to the model.
 *
 * @param id an id the provider gave (native calls) or one the parser made up (tag calls)
 */
public record ToolCall(String id, String name, JsonNode arguments, String parseError) {
    public ToolCall {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        arguments = arguments == null ? JsonNodeFactory.instance.objectNode() : arguments;
    }

    public ToolCall(String id, String name, JsonNode arguments) {
        this(id, name, arguments, null);
    }

    public boolean malformed() {
        return parseError != null;
    }
}

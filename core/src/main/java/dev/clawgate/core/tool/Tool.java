package dev.clawgate.core.tool;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.provider.ToolSpec;

/**
 * Something the agent can do (SPEC AG-5). {@link #execute} reports bad arguments and refused actions as
 * {@link ToolResult#error}, not as exceptions; an exception means the tool itself broke.
 */
public interface Tool {
    String name();

    String description();

    /** JSON schema of the arguments object. */
    JsonNode parameters();

    ToolResult execute(JsonNode arguments, ToolContext context) throws Exception;

    default ToolSpec spec() {
        return new ToolSpec(name(), description(), parameters());
    }

    /** The body of a tool, so tests and wiring can write one as a lambda. */
    @FunctionalInterface
    interface Body {
        ToolResult run(JsonNode arguments, ToolContext context) throws Exception;
    }

    static Tool create(String name, String description, JsonNode parameters, Body body) {
        return new Tool() {
            public String name() {
                return name;
            }

            public String description() {
                return description;
            }

            public JsonNode parameters() {
                return parameters;
            }

            public ToolResult execute(JsonNode arguments, ToolContext context) throws Exception {
                return body.run(arguments, context);
            }
        };
    }
}

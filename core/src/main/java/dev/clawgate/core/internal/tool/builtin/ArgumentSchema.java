package dev.clawgate.core.internal.tool.builtin;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** Builds the JSON schema of a tool's arguments object: {@code type}, {@code properties}, {@code required}. */
final class ArgumentSchema {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private final ObjectNode properties = JSON.objectNode();
    private final ArrayNode required = JSON.arrayNode();

    static ArgumentSchema object() {
        return new ArgumentSchema();
    }

    ArgumentSchema string(String name, String description, boolean isRequired) {
        property(name, "string", description);
        if (isRequired) required.add(name);
        return this;
    }

    ArgumentSchema integer(String name, String description, int minimum, int maximum) {
        return integer(name, description, minimum, maximum, false);
    }

    ArgumentSchema integer(String name, String description, int minimum, int maximum, boolean isRequired) {
        property(name, "integer", description).put("minimum", minimum).put("maximum", maximum);
        if (isRequired) required.add(name);
        return this;
    }

    /** An optional JSON object passed on as it is. */
    ArgumentSchema object(String name, String description) {
        property(name, "object", description);
        return this;
    }

    ArgumentSchema bool(String name, String description) {
        property(name, "boolean", description);
        return this;
    }

    /** A nested object argument, e.g. a delivery target. */
    ArgumentSchema object(String name, String description, ArgumentSchema inner) {
        ObjectNode p = property(name, "object", description);
        ObjectNode built = inner.build();
        p.set("properties", built.get("properties"));
        p.set("required", built.get("required"));
        p.put("additionalProperties", false);
        return this;
    }

    ObjectNode build() {
        ObjectNode schema = JSON.objectNode();
        schema.put("type", "object");
        schema.set("properties", properties.deepCopy());
        schema.set("required", required.deepCopy());
        schema.put("additionalProperties", false);
        return schema;
    }

    private ObjectNode property(String name, String type, String description) {
        ObjectNode p = properties.putObject(name);
        p.put("type", type);
        p.put("description", description);
        return p;
    }
}

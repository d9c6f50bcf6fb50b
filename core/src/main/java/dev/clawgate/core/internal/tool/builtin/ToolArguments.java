package dev.clawgate.core.internal.tool.builtin;

import com.fasterxml.jackson.databind.JsonNode;

/** Typed access to a tool's arguments object; a missing or mistyped argument is a refusal naming it. */
record ToolArguments(JsonNode node) {

    static ToolArguments of(JsonNode arguments) throws RefusedException {
        if (arguments == null || arguments.isNull() || arguments.isMissingNode()) {
            return new ToolArguments(com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode());
        }
        if (!arguments.isObject()) throw new RefusedException("arguments must be a JSON object");
        return new ToolArguments(arguments);
    }

    String requiredString(String name) throws RefusedException {
        JsonNode v = node.get(name);
        if (v == null || v.isNull()) throw new RefusedException("missing required argument '" + name + "'");
        if (!v.isTextual()) throw new RefusedException("argument '" + name + "' must be a string");
        return v.textValue();
    }

    String optionalString(String name, String fallback) throws RefusedException {
        JsonNode v = node.get(name);
        if (v == null || v.isNull()) return fallback;
        if (!v.isTextual()) throw new RefusedException("argument '" + name + "' must be a string");
        return v.textValue();
    }

    /** An integer in [min, max]; models sometimes send numbers as strings, which is accepted. */
    int optionalInt(String name, int fallback, int min, int max) throws RefusedException {
        JsonNode v = node.get(name);
        if (v == null || v.isNull()) return fallback;
        long value;
        if (v.isIntegralNumber() && v.canConvertToLong()) {
            value = v.longValue();
        } else if (v.isTextual() && v.textValue().strip().matches("-?\\d{1,18}")) {
            value = Long.parseLong(v.textValue().strip());
        } else {
            throw new RefusedException("argument '" + name + "' must be an integer");
        }
        if (value < min || value > max) {
            throw new RefusedException(
                    "argument '" + name + "' must be between " + min + " and " + max + ", was " + value);
        }
        return (int) value;
    }

    /** A JSON object, or null when absent. */
    JsonNode optionalObject(String name) throws RefusedException {
        JsonNode v = node.get(name);
        if (v == null || v.isNull()) return null;
        if (!v.isObject()) throw new RefusedException("argument '" + name + "' must be a JSON object");
        return v;
    }

    boolean optionalBoolean(String name, boolean fallback) throws RefusedException {
        JsonNode v = node.get(name);
        if (v == null || v.isNull()) return fallback;
        if (v.isBoolean()) return v.booleanValue();
        if (v.isTextual() && (v.textValue().equals("true") || v.textValue().equals("false"))) {
            return Boolean.parseBoolean(v.textValue());
        }
        throw new RefusedException("argument '" + name + "' must be true or false");
    }
}

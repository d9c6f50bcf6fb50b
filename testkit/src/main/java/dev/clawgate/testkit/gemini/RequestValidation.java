package dev.clawgate.testkit.gemini;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Base64;
import java.util.regex.Pattern;

/**
 * The checks the Gemini API makes on a {@code GenerateContentRequest} before it answers, worded as it words them
 * ({@code * GenerateContentRequest.field: problem}), so a client that builds a request the real API would refuse fails
 * against the fake too. Null when valid.
 */
final class RequestValidation {
    private static final Pattern FUNCTION_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}");

    private RequestValidation() {}

    static String problem(JsonNode body) {
        if (!body.isObject()) return "Invalid JSON payload received. Expected an object.";
        String p = systemProblem(body.path("systemInstruction"));
        if (p != null) return p;
        p = contentsProblem(body.path("contents"));
        if (p != null) return p;
        p = toolsProblem(body.path("tools"));
        if (p != null) return p;
        JsonNode temperature = body.path("generationConfig").path("temperature");
        if (!temperature.isMissingNode()
                && (!temperature.isNumber() || temperature.asDouble() < 0 || temperature.asDouble() > 2)) {
            return "* GenerateContentRequest.generation_config.temperature: must be in the range [0.0, 2.0]";
        }
        return null;
    }

    private static String systemProblem(JsonNode system) {
        if (system.isMissingNode()) return null;
        if (!system.path("parts").isArray() || system.path("parts").isEmpty()) {
            return "* GenerateContentRequest.system_instruction.parts: contents.parts must not be empty.";
        }
        for (JsonNode part : system.path("parts")) {
            if (!part.path("text").isTextual())
                return "* GenerateContentRequest.system_instruction.parts: only text parts are allowed";
        }
        return null;
    }

    private static String contentsProblem(JsonNode contents) {
        if (!contents.isArray() || contents.isEmpty())
            return "* GenerateContentRequest.contents: contents is not specified";
        int pendingCalls = 0;
        for (int i = 0; i < contents.size(); i++) {
            JsonNode c = contents.get(i);
            String at = "* GenerateContentRequest.contents[" + i + "]";
            String role = c.path("role").asText("user");
            if (!role.equals("user") && !role.equals("model")) return "Please use a valid role: user, model.";
            JsonNode parts = c.path("parts");
            if (!parts.isArray() || parts.isEmpty()) return at + ".parts: contents.parts must not be empty.";
            int calls = 0;
            int responses = 0;
            for (int j = 0; j < parts.size(); j++) {
                String p = partProblem(parts.get(j), at + ".parts[" + j + "]");
                if (p != null) return p;
                if (parts.get(j).has("functionCall")) calls++;
                if (parts.get(j).has("functionResponse")) responses++;
            }
            if (calls > 0 && !role.equals("model")) return at + ": a function call must come from the model role";
            if (responses > 0 && !role.equals("user")) return at + ": a function response must be in a user turn";
            if (responses > 0 && responses != pendingCalls) {
                return "Please ensure that the number of function response parts is equal to the number of function "
                        + "call "
                        + "parts of the function call turn.";
            }
            if (pendingCalls > 0 && responses == 0) {
                return "Please ensure that function call turn comes immediately after a user turn or after a function "
                        + "response turn.";
            }
            pendingCalls = calls;
        }
        return null;
    }

    private static String partProblem(JsonNode part, String at) {
        int data = 0;
        for (String field : new String[] {
            "text",
            "inlineData",
            "functionCall",
            "functionResponse",
            "fileData",
            "executableCode",
            "codeExecutionResult"
        }) {
            if (part.has(field)) data++;
        }
        if (data != 1) return at + ".data: required oneof field 'data' must have one initialized field";
        if (part.has("text") && !part.path("text").isTextual()) return at + ".text: must be a string";
        if (part.has("inlineData")) {
            JsonNode in = part.path("inlineData");
            if (in.path("mimeType").asText("").isBlank()) return at + ".inline_data.mime_type: mime_type must be set";
            try {
                if (Base64.getDecoder().decode(in.path("data").asText("")).length == 0)
                    return at + ".inline_data.data: data must not be empty";
            } catch (IllegalArgumentException e) {
                return "Invalid value at '" + at.substring(2)
                        + ".inline_data.data' (TYPE_BYTES), Base64 decoding failed";
            }
        }
        if (part.has("functionCall")) {
            JsonNode call = part.path("functionCall");
            if (call.path("name").asText("").isBlank()) return at + ".function_call.name: Name cannot be empty.";
            if (call.has("args") && !call.path("args").isObject()) return at + ".function_call.args: must be an object";
        }
        if (part.has("functionResponse")) {
            JsonNode fr = part.path("functionResponse");
            if (fr.path("name").asText("").isBlank()) return at + ".function_response.name: Name cannot be empty.";
            if (!fr.path("response").isObject()) return at + ".function_response.response: must be an object";
        }
        return null;
    }

    private static String toolsProblem(JsonNode tools) {
        if (tools.isMissingNode()) return null;
        if (!tools.isArray()) return "* GenerateContentRequest.tools: must be a list";
        for (int i = 0; i < tools.size(); i++) {
            JsonNode declarations = tools.get(i).path("functionDeclarations");
            for (int j = 0; j < declarations.size(); j++) {
                JsonNode d = declarations.get(j);
                String at = "* GenerateContentRequest.tools[" + i + "].function_declarations[" + j + "]";
                if (!FUNCTION_NAME.matcher(d.path("name").asText("")).matches()) {
                    return at
                            + ".name: Invalid function name. Must start with a letter or an underscore. Must be a-z, "
                            + "A-Z, "
                            + "0-9, or contains underscores, dots, colons and dashes, with a maximum length of 64.";
                }
                if (d.has("parameters") && d.has("parametersJsonSchema")) {
                    return at + ": parameters and parameters_json_schema cannot both be set";
                }
            }
        }
        return null;
    }
}

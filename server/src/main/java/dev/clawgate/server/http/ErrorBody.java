package dev.clawgate.server.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The error body of the gateway's own routes, in the OpenAI API's envelope (SPEC CH-10):
 * {@code {"error":{"message","type","param","code"}}}, which OpenAI's clients parse into their error types.
 */
public final class ErrorBody {
    private static final ObjectMapper JSON = new ObjectMapper();

    private ErrorBody() {}

    public static String of(String message, String type) {
        return of(message, type, null, null);
    }

    /** @param param the request field at fault, or null; @param code a machine-readable code, or null */
    public static String of(String message, String type, String param, String code) {
        ObjectNode n = JSON.createObjectNode();
        ObjectNode e = n.putObject("error").put("message", message).put("type", type);
        if (param == null) e.putNull("param");
        else e.put("param", param);
        if (code == null) e.putNull("code");
        else e.put("code", code);
        return n.toString();
    }
}

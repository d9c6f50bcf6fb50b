package dev.clawgate.core.internal.tool.builtin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.tool.ToolContext;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** Arguments and contexts for built-in tool tests. */
final class ToolFixtures {
    static final ObjectMapper JSON = new ObjectMapper();
    static final SessionKey SESSION = new SessionKey("test", null, ChatType.DIRECT, "room", null, "alice");

    private ToolFixtures() {}

    /** An arguments object from alternating names and values. */
    static JsonNode args(Object... namesAndValues) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) m.put((String) namesAndValues[i], namesAndValues[i + 1]);
        return JSON.valueToTree(m);
    }

    static ToolContext context(Path workspace) {
        return new ToolContext(workspace, SESSION, CancelToken.none());
    }

    static ToolContext context(Path workspace, CancelToken cancel) {
        return new ToolContext(workspace, SESSION, cancel);
    }
}

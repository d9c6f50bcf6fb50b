package dev.clawgate.core.internal.tool.builtin;

import dev.clawgate.core.internal.memory.MemoryScopes;
import dev.clawgate.core.memory.MemoryScope;
import java.util.List;

/** The {@code scope} argument of the memory tools: {@code sender}, {@code session} or {@code global} (SPEC ME-2). */
final class MemoryScopeArgument {
    static final String NAME = "scope";
    static final String DESCRIPTION = "Whose memory: 'sender' (the person you talk to), 'session' (this conversation, "
            + "e.g. a group), or 'global' (every conversation). Default: this conversation's own ('session' in a "
            + "group, "
            + "else 'sender')";

    private MemoryScopeArgument() {}

    /** The scope the argument names, or the turn's home scope when it is absent. */
    static MemoryScope read(ToolArguments args, MemoryScopes scopes) throws RefusedException {
        String raw = args.optionalString(NAME, null);
        if (raw == null || raw.isBlank()) return scopes.home();
        return switch (raw.strip()) {
            case "sender" -> scopes.sender();
            case "session" -> scopes.session();
            case "global" -> MemoryScope.global();
            default ->
                throw new RefusedException("argument 'scope' must be sender, session or global, was '" + raw + "'");
        };
    }

    /** The scopes a recall searches: the one named, or every scope this turn sees. */
    static List<List<MemoryScope>> readForRecall(ToolArguments args, MemoryScopes scopes) throws RefusedException {
        String raw = args.optionalString(NAME, null);
        if (raw == null || raw.isBlank()) return scopes.recallSets();
        return List.of(List.of(read(args, scopes)));
    }

    /** How a result names an entry's scope. */
    static String label(MemoryScope scope) {
        return scope.kind().wireName();
    }
}

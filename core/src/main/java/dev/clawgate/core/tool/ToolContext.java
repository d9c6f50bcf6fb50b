package dev.clawgate.core.tool;

import dev.clawgate.core.internal.memory.MemoryScopes;
import dev.clawgate.core.memory.Memory;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.run.CancelToken;
import java.nio.file.Path;

/**
 * Where and for whom a tool runs. {@code workspace} is the only directory file tools may touch; {@code messages} is the
 * only way a tool reaches a chat; {@code memory} and {@code memoryScopes} are the long-term memory and the scopes this
 * turn may read and write (SPEC ME-2, AG-5); {@code origin} is the turn's last inbound message (who asked, and where),
 * or null outside a turn.
 */
public record ToolContext(
        Path workspace,
        SessionKey session,
        CancelToken cancel,
        MessageSender messages,
        Memory memory,
        MemoryScopes memoryScopes,
        InboundMessage origin) {
    public ToolContext {
        messages = messages == null ? MessageSender.NONE : messages;
        memory = memory == null ? Memory.NONE : memory;
        memoryScopes = memoryScopes == null ? MemoryScopes.forSession(session) : memoryScopes;
    }

    public ToolContext(
            Path workspace,
            SessionKey session,
            CancelToken cancel,
            MessageSender messages,
            Memory memory,
            MemoryScopes memoryScopes) {
        this(workspace, session, cancel, messages, memory, memoryScopes, null);
    }

    public ToolContext(Path workspace, SessionKey session, CancelToken cancel, MessageSender messages) {
        this(workspace, session, cancel, messages, Memory.NONE, null);
    }

    public ToolContext(Path workspace, SessionKey session, CancelToken cancel) {
        this(workspace, session, cancel, MessageSender.NONE);
    }
}

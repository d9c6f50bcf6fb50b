package dev.clawgate.core.tool;

import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.run.CancelToken;
import java.nio.file.Path;

/** Where and for whom a tool runs. {@code workspace} is the only directory file tools may touch. */
public record ToolContext(Path workspace, SessionKey session, CancelToken cancel) {}

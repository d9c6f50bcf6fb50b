package dev.clawgate.core.store;

import dev.clawgate.core.model.Role;
import java.time.Instant;

/** One stored message of a session's transcript (SPEC HI-2). {@code inboxId} links a user message to its record. */
public record TranscriptEntry(long id, Role role, String content, Long inboxId, Instant createdAt) {}

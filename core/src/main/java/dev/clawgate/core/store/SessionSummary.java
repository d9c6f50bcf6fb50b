package dev.clawgate.core.store;

import dev.clawgate.core.model.SessionKey;
import java.time.Instant;

/** A session as listed by {@code clawgate sessions}. */
public record SessionSummary(SessionKey key, int messageCount, Instant lastActivity) {}

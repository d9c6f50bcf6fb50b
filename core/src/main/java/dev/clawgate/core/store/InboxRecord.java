package dev.clawgate.core.store;

import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.model.SessionKey;
import java.time.Instant;

/**
 * An inbound message as the inbox holds it.
 *
 * @param id the inbox id; the turn id of a turn whose last message this is (SPEC OUT-12)
 * @param attempts how many times a run was started for it (a crash re-run makes it 2)
 */
public record InboxRecord(
        long id, InboundMessage message, SessionKey session, InboxState state, int attempts, Instant recordedAt) {}

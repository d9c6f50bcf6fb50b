package dev.clawgate.testkit.slack;

import java.time.Instant;

/**
 * One Socket Mode envelope the fake sent.
 *
 * @param retryAttempt the envelope's {@code retry_attempt}: 0 first, then 1.. for each resend
 * @param connection which connection carried it: 1 for the first the fake accepted, 2 for the next...
 */
public record SocketEnvelope(String envelopeId, String eventId, int retryAttempt, int connection, Instant at) {}

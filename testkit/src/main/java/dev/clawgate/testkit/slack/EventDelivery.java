package dev.clawgate.testkit.slack;

import java.time.Instant;

/**
 * One HTTP attempt of the Events API pusher.
 *
 * @param retryNum 0 for the first attempt, else the {@code X-Slack-Retry-Num} sent
 * @param retryReason the {@code X-Slack-Retry-Reason} sent, null on the first attempt
 * @param status the HTTP status the app answered, or -1 when it did not answer in time or at all
 * @param failure why the attempt failed: {@code http_timeout}, {@code connection_failed}, {@code http_error},
 *     {@code unknown_error}; null when it got a 2xx
 */
public record EventDelivery(
        String eventId, String eventType, int retryNum, String retryReason, int status, String failure, Instant at) {
    public boolean accepted() {
        return failure == null;
    }
}

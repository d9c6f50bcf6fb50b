package dev.clawgate.testkit.whatsapp;

import java.util.List;

/**
 * One webhook notification the fake pushed: its JSON body and the HTTP status of every attempt (-1 when the target
 * could not be reached). It is {@code accepted} once the target answered 200.
 */
public record WebhookDelivery(String id, String body, List<Integer> attempts, boolean accepted) {
    public WebhookDelivery {
        attempts = List.copyOf(attempts);
    }
}

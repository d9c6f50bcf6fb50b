package dev.clawgate.testkit.whatsapp;

import java.util.List;

/** A group of the Cloud API's group messaging: an opaque {@code groupId} (not a WhatsApp Web {@code @g.us} JID). */
public record WhatsAppGroup(String groupId, String subject, List<WhatsAppContact> participants) {
    public WhatsAppGroup {
        participants = List.copyOf(participants);
    }
}

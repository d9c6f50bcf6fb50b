package dev.clawgate.channel.whatsapp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.model.Attachment;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a {@code whatsapp_business_account} notification (Messages and Status webhook references, SPEC CH-12, MD-1):
 * each {@code entry[].changes[]} of field {@code messages} whose {@code metadata.phone_number_id} is ours holds
 * {@code messages} (what customers wrote) or {@code statuses} (what became of what the business sent). A message's id
 * is its {@code wamid}, Meta's own and unique, so a redelivered notification dedupes (IN-1). A message carrying
 * {@code group_id} (the Cloud API's group messaging: an opaque id, not a {@code @g.us} JID) is a group message answered
 * in the group, scoped as the group (ME-2); anything else is a direct chat with the customer ({@code from}, their
 * wa_id). Never throws.
 */
final class MessageReader {
    static final String CHANNEL = "whatsapp";
    static final long MAX_DATE = 253_402_300_799L;

    /** One message of a notification, as the receiver must treat it. */
    sealed interface Reading {
        record Message(InboundMessage message, String waId) implements Reading {}

        /** Acknowledged, not recorded: a reaction, a system notice, another phone number's message. */
        record Ignored(String why) implements Reading {}

        /** Not what the reference documents: kept as failed, then acknowledged (SPEC IN-4). */
        record Unreadable(String ref, String reason, String raw) implements Reading {}
    }

    /** What one notification holds. */
    record Notification(List<Reading> messages, List<JsonNode> statuses) {}

    private final String phoneNumberId;
    private final MediaFetcher media;

    MessageReader(String phoneNumberId, MediaFetcher media) {
        this.phoneNumberId = phoneNumberId;
        this.media = media;
    }

    Notification read(JsonNode root) {
        List<Reading> messages = new ArrayList<>();
        List<JsonNode> statuses = new ArrayList<>();
        if (root == null
                || !"whatsapp_business_account".equals(root.path("object").asText())) {
            messages.add(new Reading.Unreadable(
                    "no-id", "not a whatsapp_business_account notification", String.valueOf(root)));
            return new Notification(messages, statuses);
        }
        for (JsonNode entry : root.path("entry")) {
            for (JsonNode change : entry.path("changes")) {
                JsonNode value = change.path("value");
                if (!"messages".equals(change.path("field").asText())) continue;
                if (!phoneNumberId.equals(
                        value.path("metadata").path("phone_number_id").asText())) {
                    messages.add(new Reading.Ignored("for another phone number"));
                    continue;
                }
                for (JsonNode s : value.path("statuses")) statuses.add(s);
                for (JsonNode m : value.path("messages")) messages.add(readOne(value, m));
            }
        }
        return new Notification(messages, statuses);
    }

    private Reading readOne(JsonNode value, JsonNode m) {
        try {
            return readChecked(value, m);
        } catch (RuntimeException e) {
            // a shape no rule foresaw: kept as failed and acknowledged, never redelivered for ever
            return new Reading.Unreadable(
                    m.path("id").asText("no-id"),
                    "could not read the message: " + e.getClass().getSimpleName(),
                    m.toString());
        }
    }

    private Reading readChecked(JsonNode value, JsonNode m) {
        String wamid = m.path("id").asText("");
        if (wamid.isEmpty() || wamid.length() > 256) return unreadable(m, "id is missing");
        String from = m.path("from").asText("");
        if (!from.matches("\\d{1,32}")) return unreadable(m, "from is not a wa_id");
        long date;
        try {
            date = Long.parseLong(m.path("timestamp").asText(""));
        } catch (NumberFormatException e) {
            return unreadable(m, "timestamp is not Unix seconds");
        }
        if (date < 0 || date > MAX_DATE) return unreadable(m, "timestamp is out of range");
        String type = m.path("type").asText("");
        String group = m.path("group_id").asText("");
        if (!group.isEmpty() && !group.matches("[A-Za-z0-9_=+/.:@-]{1,256}")) {
            return unreadable(m, "group_id is malformed");
        }
        List<Attachment> attachments = new ArrayList<>();
        String text;
        switch (type) {
            case "text" -> text = m.path("text").path("body").asText("");
            case "image", "document", "audio", "video", "sticker" -> {
                text = media.fetch(
                        m, type, attachments, m.path(type).path("caption").asText(""));
            }
            case "button" -> text = m.path("button").path("text").asText("");
            case "interactive" -> {
                JsonNode reply = m.path("interactive")
                        .path(m.path("interactive").path("type").asText());
                text = reply.path("title").asText("");
            }
            case "location" -> {
                JsonNode l = m.path("location");
                text = "[location " + l.path("latitude").asText() + ","
                        + l.path("longitude").asText()
                        + (l.has("name") ? " " + l.path("name").asText() : "") + "]";
            }
            case "reaction", "system", "unsupported", "request_welcome" -> {
                return new Reading.Ignored(type);
            }
            default -> text = "[a " + type + " message, which the gateway cannot read]";
        }
        boolean inGroup = !group.isEmpty();
        String business =
                value.path("metadata").path("display_phone_number").asText("").replaceAll("\\D", "");
        boolean mentioned = !inGroup
                || (!business.isEmpty()
                        && (text.contains("@" + business)
                                || business.equals(m.path("context")
                                        .path("from")
                                        .asText("")
                                        .replaceAll("\\D", ""))));
        String name = null;
        for (JsonNode c : value.path("contacts")) {
            if (from.equals(c.path("wa_id").asText()))
                name = c.path("profile").path("name").asText(null);
        }
        String target = inGroup ? group : from;
        InboundMessage message = new InboundMessage(
                wamid,
                CHANNEL,
                InboundMessage.DEFAULT_ACCOUNT,
                from,
                name,
                target,
                null,
                null,
                inGroup ? ChatType.GROUP : ChatType.DIRECT,
                mentioned,
                Instant.ofEpochSecond(date),
                text,
                attachments,
                m.toString());
        return new Reading.Message(message, inGroup ? null : from);
    }

    private static Reading unreadable(JsonNode m, String reason) {
        return new Reading.Unreadable(m.path("id").asText("no-id"), reason, m.toString());
    }
}

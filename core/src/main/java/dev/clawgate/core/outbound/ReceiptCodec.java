package dev.clawgate.core.outbound;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Receipts as the store keeps them (SPEC OUT-8): a JSON array, one object per receipt. */
public final class ReceiptCodec {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private ReceiptCodec() {}

    public static String toJson(List<MessageReceipt> receipts) {
        ArrayNode array = MAPPER.createArrayNode();
        for (MessageReceipt r : receipts) {
            ObjectNode n = array.addObject();
            n.put("primary_id", r.primaryId());
            ArrayNode ids = n.putArray("platform_ids");
            r.platformIds().forEach(ids::add);
            ArrayNode parts = n.putArray("parts");
            for (MessageReceipt.Part p : r.parts())
                parts.addObject().put("kind", p.kind().name()).put("id", p.platformId());
            n.put("thread_id", r.threadId());
            n.put("reply_to_id", r.replyToId());
            n.put("edit_token", r.editToken());
            n.put("delete_token", r.deleteToken());
            n.put("sent_at", r.sentAt().toEpochMilli());
            n.put("raw", r.raw());
        }
        return array.toString();
    }

    /** The receipts of {@code json}; empty for null or blank. */
    public static List<MessageReceipt> fromJson(String json) {
        if (json == null || json.isBlank()) return List.of();
        JsonNode array;
        try {
            array = MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("stored receipts are not JSON: " + e.getOriginalMessage(), e);
        }
        List<MessageReceipt> out = new ArrayList<>(array.size());
        for (JsonNode n : array) {
            List<String> ids = new ArrayList<>();
            n.path("platform_ids").forEach(id -> ids.add(id.asText()));
            List<MessageReceipt.Part> parts = new ArrayList<>();
            n.path("parts")
                    .forEach(p -> parts.add(new MessageReceipt.Part(
                            MessageReceipt.PartKind.valueOf(p.path("kind").asText()), text(p, "id"))));
            out.add(new MessageReceipt(
                    text(n, "primary_id"),
                    ids,
                    parts,
                    text(n, "thread_id"),
                    text(n, "reply_to_id"),
                    text(n, "edit_token"),
                    text(n, "delete_token"),
                    Instant.ofEpochMilli(n.path("sent_at").asLong()),
                    text(n, "raw")));
        }
        return out;
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }
}

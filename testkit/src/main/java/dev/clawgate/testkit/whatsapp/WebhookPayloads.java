package dev.clawgate.testkit.whatsapp;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * The {@code messages} webhook's notifications ("Messages webhook reference", "Status messages webhook reference",
 * "Group messages webhook reference"): {@code {"object":
 * "whatsapp_business_account","entry":[{"id":WABA,"changes":[{"field":"messages","value":{
 * "messaging_product":"whatsapp","metadata":{...},"contacts":[...],"messages":[...]}}]}]}}, or {@code "statuses":[...]}
 * in place of contacts and messages. Timestamps are Unix seconds as strings.
 */
final class WebhookPayloads {
    static final ObjectMapper JSON = new ObjectMapper();

    private final String wabaId;
    private final String phoneNumberId;
    private final String displayPhoneNumber;

    WebhookPayloads(String wabaId, String phoneNumberId, String displayPhoneNumber) {
        this.wabaId = wabaId;
        this.phoneNumberId = phoneNumberId;
        this.displayPhoneNumber = displayPhoneNumber;
    }

    /** A user's message(s); each message object carries {@code from}, {@code id}, {@code timestamp}, {@code type}. */
    ObjectNode messages(WhatsAppContact from, List<ObjectNode> messages) {
        ObjectNode value = value();
        value.putArray("contacts")
                .addObject()
                .put("wa_id", from.waId())
                .putObject("profile")
                .put("name", from.name());
        var list = value.putArray("messages");
        messages.forEach(list::add);
        return envelope(value);
    }

    ObjectNode message(WhatsAppContact from, String wamid, long epochSeconds, String type) {
        return JSON.createObjectNode()
                .put("from", from.waId())
                .put("id", wamid)
                .put("timestamp", Long.toString(epochSeconds))
                .put("type", type);
    }

    /**
     * One status of a message the business sent. {@code sent} carries the conversation and pricing (service
     * conversation, free customer-service pricing), {@code failed} carries {@code errors}. For a group,
     * {@code recipient_type} is {@code group} and {@code recipient_id} the group id.
     */
    ObjectNode status(OutboundMessage m, String status, long epochSeconds, GraphError error) {
        ObjectNode s = JSON.createObjectNode()
                .put("id", m.wamid())
                .put("status", status)
                .put("timestamp", Long.toString(epochSeconds))
                .put("recipient_id", m.to());
        if (m.recipientType().equals("group")) s.put("recipient_type", "group");
        if (error != null) {
            s.putArray("errors").add(error.webhookError());
        } else if (!status.equals("read")) {
            ObjectNode conv = s.putObject("conversation").put("id", "conv-" + Integer.toHexString(m.to().hashCode()));
            conv.putObject("origin").put("type", "service");
            s.putObject("pricing")
                    .put("billable", false)
                    .put("pricing_model", "PMP")
                    .put("category", "service")
                    .put("type", "free_customer_service");
        }
        ObjectNode value = value();
        value.putArray("statuses").add(s);
        return envelope(value);
    }

    private ObjectNode value() {
        ObjectNode value = JSON.createObjectNode().put("messaging_product", "whatsapp");
        value.putObject("metadata")
                .put("display_phone_number", displayPhoneNumber)
                .put("phone_number_id", phoneNumberId);
        return value;
    }

    private ObjectNode envelope(ObjectNode value) {
        ObjectNode root = JSON.createObjectNode().put("object", "whatsapp_business_account");
        ObjectNode change = root.putArray("entry")
                .addObject()
                .put("id", wabaId)
                .putArray("changes")
                .addObject();
        change.set("value", value);
        change.put("field", "messages");
        return root;
    }
}
